import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, type ApiClientOptions, buildUrl } from '../../src/api/client.js';
import type { ApiError } from '../../src/api/errors.js';
import { parseRetryAfter, retryDelay } from '../../src/api/retry.js';
import { describeError } from '../../src/format/errors.js';
import { createLogger } from '../../src/log.js';
import type { Simulator } from '../../src/simulator/server.js';
import { failure, SIM_KEY, startSim } from '../helpers.js';

let sim: Simulator;
let api: ApiClient;
const logLines: string[] = [];
const health = { method: 'GET', path: '/health' } as const;

function client(overrides: Partial<ApiClientOptions> = {}) {
  return new ApiClient({
    baseUrl: sim.url,
    apiKey: SIM_KEY,
    // Wide enough that a loaded machine's answer is never timed out (and retried) on its way.
    timeoutMs: 1_000,
    maxRetries: 2,
    logger: createLogger('debug', [SIM_KEY], (line) => logLines.push(line)),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    // These tests count requests one by one; the breaker has its own tests.
    breaker: { threshold: 1_000 },
    ...overrides,
  });
}

beforeAll(async () => {
  sim = await startSim();
  api = client();
});
afterAll(async () => {
  await api.close();
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  logLines.length = 0;
});

describe('base URL joining', () => {
  it.each([
    ['https://h.example/api/v1', '/streamers', 'https://h.example/api/v1/streamers'],
    ['https://h.example/api/v1/', '/streamers', 'https://h.example/api/v1/streamers'],
    ['https://h.example', '/health', 'https://h.example/health'],
    ['https://h.example/', '/health', 'https://h.example/health'],
  ])('%s + %s', (base, path, want) => {
    expect(buildUrl(base, path)).toBe(want);
  });

  it('adds the query and skips undefined values', () => {
    expect(buildUrl('https://h.example/v1', '/x', { chain: 'all', page: 2, none: undefined })).toBe(
      'https://h.example/v1/x?chain=all&page=2',
    );
  });

  it('keeps a path prefix on the wire', async () => {
    const prefixed = client({ baseUrl: `${sim.url}/api/v1/` });
    await failure(prefixed.request(health));
    await prefixed.close();
    expect(sim.requests[0]?.path).toBe('/api/v1/health');
  });
});

describe('retries', () => {
  it('retries a 503 and a 502, then answers', async () => {
    sim.inject({ status: 503 }, { status: 502 });
    const res = await api.request(health);
    expect(res.attempts).toBe(3);
    expect(sim.requests).toHaveLength(3);
    expect(logLines.filter((l) => l.includes('retrying upstream request'))).toHaveLength(2);
  });

  it('gives up after MAX_RETRIES with the last status', async () => {
    sim.inject({ status: 500 }, { status: 500 }, { status: 504 });
    const error = await failure(api.request(health));
    expect(error.kind).toBe('upstream');
    expect(error.detail).toMatchObject({ status: 504, attempts: 3 });
    expect(sim.requests).toHaveLength(3);
  });

  it('makes no retry when MAX_RETRIES is 0', async () => {
    const once = client({ maxRetries: 0 });
    sim.inject({ status: 503 });
    expect((await failure(once.request(health))).detail.attempts).toBe(1);
    await once.close();
  });

  it('waits out Retry-After in seconds', async () => {
    sim.inject({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const res = await api.request(health);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(res.attempts).toBe(2);
  });

  it('waits out Retry-After as an HTTP date', async () => {
    sim.inject({ status: 429, headers: { 'retry-after': new Date(Date.now() + 1500).toUTCString() } });
    const started = Date.now();
    await api.request(health);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('reports a Retry-After beyond the cap at once, with the wait', async () => {
    sim.inject({ status: 429, headers: { 'retry-after': '120' } });
    const error = await failure(api.request(health));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail).toMatchObject({ attempts: 1, retryAfterMs: 120_000 });
    expect(describeError(error)).toContain('[error: rate_limited · retryable · retry_after_s=120]');
  });

  it('retries a 429 without Retry-After with backoff', async () => {
    sim.inject({ status: 429 });
    expect((await api.request(health)).attempts).toBe(2);
  });

  it.each([
    [400, 'api_error'],
    [401, 'auth'],
    [403, 'auth'],
    [404, 'not_found'],
    [422, 'api_error'],
  ])('does not retry %i (%s)', async (status, kind) => {
    sim.inject({ status, body: { success: false, error: `said ${status}` } });
    const error = await failure(api.request(health));
    expect(error.kind).toBe(kind);
    expect(error.detail.upstreamMessage).toBe(`said ${status}`);
    expect(sim.requests).toHaveLength(1);
  });

  it('times out a hung request per attempt, and retries it', async () => {
    const hung = client({ timeoutMs: 300 });
    sim.inject({ hang: true }, { hang: true }, { hang: true });
    const started = Date.now();
    const error = await failure(hung.request(health));
    await hung.close();
    expect(error.kind).toBe('timeout');
    expect(error.detail.attempts).toBe(3);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('retries a connection dropped before the answer', async () => {
    sim.inject({ drop: 'before' });
    expect((await api.request(health)).attempts).toBe(2);
  });

  it('retries a connection dropped in the middle of the body', async () => {
    sim.inject({ drop: 'during' });
    expect((await api.request(health)).attempts).toBe(2);
  });

  it('reports a refused connection as a network error naming the base URL variable', async () => {
    const nowhere = client({ baseUrl: 'http://127.0.0.1:9', maxRetries: 1 });
    const error = await failure(nowhere.request(health));
    await nowhere.close();
    expect(error.kind).toBe('network');
    expect(describeError(error)).toMatch(/Could not reach .*ECONNREFUSED.*STREAMER_ANALYTICS_BASE_URL/s);
  });
});

describe('answers that are not what they should be', () => {
  it('refuses an HTML page with a clear message, without retrying', async () => {
    sim.inject({ raw: '<!doctype html><html><body>Gateway</body></html>', contentType: 'text/html' });
    const error = await failure(api.request(health));
    expect(error.kind).toBe('invalid_response');
    expect(describeError(error)).toContain('got an HTML page, Content-Type "text/html"');
    expect(sim.requests).toHaveLength(1);
  });

  it('refuses truncated JSON', async () => {
    sim.inject({ raw: '{"success":true,"data":[1,2' });
    expect((await failure(api.request(health))).kind).toBe('invalid_response');
  });

  it('refuses a JSON value that is not an object', async () => {
    sim.inject({ raw: '[1,2,3]' });
    expect((await failure(api.request(health))).message).toBe('response is not a JSON object');
  });

  it('treats success: false as a failure carrying the upstream message', async () => {
    sim.inject({ status: 200, body: { success: false, error: 'Quota exhausted for today' } });
    const error = await failure(api.request(health));
    expect(error.kind).toBe('api_error');
    expect(describeError(error)).toContain('"Quota exhausted for today"');
  });

  it('finds a message nested in an error object', async () => {
    sim.inject({ status: 400, body: { success: false, error: { code: 'E1', message: 'bad chain' } } });
    expect((await failure(api.request(health))).detail.upstreamMessage).toBe('bad chain');
  });

  it('refuses a body above the size cap', async () => {
    const small = client({ maxResponseBytes: 10_000 });
    sim.inject({ bodyBytes: 50_000 });
    const error = await failure(small.request(health));
    await small.close();
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/larger than/);
    expect(sim.requests).toHaveLength(1);
  });

  it('refuses a Content-Length above the cap before reading the body', async () => {
    // The header promises 50,000 bytes and the body never completes: only the header can answer, and
    // without the check each attempt would wait out its timeout (a timeout error after 3 attempts).
    const small = client({ maxResponseBytes: 10_000, timeoutMs: 3_000 });
    sim.inject({ status: 200, body: { success: true }, headers: { 'content-length': '50000' } });
    const error = await failure(small.request(health));
    await small.close();
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/larger than/);
    expect(sim.requests).toHaveLength(1);
  });

  it('counts a body without Content-Length as it arrives, and stops reading past the cap', async () => {
    // 32 MiB sent chunked, as fast as the client reads: more than loopback buffers hold, so the sender
    // finishes only if the client reads it all; it is cut off instead.
    const small = client({ maxResponseBytes: 10_000, timeoutMs: 10_000 });
    sim.inject({ bodyBytes: 32 * 1024 * 1024, chunked: true });
    const error = await failure(small.request(health));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/larger than/);
    expect(sim.requests).toHaveLength(1);
    await vi.waitFor(() => expect(sim.abandoned).toBe(1), { timeout: 10_000 });
    await small.close();
  });
});

describe('cancellation', () => {
  it('aborts the request in flight', async () => {
    sim.inject({ hang: true });
    const controller = new AbortController();
    const pending = api.request(health, controller.signal);
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 5_000, interval: 5 });
    const started = Date.now();
    controller.abort();
    const error = await failure(pending);
    expect(error.kind).toBe('cancelled');
    // At the abort, not at the attempt's timeout (1 s).
    expect(Date.now() - started).toBeLessThan(500);
    expect(sim.requests).toHaveLength(1);
  });

  it('stops during backoff and makes no further attempt', async () => {
    const slow = client({ retry: { baseDelayMs: 2_000, maxDelayMs: 2_000 } });
    sim.inject({ status: 503 });
    const controller = new AbortController();
    const pending = slow.request(health, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const error = await failure(pending);
    await slow.close();
    expect(error.kind).toBe('cancelled');
    expect(sim.requests).toHaveLength(1);
  });
});

describe('the key stays secret', () => {
  it('appears in no error, error text or log line, whatever fails', async () => {
    sim.inject(
      { status: 401, body: { success: false, error: `bad key ${SIM_KEY}` } },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { raw: `<html>${SIM_KEY}</html>`, contentType: 'text/html' },
    );
    const errors = [
      await failure(api.request(health)),
      await failure(api.request(health)),
      await failure(api.request(health)),
    ];
    for (const error of errors) {
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(SIM_KEY);
      expect(String(error.stack)).not.toContain(SIM_KEY);
    }
    // The upstream may echo the key; the logger redacts it wherever it appears.
    const logger = createLogger('debug', [SIM_KEY], (line) => logLines.push(line));
    for (const error of errors) logger.warn('failed', { error, detail: error.detail });
    expect(logLines.join('\n')).not.toContain(SIM_KEY);
    expect(logLines.join('\n')).toContain('[redacted]');
  });
});

describe('key redaction in answers', () => {
  it('removes the key where it stands alone, and leaves ids and field names that contain it whole', async () => {
    const short = client({ apiKey: 'k9' });
    const mint = 'bTrfBXGdsUFtk9Cgc1Uq3b2G4BnX2BqVoKT33ZbFeDJ';
    sim.inject({ raw: JSON.stringify({ data: { mintId: mint, k9Count: 1, note: 'echo: k9, key=k9.' } }) });
    const { body } = await short.request(health);
    expect(body.data).toEqual({ mintId: mint, k9Count: 1, note: 'echo: [redacted], key=[redacted].' });
    await short.close();
  });
});

describe('retry policy', () => {
  const policy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, retryAfterCapMs: 30_000 };
  const retryable = { retryable: true, detail: {} } as ApiError;

  it('backs off exponentially with jitter of at most 25%', () => {
    expect(retryDelay(retryable, 0, policy, () => 0)).toBe(500);
    expect(retryDelay(retryable, 1, policy, () => 0)).toBe(1000);
    expect(retryDelay(retryable, 1, policy, () => 1)).toBe(750);
    expect(retryDelay(retryable, 2, policy, () => 0)).toBeUndefined();
  });

  it('never retries what is not retryable', () => {
    expect(retryDelay({ retryable: false, detail: {} } as ApiError, 0, policy)).toBeUndefined();
  });

  it('reads Retry-After as seconds or a date, and ignores nonsense', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('concurrency limit', () => {
  it('keeps at most MAX_CONCURRENCY requests in flight; the rest queue', async () => {
    const limited = client({ maxConcurrency: 2 });
    sim.latencyMs = 300;
    const calls = Array.from({ length: 6 }, (_, i) => limited.request({ ...health, query: { n: i } }));
    // Once the first two have arrived (their answers 300 ms off), the other four wait.
    await vi.waitFor(() => expect(sim.requests).toHaveLength(2), { timeout: 5_000, interval: 5 });
    expect(limited.load).toEqual({ active: 2, waiting: 4 });
    const started = Date.now();
    await Promise.all(calls);
    // Two more rounds of 300 ms after the first: two at a time, never more.
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    expect(limited.load).toEqual({ active: 0, waiting: 0 });
    await limited.close();
  });

  it('a queued call that is cancelled leaves the queue and fails as cancelled', async () => {
    const limited = client({ maxConcurrency: 1 });
    sim.latencyMs = 500;
    const first = limited.request({ ...health, query: { n: 1 } });
    const controller = new AbortController();
    const queued = failure(limited.request({ ...health, query: { n: 2 } }, controller.signal));
    // Cancelled while the first is still upstream (its answer 500 ms off), so the second is still queued.
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 5_000, interval: 5 });
    controller.abort();
    expect((await queued).kind).toBe('cancelled');
    expect(limited.load.waiting).toBe(0);
    await first;
    expect(sim.requests).toHaveLength(1);
    await limited.close();
  });
});

describe('a defect is not a network error', () => {
  it('surfaces as an internal error, without retries', async () => {
    // An agent whose request throws a TypeError stands in for a bug inside the attempt.
    const broken = client({
      agent: {
        dispatch: () => {
          throw new TypeError('boom');
        },
        close: async () => {},
      } as never,
    });
    const thrown = await broken.request(health).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TypeError);
    expect(describeError(thrown)).toMatch(
      /^Internal error in the MCP server: "boom"\. Please report it\.\n\[error: internal · final\]$/,
    );
    expect(sim.requests).toHaveLength(0);
  });
});
