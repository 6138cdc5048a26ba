// The HTTP transport's limits, in process with small values: requests in flight, and time per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { REFERENCE_URI } from '../../src/reference.js';
import { createServer } from '../../src/server.js';
import type { Simulator } from '../../src/simulator/server.js';
import { HTTP_DEFAULTS, serveHttp } from '../../src/transports/http.js';
import { connect, startSim, testConfig } from '../helpers.js';

let sim: Simulator;
let http: Awaited<ReturnType<typeof serveHttp>>;
let api: Awaited<ReturnType<typeof connect>>;

const post = (message: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
const call = (id: number, headers: Record<string, string> = {}) =>
  post({ id, method: 'tools/call', params: { name: 'check_health', arguments: {} } }, headers);
const cancel = (requestId: number, headers: Record<string, string> = {}) =>
  post({ method: 'notifications/cancelled', params: { requestId } }, headers);

beforeAll(async () => {
  sim = await startSim();
  api = await connect(sim); // for its upstream client
  http = await serveHttp(
    {
      ...HTTP_DEFAULTS,
      port: 0,
      token: undefined,
      allowedHosts: [],
      allowedOrigins: [],
      maxConcurrent: 1,
      maxWaiting: 1,
      maxWaitMs: 300,
      requestTimeoutMs: 1_000,
      maxAnswerBytes: 200_000,
    },
    {
      logger: silentLogger,
      ready: async () => ({ ready: true, detail: 'test' }),
      makeServer: () =>
        createServer({
          config: testConfig(sim),
          logger: silentLogger,
          ...(api.api ? { client: api.api } : {}),
        }),
    },
  );
});
afterAll(async () => {
  await http.close();
  await api.close();
  await sim.close();
});

describe('HTTP limits', () => {
  it('past the places in flight, a call waits its turn; its caller’s extra work 429, past the waiting cap 503', async () => {
    const sessionOf = async () => {
      const init = await post({
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      await init.text();
      return { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
    };
    const [b, c] = [await sessionOf(), await sessionOf()];
    sim.reset();
    sim.inject({ delayMs: 150 });
    const first = call(1);
    // In flight once the upstream has it (no guess at how long the machine takes to get there).
    for (let i = 0; i < 200 && sim.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    // Another caller waits for the place, and is served when it is free.
    const waiting = call(2, b);
    await new Promise((r) => setTimeout(r, 20));
    // The first caller's own extra work: refused at once, with when to come back.
    const own = await call(3);
    expect(own.status).toBe(429);
    expect(Number(own.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Past the waiting cap (1 here): 503.
    const full = await call(4, c);
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('1');
    expect(((await full.json()) as { error: { message: string } }).error.message).toMatch(
      /Server busy: 1 requests in flight and 1 waiting/,
    );
    expect((await first).status).toBe(200);
    const served = await waiting;
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('Service reachable');
    // A call that finds no place within the wait allowed (300 ms here) is told so.
    sim.inject({ hang: true });
    const hung = call(5);
    await new Promise((r) => setTimeout(r, 50));
    const late = await call(6, b);
    expect(late.status).toBe(503);
    const body = (await late.json()) as { error: { message: string; data: { retry_after_s: number } } };
    expect(body.error.message).toMatch(/no place freed within 0.3 s/);
    expect(body.error.data.retry_after_s).toBe(1);
    await (await hung).text().catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
    sim.reset();
  });

  it('caps the bytes of one answer, a batch included, with a clear error', async () => {
    const read = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'resources/read',
      params: { uri: REFERENCE_URI },
    });
    const one = await post(read(1));
    expect(one.status).toBe(200);
    expect(await one.text()).toContain('"contents"');
    // 100 reads of the reference (about 25 KiB each) in one batch: far past the 200,000 bytes allowed.
    const batch = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(Array.from({ length: 100 }, (_, i) => read(i + 10))),
    });
    const text = await batch.text();
    expect(Buffer.byteLength(text)).toBeLessThan(200_000 + 1_000);
    expect(text).toContain('Answer larger than 200000 bytes: not sent');
  });

  it('ends a request that takes longer than allowed, and aborts its upstream call', async () => {
    sim.inject({ hang: true });
    const started = Date.now();
    const res = await call(3);
    // The answer is an event stream whose 200 went out at once; past the limit the stream is cut.
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.abandoned).toBe(1);
  });

  it("ends a 2025 client's call when its session sends notifications/cancelled, and frees its place", async () => {
    const init = await post({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
    await init.text();
    sim.reset();
    sim.inject({ hang: true });
    const first = await call(4, session);
    expect(first.status).toBe(200);
    // Without its session id, nobody can cancel it, the same caller included.
    expect((await cancel(4)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 50));
    expect(sim.abandoned).toBe(0);
    const cancelled = Date.now();
    // A notification passes the limit of one request in flight: a full server can still be told.
    expect((await cancel(4, session)).status).toBe(202);
    expect(await first.text()).toContain('"code":-32800');
    // Ended by the cancellation, well before the 1,000 ms limit would have cut it.
    expect(Date.now() - cancelled).toBeLessThan(800);
    await new Promise((r) => setTimeout(r, 20));
    expect(sim.abandoned).toBe(1);
    // With one place (maxConcurrent 1), the next call is served: the cancelled one let go of it.
    expect((await call(5)).status).toBe(200);
  });

  // Last: it uses up this address's sessions.
  it('lets an address start 60 sessions at once, then one a second (429 with Retry-After)', async () => {
    const init = () =>
      post({
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) {
      const res = await init();
      await res.text();
      statuses.push(res.status);
    }
    // The burst (less the few sessions started earlier in this file) is served; then the rate holds.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(55);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(61);
    const refused = await init();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.text()).toMatch(/Too many sessions started/);
  });
});
