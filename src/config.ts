import * as z from 'zod';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxConcurrency: number;
  logLevel: LogLevel;
  httpToken: string | undefined;
  /** The time one run_analysis program may run. */
  analysisTimeoutMs: number;
  /** The upstream requests one run_analysis program may make. */
  analysisMaxRequests: number;
}

export const ENV = {
  apiKey: 'STREAMER_ANALYTICS_API_KEY',
  baseUrl: 'STREAMER_ANALYTICS_BASE_URL',
  timeoutMs: 'STREAMER_ANALYTICS_TIMEOUT_MS',
  maxRetries: 'STREAMER_ANALYTICS_MAX_RETRIES',
  maxConcurrency: 'STREAMER_ANALYTICS_MAX_CONCURRENCY',
  logLevel: 'STREAMER_ANALYTICS_LOG_LEVEL',
  httpToken: 'STREAMER_ANALYTICS_HTTP_TOKEN',
  analysisTimeoutMs: 'STREAMER_ANALYTICS_ANALYSIS_TIMEOUT_MS',
  analysisMaxRequests: 'STREAMER_ANALYTICS_ANALYSIS_MAX_REQUESTS',
  demo: 'STREAMER_ANALYTICS_DEMO',
} as const satisfies Record<keyof Config | 'demo', string>;

const int = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const schema = z.object({
  apiKey: z.string().optional(),
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  timeoutMs: int(100, 600_000, 15_000),
  maxRetries: int(0, 10, 2),
  maxConcurrency: int(1, 64, 4),
  logLevel: z.enum(LOG_LEVELS).default('warn'),
  httpToken: z.string().optional(),
  analysisTimeoutMs: int(100, 600_000, 30_000),
  analysisMaxRequests: int(1, 10_000, 200),
  // What a desktop bundle passes for a boolean setting: "true" or "false".
  demo: z
    .string()
    .regex(/^(true|false|1|0)$/i, 'must be true or false')
    .transform((v) => /^(true|1)$/i.test(v))
    .default(false),
});

/** A value that is empty, or still the desktop bundle's `${user_config.X}` placeholder, counts as unset. */
export function envValue(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value || /^\$\{user_config\.[^}]*\}$/.test(value)) return undefined;
  return value;
}

export interface LoadedConfig {
  config: Config;
  /** STREAMER_ANALYTICS_DEMO is true: run as with --demo (the embedded simulator, no upstream). */
  demo: boolean;
  /** Variables whose value was invalid and replaced by the default (or left unset), one line each. */
  problems: string[];
}

/**
 * Reads the configuration from the environment once. Never throws: an invalid value is reported
 * in `problems` and falls back to its default, so the server always starts and can explain itself.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const raw: Record<string, string | undefined> = {};
  for (const [key, name] of Object.entries(ENV)) raw[key] = envValue(env[name]);

  const problems: string[] = [];
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]) as keyof typeof ENV;
      problems.push(
        `${ENV[key]} ${describeProblem(issue)}; using ${key === 'baseUrl' ? 'none' : key === 'demo' ? 'false' : 'the default'}`,
      );
      delete raw[key];
    }
  }
  const { demo, ...config } = schema.parse(raw);
  return {
    config: { ...config, apiKey: config.apiKey, baseUrl: config.baseUrl, httpToken: config.httpToken },
    demo,
    problems,
  };
}

function describeProblem(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small') return `must be at least ${issue.minimum}`;
  if (issue.code === 'too_big') return `must be at most ${issue.maximum}`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.join(', ')}`;
  if (issue.code === 'invalid_type') return 'must be a whole number';
  return issue.message;
}

/** What is missing before any upstream call can be made; empty when the server is ready. */
export function missingSettings(config: Config): string[] {
  const missing: string[] = [];
  if (!config.apiKey) missing.push(ENV.apiKey);
  if (!config.baseUrl) missing.push(ENV.baseUrl);
  return missing;
}
