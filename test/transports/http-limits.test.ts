// The HTTP transport's limits, in process with small values: requests in flight, and time per request.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
      // Windows wide enough for a loaded 2-core machine to send the next call while a place is still taken.
      maxWaitMs: 2_000,
      requestTimeoutMs: 4_000,
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
    sim.inject({ delayMs: 1_000 });
    const first = call(1);
    // In flight once the upstream has it (its answer 1 s off; no guess at how long the machine takes).
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 10_000, interval: 5 });
    // The first caller's own extra work: refused at once, with when to come back.
    const own = await call(3);
    expect(own.status).toBe(429);
    expect(Number(own.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Two other callers want the place: one waits (the waiting cap is 1 here) and is served when it is
    // free, the other is refused with 503. Which one arrives first is the machine's business.
    const [two, four] = await Promise.all([
      call(2, b).then(async (res) => ({ res, text: await res.text() })),
      call(4, c).then(async (res) => ({ res, text: await res.text() })),
    ]);
    const [served, full] = two.res.status === 503 ? [four, two] : [two, four];
    expect(full.res.status).toBe(503);
    expect(full.res.headers.get('retry-after')).toBe('1');
    expect((JSON.parse(full.text) as { error: { message: string } }).error.message).toMatch(
      /Server busy: 1 requests in flight and 1 waiting/,
    );
    expect(served.res.status).toBe(200);
    expect(served.text).toContain('Service reachable');
    expect((await first).status).toBe(200);
    // A call that finds no place within the wait allowed (2 s here) is told so.
    sim.reset();
    sim.inject({ hang: true });
    const hung = call(5);
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 10_000, interval: 5 });
    const late = await call(6, b);
    expect(late.status).toBe(503);
    const body = (await late.json()) as { error: { message: string; data: { retry_after_s: number } } };
    expect(body.error.message).toMatch(/no place freed within 2 s/);
    expect(body.error.data.retry_after_s).toBe(1);
    await (await hung).text().catch(() => {});
    // The hung request is let go of upstream before the next test counts abandoned requests.
    await vi.waitFor(() => expect(sim.abandoned).toBe(1), { timeout: 10_000, interval: 5 });
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
    // Cut at the limit (4 s here), not left to hang.
    expect(Date.now() - started).toBeLessThan(8_000);
    await vi.waitFor(() => expect(sim.abandoned).toBe(1), { timeout: 10_000, interval: 5 });
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
    // Ended by the cancellation, well before the 4,000 ms limit would have cut it.
    expect(Date.now() - cancelled).toBeLessThan(2_000);
    await vi.waitFor(() => expect(sim.abandoned).toBe(1), { timeout: 10_000, interval: 5 });
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
    // Sessions are started one after another until one is refused (the rate refills one a second meanwhile,
    // however slowly the machine sends them): then the count says how many the rate let through.
    const started = performance.now();
    const statuses: number[] = [];
    let refused: Response | undefined;
    while (!refused && statuses.length < 200) {
      const res = await init();
      if (res.status === 429) refused = res;
      else {
        await res.text();
        statuses.push(res.status);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    expect(statuses.every((s) => s === 200)).toBe(true);
    // The burst (less the few sessions started earlier in this file), and one more for each second taken.
    expect(statuses.length).toBeGreaterThanOrEqual(55);
    expect(statuses.length).toBeLessThanOrEqual(60 + Math.ceil(seconds));
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get('retry-after')).toBe('1');
    expect(await refused?.text()).toMatch(/Too many sessions started/);
  });
});

describe('the rate of body bytes per address', () => {
  it('bodies without a length are counted once read: past a burst of 4 bodies’ worth, 429 with Retry-After', async () => {
    // A server of its own with 64 KiB bodies: a burst of 256 KiB, then 64 KiB a second.
    const max = 64 * 1024;
    const own = await serveHttp(
      {
        ...HTTP_DEFAULTS,
        port: 0,
        token: undefined,
        allowedHosts: [],
        allowedOrigins: [],
        maxBodyBytes: max,
      },
      {
        logger: silentLogger,
        ready: async () => ({ ready: true, detail: 'test' }),
        makeServer: () => createServer({ config: testConfig(sim), logger: silentLogger }),
      },
    );
    try {
      const ping = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { pad: 'x'.repeat(max - 200) },
      });
      // Sent chunked: Node's request without a content-length, the body written in two pieces.
      const send = () =>
        new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
          const req = httpRequest(own.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          });
          req.on('response', (res) => {
            res.resume();
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                retryAfter: res.headers['retry-after'] as string | undefined,
              }),
            );
          });
          req.on('error', reject);
          req.write(ping.slice(0, 1000));
          req.end(ping.slice(1000));
        });
      const started = performance.now();
      const answered: number[] = [];
      let refused: { status: number; retryAfter: string | undefined } | undefined;
      while (!refused && answered.length < 40) {
        const answer = await send();
        if (answer.status === 429) refused = answer;
        else answered.push(answer.status);
      }
      const seconds = (performance.now() - started) / 1000;
      expect(answered.every((s) => s === 200)).toBe(true);
      // Four bodies' worth, the one that went into debt, and one more for each second taken.
      expect(answered.length).toBeGreaterThanOrEqual(4);
      expect(answered.length).toBeLessThanOrEqual(5 + Math.ceil(seconds));
      expect(refused?.status).toBe(429);
      expect(Number(refused?.retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await own.close();
    }
  });
});

describe('a body that stalls', () => {
  it('is answered 408 once nothing has arrived for the idle bound, and its connection closed', async () => {
    const own = await serveHttp(
      { ...HTTP_DEFAULTS, port: 0, token: undefined, allowedHosts: [], allowedOrigins: [], bodyIdleMs: 300 },
      {
        logger: silentLogger,
        ready: async () => ({ ready: true, detail: 'test' }),
        makeServer: () => createServer({ config: testConfig(sim), logger: silentLogger }),
      },
    );
    try {
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(own.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': '100',
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        // Ten of the hundred bytes promised, then nothing.
        req.write('{"jsonrpc"');
      });
      expect(answer.status).toBe(408);
      expect(answer.text).toMatch(/Request body stalled: nothing arrived for 300 ms/);
    } finally {
      await own.close();
    }
  });
});
