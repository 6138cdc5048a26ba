// The HTTP transport's limits, in process with small values: requests in flight, and time per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { createServer } from '../../src/server.js';
import type { Simulator } from '../../src/simulator/server.js';
import { HTTP_DEFAULTS, serveHttp } from '../../src/transports/http.js';
import { connect, startSim, testConfig } from '../helpers.js';

let sim: Simulator;
let http: Awaited<ReturnType<typeof serveHttp>>;
let api: Awaited<ReturnType<typeof connect>>;

const call = (id: number) =>
  fetch(http.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'check_health', arguments: {} },
    }),
  });

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
      requestTimeoutMs: 400,
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
  it('answers 503 with Retry-After when the requests in flight are at the limit', async () => {
    sim.inject({ delayMs: 200 });
    const first = call(1);
    await new Promise((r) => setTimeout(r, 50));
    const second = await call(2);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(((await second.json()) as { error: { message: string } }).error.message).toMatch(
      /Server busy: 1 requests in flight/,
    );
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('Service reachable');
  });

  it('ends a request that takes longer than allowed, and aborts its upstream call', async () => {
    sim.inject({ hang: true });
    const started = Date.now();
    const res = await call(3);
    // The answer is an event stream whose 200 went out at once; past the limit the stream is cut.
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_500);
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.abandoned).toBe(1);
  });
});
