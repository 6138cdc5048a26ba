import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../src/api/client.js';
import { describeError } from '../../src/format/errors.js';
import { createLogger } from '../../src/log.js';
import type { Simulator } from '../../src/simulator/server.js';
import { call, connect, FIRST_CHANNEL, failure, ids, SIM_KEY, startSim } from '../helpers.js';

let sim: Simulator;
const logLines: string[] = [];
const health = { method: 'GET', path: '/health' } as const;

function client(overrides: Partial<ApiClientOptions> = {}) {
  return new ApiClient({
    baseUrl: sim.url,
    apiKey: SIM_KEY,
    timeoutMs: 1_000,
    maxRetries: 0,
    logger: createLogger('info', [SIM_KEY], (line) => logLines.push(line)),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...overrides,
  });
}

beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  logLines.length = 0;
});

// The upstream client's own behaviour, the same in every channel: run in one.
describe.runIf(FIRST_CHANNEL)('identical requests in flight share one upstream request', () => {
  it('sends one request for concurrent identical calls, and answers all of them', async () => {
    const api = client();
    sim.latencyMs = 60;
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.request(health)));
    expect(sim.requests).toHaveLength(1);
    expect(answers.every((a) => a.body.success === true)).toBe(true);
    // Sequential calls are not shared: each is a fresh request.
    await api.request(health);
    expect(sim.requests).toHaveLength(2);
    await api.close();
  });

  it('does not share requests that differ in body', async () => {
    const api = client();
    sim.latencyMs = 30;
    const body = (hours: number) =>
      ({
        method: 'POST',
        path: '/botting/bulk',
        body: { mintIds: ids(sim, 'platform_a', 1), hours },
      }) as const;
    await Promise.all([api.request(body(1)), api.request(body(2)), api.request(body(1))]);
    expect(sim.requests).toHaveLength(2);
    await api.close();
  });

  it('one caller cancelling does not cancel the others', async () => {
    const api = client();
    sim.latencyMs = 500;
    const controller = new AbortController();
    const leaving = failure(api.request(health, controller.signal));
    const staying = api.request(health);
    // Cancelled once the shared request is under way (its answer 500 ms off).
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 5_000, interval: 5 });
    controller.abort();
    expect((await leaving).kind).toBe('cancelled');
    expect((await staying).body.success).toBe(true);
    expect(sim.abandoned).toBe(0);
    await api.close();
  });

  it('the upstream request is aborted when every caller has cancelled', async () => {
    const api = client();
    sim.inject({ hang: true });
    const a = new AbortController();
    const b = new AbortController();
    const both = [failure(api.request(health, a.signal)), failure(api.request(health, b.signal))];
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 5_000, interval: 5 });
    a.abort();
    b.abort();
    expect((await Promise.all(both)).map((e) => e.kind)).toEqual(['cancelled', 'cancelled']);
    await vi.waitFor(() => expect(sim.abandoned).toBe(1), { timeout: 5_000, interval: 5 });
    expect(sim.requests).toHaveLength(1);
    // The next identical call starts afresh rather than joining the abandoned one.
    expect((await api.request(health)).body.success).toBe(true);
    await api.close();
  });
});

describe.runIf(FIRST_CHANNEL)('circuit breaker', () => {
  // The breaker's cooldown reads Date.now(): the tests move that clock, so that a stalled moment of a
  // loaded machine can neither end a cooldown early nor make a test wait one out.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

  it('opens after consecutive outages, fails fast without a request, then closes after a good trial', async () => {
    const api = client({ breaker: { threshold: 3, cooldownMs: 200 } });
    sim.inject({ status: 503 }, { status: 502 }, { status: 500 });
    for (let i = 0; i < 3; i++) expect((await failure(api.request(health))).kind).toBe('upstream');
    expect(logLines.some((l) => l.includes('circuit open: failing fast'))).toBe(true);

    const started = performance.now();
    const fast = await failure(api.request(health));
    expect(performance.now() - started).toBeLessThan(500);
    expect(fast.kind).toBe('circuit_open');
    expect(sim.requests).toHaveLength(3);
    expect(describeError(fast)).toMatch(
      /calls are paused.*\n.*\n\[error: circuit_open · retryable · retry_after_s=1\]$/,
    );

    later(199);
    expect((await failure(api.request(health))).kind).toBe('circuit_open');
    later(1);
    expect((await api.request(health)).body.success).toBe(true);
    expect(sim.requests).toHaveLength(4);
    expect(logLines.some((l) => l.includes('circuit closed'))).toBe(true);
    await api.close();
  });

  it('a failed trial opens the circuit for another cooldown', async () => {
    const api = client({ breaker: { threshold: 2, cooldownMs: 150 } });
    sim.inject({ status: 503 }, { status: 503 }, { status: 503 });
    await failure(api.request(health));
    await failure(api.request(health));
    later(150);
    expect((await failure(api.request(health))).kind).toBe('upstream');
    expect((await failure(api.request(health))).kind).toBe('circuit_open');
    expect(sim.requests).toHaveLength(3);
    await api.close();
  });

  it('lets only one trial through while half-open', async () => {
    const api = client({ breaker: { threshold: 1, cooldownMs: 100 } });
    sim.inject({ status: 503 });
    await failure(api.request(health));
    later(100);
    sim.latencyMs = 80;
    const outcomes = await Promise.allSettled([
      api.request(health),
      api.request({ ...health, query: { x: 1 } }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(sim.requests).toHaveLength(2);
    await api.close();
  });

  it('is not opened by answers that show the service is up (4xx, 429)', async () => {
    const api = client({ breaker: { threshold: 2, cooldownMs: 10_000 } });
    sim.inject({ status: 404 }, { status: 429, headers: { 'retry-after': '99' } }, { status: 400 });
    for (let i = 0; i < 3; i++) await failure(api.request(health));
    expect((await api.request(health)).body.success).toBe(true);
    await api.close();
  });
});

describe('cancellation from the MCP client', () => {
  it('notifications/cancelled aborts the upstream request', async () => {
    // An attempt's timeout far beyond the waits below: only the cancellation can end this request.
    const h = await connect(sim, { config: { timeoutMs: 30_000 } });
    sim.inject({ hang: true });
    const controller = new AbortController();
    const pending = h.client.callTool(
      { name: 'check_health', arguments: {} },
      {
        signal: controller.signal,
      },
    );
    // Cancelled once its upstream request is under way.
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 10_000, interval: 5 });
    controller.abort();
    await expect(pending).rejects.toThrow();
    // The cancellation reaches the server, then its upstream request: soon, not at a fixed moment.
    await vi.waitFor(() => expect(sim.abandoned).toBe(1), { timeout: 10_000, interval: 10 });
    expect(sim.requests).toHaveLength(1);
    // The server goes on answering other calls.
    expect((await call(h.client, 'check_health')).isError).toBe(false);
    await h.close();
  });
});
