import { describe, expect, it } from 'vitest';
import { ENV, environmentHelp, envValue, loadConfig, missingSettings } from '../src/config.js';
import { createLogger } from '../src/log.js';

describe('configuration from the environment', () => {
  it('applies the documented defaults', () => {
    const { config, problems, demo } = loadConfig({});
    expect(demo).toBe(false);
    expect(config).toEqual({
      apiKey: undefined,
      baseUrl: undefined,
      timeoutMs: 15_000,
      maxRetries: 2,
      maxConcurrency: 4,
      logLevel: 'warn',
      httpToken: undefined,
      analysisTimeoutMs: 30_000,
      analysisMaxRequests: 200,
      databaseUrl: undefined,
      historyDays: 400,
      watchIntervalMinutes: 0,
      httpHost: '127.0.0.1',
      httpPort: 3333,
      httpAllowedHosts: [],
      httpAllowedOrigins: [],
      httpTrustProxy: [],
      httpSendTimeoutMs: 30_000,
    });
    expect(problems).toEqual([]);
    expect(missingSettings(config)).toEqual(['STREAMER_ANALYTICS_API_KEY', 'STREAMER_ANALYTICS_BASE_URL']);
  });

  it('reads every variable', () => {
    const { config } = loadConfig({
      STREAMER_ANALYTICS_API_KEY: ' k1 ',
      STREAMER_ANALYTICS_BASE_URL: 'https://h.example/api/v1/',
      STREAMER_ANALYTICS_TIMEOUT_MS: '5000',
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
      STREAMER_ANALYTICS_MAX_CONCURRENCY: '8',
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
      STREAMER_ANALYTICS_HTTP_TOKEN: 'tok',
      STREAMER_ANALYTICS_ANALYSIS_TIMEOUT_MS: '5000',
      STREAMER_ANALYTICS_ANALYSIS_MAX_REQUESTS: '50',
      STREAMER_ANALYTICS_DATABASE_URL: 'postgres://db.example/history',
      STREAMER_ANALYTICS_HISTORY_DAYS: '30',
      STREAMER_ANALYTICS_WATCH_INTERVAL_MINUTES: '60',
      STREAMER_ANALYTICS_HTTP_HOST: '0.0.0.0',
      STREAMER_ANALYTICS_HTTP_PORT: '8080',
      STREAMER_ANALYTICS_HTTP_ALLOWED_HOSTS: 'MCP.example.com, other.example',
      STREAMER_ANALYTICS_HTTP_ALLOWED_ORIGINS: 'https://app.example',
      STREAMER_ANALYTICS_HTTP_TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
      STREAMER_ANALYTICS_HTTP_SEND_TIMEOUT_MS: '1000',
    });
    expect(config).toEqual({
      apiKey: 'k1',
      baseUrl: 'https://h.example/api/v1/',
      timeoutMs: 5000,
      maxRetries: 0,
      maxConcurrency: 8,
      logLevel: 'debug',
      httpToken: 'tok',
      analysisTimeoutMs: 5000,
      analysisMaxRequests: 50,
      databaseUrl: 'postgres://db.example/history',
      historyDays: 30,
      watchIntervalMinutes: 60,
      httpHost: '0.0.0.0',
      httpPort: 8080,
      httpAllowedHosts: ['mcp.example.com', 'other.example'],
      httpAllowedOrigins: ['https://app.example'],
      httpTrustProxy: ['10.0.0.0/8', '127.0.0.1'],
      httpSendTimeoutMs: 1000,
    });
    expect(missingSettings(config)).toEqual([]);
  });

  it.each(['', '   ', '${user_config.api_key}', '${user_config.base_url}'])('treats %j as unset', (value) => {
    expect(envValue(value)).toBeUndefined();
    const { config } = loadConfig({
      STREAMER_ANALYTICS_API_KEY: value,
      STREAMER_ANALYTICS_TIMEOUT_MS: value,
    });
    expect(config.apiKey).toBeUndefined();
    expect(config.timeoutMs).toBe(15_000);
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
    ['${user_config.demo}', false],
  ])('reads STREAMER_ANALYTICS_DEMO %j as %s', (value, demo) => {
    const loaded = loadConfig({ STREAMER_ANALYTICS_DEMO: value });
    expect(loaded.demo).toBe(demo);
    expect(loaded.problems).toEqual([]);
  });

  it("bounds run_analysis's limits, falling back to 30,000 ms and 200 requests", () => {
    const { config, problems } = loadConfig({
      STREAMER_ANALYTICS_ANALYSIS_TIMEOUT_MS: '10',
      STREAMER_ANALYTICS_ANALYSIS_MAX_REQUESTS: 'many',
    });
    expect(config).toMatchObject({ analysisTimeoutMs: 30_000, analysisMaxRequests: 200 });
    expect(problems).toEqual([
      'STREAMER_ANALYTICS_ANALYSIS_TIMEOUT_MS must be at least 100; using the default',
      'STREAMER_ANALYTICS_ANALYSIS_MAX_REQUESTS must be a whole number; using the default',
    ]);
  });

  it('reports an invalid value and falls back instead of exiting', () => {
    const { config, problems, demo } = loadConfig({
      STREAMER_ANALYTICS_DEMO: 'yes please',
      STREAMER_ANALYTICS_TIMEOUT_MS: 'soon',
      STREAMER_ANALYTICS_MAX_RETRIES: '99',
      STREAMER_ANALYTICS_LOG_LEVEL: 'loud',
      STREAMER_ANALYTICS_BASE_URL: 'ftp://h.example',
    });
    expect(config).toMatchObject({ timeoutMs: 15_000, maxRetries: 2, logLevel: 'warn', baseUrl: undefined });
    expect(demo).toBe(false);
    expect(problems).toEqual([
      'STREAMER_ANALYTICS_BASE_URL must be an http(s) URL; using none',
      'STREAMER_ANALYTICS_TIMEOUT_MS must be a whole number; using the default',
      'STREAMER_ANALYTICS_MAX_RETRIES must be at most 10; using the default',
      'STREAMER_ANALYTICS_LOG_LEVEL must be one of error, warn, info, debug; using the default',
      'STREAMER_ANALYTICS_DEMO must be true or false; using false',
    ]);
  });
});

describe('history and --http settings', () => {
  it('bounds the history settings, falling back to their defaults', () => {
    const { config, problems } = loadConfig({
      STREAMER_ANALYTICS_HISTORY_DAYS: '4000',
      STREAMER_ANALYTICS_WATCH_INTERVAL_MINUTES: '5',
      STREAMER_ANALYTICS_DATABASE_URL: 'mysql://db.example/x',
    });
    // A wrong database is no database (not the default file, where the user did not ask to keep data).
    expect(config).toMatchObject({ historyDays: 400, watchIntervalMinutes: 0, databaseUrl: 'off' });
    expect(problems).toEqual([
      'STREAMER_ANALYTICS_DATABASE_URL must be a path, a file: URL, a postgres:// or postgresql:// URL, or off; using off (nothing is kept until it is fixed)',
      'STREAMER_ANALYTICS_HISTORY_DAYS must be at most 3650; using the default',
      'STREAMER_ANALYTICS_WATCH_INTERVAL_MINUTES must be 0 (off) or at least 15; using the default',
    ]);
    for (const url of ['off', '/var/lib/x.db', 'file:///tmp/x.db', 'postgresql://u@h/db', 'C:\\data\\x.db'])
      expect(loadConfig({ STREAMER_ANALYTICS_DATABASE_URL: url }).config.databaseUrl).toBe(url);
  });

  it("reports --http's invalid settings apart (--http refuses to start), a flag named as the flag", () => {
    const { httpProblems, problems } = loadConfig(
      {
        STREAMER_ANALYTICS_HTTP_PORT: '3333',
        STREAMER_ANALYTICS_HTTP_TRUST_PROXY: 'proxy.example',
        STREAMER_ANALYTICS_HTTP_SEND_TIMEOUT_MS: '10',
      },
      { port: '70000' },
    );
    expect(problems).toEqual([]);
    expect(httpProblems).toEqual([
      '--port: must be a whole number from 0 to 65535, got 70000',
      'STREAMER_ANALYTICS_HTTP_TRUST_PROXY: not an address or CIDR: proxy.example',
      'STREAMER_ANALYTICS_HTTP_SEND_TIMEOUT_MS: must be a whole number from 100 to 600000, got 10',
    ]);
  });

  it('lists every variable it reads in --help, with its default', () => {
    const help = environmentHelp();
    for (const name of Object.values(ENV)) expect(help).toContain(name);
    expect(help).toMatch(
      /STREAMER_ANALYTICS_HISTORY_DAYS +days observations are kept, 1-3650 \(default 400\)/,
    );
    expect(help).toMatch(/STREAMER_ANALYTICS_HTTP_PORT +.*\(default 3333\); --port overrides it/);
  });
});

describe('logger', () => {
  it('redacts the key in headers, URLs, upstream messages and nested error causes', () => {
    const lines: string[] = [];
    const key = 'sk-live-5f2e9a';
    const log = createLogger('debug', [key], (l) => lines.push(l));
    const cause = new Error(`socket said ${key}`, { cause: new Error(`deeper ${key}`) });
    const error = Object.assign(new Error('request failed', { cause }), {
      detail: { upstreamMessage: `echo ${key}` },
    });
    log.error('upstream', { headers: { 'x-api-key': key }, url: `https://h/x?k=${key}`, error });
    expect(lines.join('')).not.toContain(key);
    const entry = JSON.parse(lines[0] as string);
    expect(entry.headers['x-api-key']).toBe('[redacted]');
    expect(entry.error.cause.cause.message).toBe('deeper [redacted]');
    expect(entry.error.detail.upstreamMessage).toBe('echo [redacted]');
  });

  it('writes JSON lines at or above its level, secrets redacted', () => {
    const lines: string[] = [];
    const log = createLogger('warn', ['s3cret-key-1234'], (l) => lines.push(l));
    log.debug('hidden');
    log.info('hidden');
    log.warn('shown', { url: 'https://x/?key=s3cret-key-1234', error: new Error('boom s3cret-key-1234') });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] as string);
    expect(entry).toMatchObject({ level: 'warn', msg: 'shown', url: 'https://x/?key=[redacted]' });
    expect(entry.error).toMatchObject({ name: 'Error', message: 'boom [redacted]' });
  });

  it('redacts no secret shorter than 8 characters, and never the fields the server writes itself', () => {
    const lines: string[] = [];
    const log = createLogger('warn', ['warn', 'error'], (l) => lines.push(l)).redacting('"');
    log.warn('tool call failed', { error: new Error('an error') });
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 'warn',
      msg: 'tool call failed',
      error: { message: 'an error' },
    });
    const long = createLogger('warn', ['tool call failed'], (l) => lines.push(l));
    long.warn('tool call failed', { said: 'tool call failed' });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ msg: 'tool call failed', said: '[redacted]' });
  });
});
