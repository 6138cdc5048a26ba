// Every environment variable the server reads, in one table. A plain reader checks the environment at start;
// zod is built only to say what is wrong.
import * as z from 'zod';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The defaults other modules state (run_analysis's limits, in its description and errors). */
export const DEFAULTS = { analysisTimeoutMs: 30_000, analysisMaxRequests: 200 } as const;

const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** An IPv4 or IPv6 address, without node:net: the view's bundle reads this module. */
const isAddress = (a: string) => IPV4.test(a) || (/^[\da-f:.]+$/i.test(a) && URL.canParse(`http://[${a}]/`));
const isProxy = (entry: string) => {
  const [address = '', bits, extra] = entry.split('/');
  return isAddress(address) && extra === undefined && (bits === undefined || /^\d{1,3}$/.test(bits));
};

/** What a setting holds. `said`: every problem is said as its range. */
type Check<T> = readonly [(v: T) => boolean, string];
type Kind =
  | { type: 'text'; fallback?: string; check?: Check<string> }
  | { type: 'url' }
  | { type: 'int'; min: number; max: number; fallback: number; said?: true; check?: Check<number> }
  | { type: 'enum'; values: readonly LogLevel[]; fallback: LogLevel }
  | { type: 'bool' }
  | { type: 'list'; lower?: true; each?: (entry: string) => boolean };
type Outs = {
  text: string | undefined;
  url: string | undefined;
  int: number;
  enum: LogLevel;
  bool: boolean;
  list: string[];
};
type Out<K extends Kind> = K extends { type: 'text'; fallback: string } ? string : Outs[K['type']];

// `http` (HTTP_*): an invalid value stops --http from starting (an operator's deployment); any other falls
// back to its default with a problem reported, so the server always starts and can explain itself.
interface Setting {
  name: string;
  kind: Kind;
  help: string;
  http?: boolean;
  flag?: string;
}

const setting = <N extends string, K extends Kind>(suffix: N, kind: K, help: string, flag?: string) => ({
  name: `STREAMER_ANALYTICS_${suffix}` as const,
  kind,
  help,
  http: suffix.startsWith('HTTP_'),
  ...(flag ? { flag } : {}),
});
const int = (min: number, max: number, fallback: number, said?: true) =>
  ({ type: 'int', min, max, fallback, ...(said ? { said } : {}) }) as const;
const TEXT = { type: 'text' } as const;

const SETTINGS = {
  apiKey: setting('API_KEY', TEXT, 'API key, sent as x-api-key (required for real data)'),
  baseUrl: setting(
    'BASE_URL',
    { type: 'url' },
    'service base address, path prefix allowed (required for real data)',
  ),
  timeoutMs: setting('TIMEOUT_MS', int(100, 600_000, 15_000), 'per upstream request, 100-600000'),
  maxRetries: setting('MAX_RETRIES', int(0, 10, 2), 'retries on 429, 5xx, network errors, timeouts, 0-10'),
  maxConcurrency: setting('MAX_CONCURRENCY', int(1, 64, 4), 'upstream requests in flight at once, 1-64'),
  logLevel: setting(
    'LOG_LEVEL',
    { type: 'enum', values: LOG_LEVELS, fallback: 'warn' },
    `stderr log level: ${LOG_LEVELS.join(', ')}`,
  ),
  httpToken: setting('HTTP_TOKEN', TEXT, 'bearer token required by --http (needed to bind beyond loopback)'),
  analysisTimeoutMs: setting(
    'ANALYSIS_TIMEOUT_MS',
    int(100, 600_000, DEFAULTS.analysisTimeoutMs),
    'the time one run_analysis program may run, 100-600000',
  ),
  analysisMaxRequests: setting(
    'ANALYSIS_MAX_REQUESTS',
    int(1, 10_000, DEFAULTS.analysisMaxRequests),
    'the upstream requests one run_analysis program may make, 1-10000',
  ),
  databaseUrl: setting(
    'DATABASE_URL',
    {
      type: 'text',
      check: [
        (v: string) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^(file|postgres|postgresql):\/\//i.test(v),
        'must be a path, a file: URL, a postgres:// or postgresql:// URL, or off',
      ],
    },
    "history and watchlists: a path or file: URL (SQLite), postgres:// (PostgreSQL), or off (default: an SQLite file in the platform's data folder)",
  ),
  historyDays: setting('HISTORY_DAYS', int(1, 3650, 400), 'days observations are kept, 1-3650'),
  watchIntervalMinutes: setting(
    'WATCH_INTERVAL_MINUTES',
    // At most a week: a timer past 2^31 ms (about 24.8 days) would fire at once.
    { ...int(0, 10_080, 0), check: [(v: number) => v === 0 || v >= 15, 'must be 0 (off) or at least 15'] },
    '--http only: re-check every watchlist every so many minutes; 0 is off, else 15-10080',
  ),
  demo: setting('DEMO', { type: 'bool' }, 'true: the same as --demo'),
  httpHost: setting(
    'HTTP_HOST',
    { type: 'text', fallback: '127.0.0.1' },
    'the address --http listens on',
    '--host',
  ),
  httpPort: setting('HTTP_PORT', int(0, 65_535, 3333, true), 'the port --http listens on', '--port'),
  httpAllowedHosts: setting(
    'HTTP_ALLOWED_HOSTS',
    { type: 'list', lower: true },
    'Host header values --http accepts, comma-separated (default: loopback names)',
    '--allowed-hosts',
  ),
  httpAllowedOrigins: setting(
    'HTTP_ALLOWED_ORIGINS',
    { type: 'list' },
    'browser Origins --http accepts, comma-separated',
    '--allowed-origins',
  ),
  httpTrustProxy: setting(
    'HTTP_TRUST_PROXY',
    { type: 'list', each: isProxy },
    'proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For --http reads',
  ),
  httpSendTimeoutMs: setting(
    'HTTP_SEND_TIMEOUT_MS',
    int(100, 600_000, 30_000, true),
    'a client taking nothing of its answer this long is disconnected',
  ),
} satisfies Record<string, Setting>;

type Key = keyof typeof SETTINGS;
type Values = { [K in Key]: Out<(typeof SETTINGS)[K]['kind']> };

/** The configuration the server runs with (STREAMER_ANALYTICS_DEMO is read apart: `LoadedConfig.demo`). */
export type Config = Omit<Values, 'demo'>;

export const ENV = Object.fromEntries(Object.entries(SETTINGS).map(([k, s]) => [k, s.name])) as {
  [K in Key]: (typeof SETTINGS)[K]['name'];
};

const WRONG = Symbol('wrong');
const splitList = (v: string) => v.split(',').flatMap((s) => s.trim() || []);
/** The plain reader: a setting's value, its default when unset, or WRONG (zod then says why). */
function read(kind: Kind, v: string | undefined): unknown {
  switch (kind.type) {
    case 'text':
      return v === undefined ? kind.fallback : !kind.check || kind.check[0](v) ? v : WRONG;
    case 'url':
      // zod's own checks for an http(s) URL; a value it would rewrite (tabs, newlines) is left to it.
      return v === undefined ? v : /^https?:\/\/[^\t\n\r]*$/i.test(v) && URL.canParse(v) ? v : WRONG;
    case 'int': {
      if (v === undefined) return kind.fallback;
      const n = Number(v);
      const ok =
        Number.isSafeInteger(n) && n >= kind.min && n <= kind.max && (!kind.check || kind.check[0](n));
      return ok ? n : WRONG;
    }
    case 'enum':
      return v === undefined ? kind.fallback : kind.values.includes(v as LogLevel) ? v : WRONG;
    case 'bool':
      return v === undefined ? false : /^(true|1)$/i.test(v) ? true : /^(false|0)$/i.test(v) ? false : WRONG;
    case 'list': {
      const entries = v === undefined ? [] : splitList(v).map((e) => (kind.lower ? e.toLowerCase() : e));
      return kind.each && !entries.every(kind.each) ? WRONG : entries;
    }
  }
}

/** The same setting as a zod schema, for saying what is wrong with a value. */
function schemaOf(kind: Kind): z.ZodType {
  switch (kind.type) {
    case 'text': {
      const text = kind.check ? z.string().refine(...kind.check) : z.string();
      return kind.fallback === undefined ? text.optional() : text.default(kind.fallback);
    }
    case 'url':
      return z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional();
    case 'int': {
      const said = kind.said ? `must be a whole number from ${kind.min} to ${kind.max}` : undefined;
      const n = z.coerce.number({ error: said }).int(said).min(kind.min, said).max(kind.max, said);
      return kind.check ? n.default(kind.fallback).refine(...kind.check) : n.default(kind.fallback);
    }
    case 'enum':
      return z.enum(kind.values).default(kind.fallback);
    case 'bool':
      return z
        .string()
        .regex(/^(true|false|1|0)$/i, 'must be true or false')
        .transform((v) => /^(true|1)$/i.test(v))
        .default(false);
    case 'list': {
      const list = z.string().transform(splitList).default([]);
      if (kind.lower) return list.transform((hosts) => hosts.map((h) => h.toLowerCase()));
      const each = kind.each;
      if (!each) return list;
      return list.superRefine((entries, ctx) => {
        const wrong = entries.find((e) => !each(e));
        if (wrong !== undefined)
          ctx.addIssue({ code: 'custom', message: `not an address or CIDR: ${wrong}` });
      });
    }
  }
}

/** A value that is empty, or still the desktop bundle's `${user_config.X}` placeholder, counts as unset. */
export function envValue(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  return !value || /^\$\{user_config\.[^}]*\}$/.test(value) ? undefined : value;
}

export interface LoadedConfig {
  config: Config;
  demo: boolean;
  /** Variables whose value was invalid and replaced by the default (or left unset), one line each. */
  problems: string[];
  /** --http's settings (or flags) that are invalid: --http refuses to start with them. */
  httpProblems: string[];
}

export type HttpFlags = Partial<Record<'host' | 'port' | 'allowed-hosts' | 'allowed-origins', string>>;

/** Reads the environment (and --http's flags). Never throws: an invalid value is reported and falls back. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: HttpFlags = {}): LoadedConfig {
  const entries = Object.entries(SETTINGS) as Array<[Key, Setting]>;
  const raw: Record<string, string | undefined> = {};
  const fromFlag = new Set<Key>();
  // Unset values stay as keys, undefined: a Config always names every setting.
  const values: Record<string, unknown> = {};
  let wrong = false;
  for (const [key, setting] of entries) {
    const flagged = setting.flag ? flags[setting.flag.slice(2) as keyof HttpFlags] : undefined;
    if (flagged !== undefined) fromFlag.add(key);
    raw[key] = flagged ?? envValue(env[setting.name]);
    values[key] = read(setting.kind, raw[key]);
    if (values[key] === WRONG) wrong = true;
  }
  const problems: string[] = [];
  const httpProblems: string[] = [];
  if (wrong) {
    const schema = z.object(Object.fromEntries(entries.map(([k, s]) => [k, schemaOf(s.kind)])));
    // Each wrong value is said and left out; the rest is parsed again.
    for (const issue of schema.safeParse(raw).error?.issues ?? []) {
      const key = String(issue.path[0]) as Key;
      const setting: Setting = SETTINGS[key];
      const said = describeProblem(issue);
      if (setting.http) {
        const got = issue.code === 'custom' ? '' : `, got ${raw[key]}`;
        httpProblems.push(`${fromFlag.has(key) ? setting.flag : setting.name}: ${said}${got}`);
      } else problems.push(`${setting.name} ${said}; using ${FALLBACK_SAID[key] ?? 'the default'}`);
      // A wrong database is no database: never the default file, where the user did not ask to keep data.
      if (key === 'databaseUrl') raw[key] = 'off';
      else delete raw[key];
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new Error('configuration defaults do not parse');
    for (const [key] of entries) values[key] = (parsed.data as Record<string, unknown>)[key];
  }
  const { demo, ...config } = values as Values;
  return { config, demo, problems, httpProblems };
}

/** What a wrong value is replaced with, where that is not its default. */
const FALLBACK_SAID: Partial<Record<Key, string>> = {
  baseUrl: 'none',
  demo: 'false',
  databaseUrl: 'off (nothing is kept until it is fixed)',
};

function describeProblem(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom' || issue.message.startsWith('must')) return issue.message;
  if (issue.code === 'too_small') return `must be at least ${issue.minimum}`;
  if (issue.code === 'too_big') return `must be at most ${issue.maximum}`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.join(', ')}`;
  if (issue.code === 'invalid_type') return 'must be a whole number';
  return issue.message;
}

/** The `Environment:` lines of --help: every variable the configuration reads, with its default. */
export function environmentHelp(): string {
  const entries = Object.values(SETTINGS) as Setting[];
  const width = Math.max(...entries.map((s) => s.name.length)) + 2;
  return entries
    .map((s) => {
      const value = read(s.kind, undefined);
      const shown =
        value === undefined || (Array.isArray(value) && !value.length) ? '' : ` (default ${value})`;
      return `  ${s.name.padEnd(width)}${s.help}${shown}${s.flag ? `; ${s.flag} overrides it` : ''}`;
    })
    .join('\n');
}

/** What is missing before any upstream call can be made; empty when the server is ready. */
export const missingSettings = (config: Pick<Config, 'apiKey' | 'baseUrl'>): string[] =>
  (['apiKey', 'baseUrl'] as const).filter((k) => !config[k]).map((k) => ENV[k]);
