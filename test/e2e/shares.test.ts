// A shared --http server under hostile load, built and spawned, the simulator as a slow upstream: one
// caller floods, others make small calls, some clients never read their answers, made-up keys churn the
// per-caller pool. The small calls are answered in their normal time, nothing of theirs is lost, and the
// server's memory stays flat. (The load project: these run alone, bounded in count and time.)
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerProcess, startHttpServer } from '../../scripts/http-server.js';
import { REFERENCE_URI } from '../../src/reference.js';
import type { Simulator } from '../../src/simulator/server.js';
import { ids, startSim } from '../helpers.js';

let sim: Simulator;
const servers: HttpServerProcess[] = [];
const sockets: Socket[] = [];

async function startHttp(env: Record<string, string>) {
  const server = await startHttpServer({
    env: { PATH: process.env.PATH ?? '', STREAMER_ANALYTICS_BASE_URL: sim.url, ...env },
  });
  servers.push(server);
  const rssMiB = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1]) / 1024;
  return { url: server.url, stderr: server.stderr, rssMiB };
}

async function client(url: string, headers: Record<string, string> = {}) {
  const c = new Client({ name: 'shares', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text: string }>)[0]?.text ?? '';

/** A raw POST whose answer is never read: the client just keeps the connection open. */
function neverRead(url: string, body: string) {
  const { hostname, port } = new URL(url);
  const socket = netConnect(Number(port), hostname);
  socket.pause();
  sockets.push(socket);
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** One small call, timed. */
async function timed(c: Client, mint: string) {
  const started = performance.now();
  const result = await c.callTool({ name: 'get_streamer_core', arguments: { mint } });
  return { ms: performance.now() - started, result };
}

beforeAll(async () => {
  sim = await startSim();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  sim.reset();
});
afterAll(() => sim.close());

/** Waits for a condition the test cannot be told of by an event of its own (the simulator's log, a count). */
async function until(condition: () => boolean, timeoutMs = 20_000) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${condition}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('fair shares under a server key', () => {
  it('while one caller floods, another caller’s small call goes upstream at its turn; the flooder is told it is busy', async () => {
    // One upstream request at a time, each of the flood's taking half a second: its 110 requests pile up past
    // the 64 one caller may have waiting by construction, however fast or slow the machine sends them.
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
      STREAMER_ANALYTICS_MAX_CONCURRENCY: '1',
    });
    const [victim, flooder] = [await client(server.url), await client(server.url)];
    const mints = ids(sim, 'platform_a', 160);
    // The flood's upstream requests are POSTs (bulk and batch lookups); the victim's call is a GET, answered
    // at once when its turn comes (what is measured is how many of the flood's go first, as in 'mixed load'
    // below; time of its own added 3 s to the test and nothing to that count).
    const flooded = () => sim.requests.filter((r) => r.method === 'POST').length;
    sim.injectFor((r) => r.method === 'POST', ...Array(110).fill({ delayMs: 500 }));
    // Ten investigations of 150 ids at once: 11 upstream requests each, one caller.
    const flood = Array.from({ length: 10 }, (_, i) =>
      flooder.callTool({
        name: 'investigate_botting',
        arguments: { mintIds: mints.slice(i, i + 150), includeCreatorFees: true },
      }),
    );
    // A second of the flood gone upstream: its calls are queued by then.
    await until(() => flooded() >= 3);
    for (const mint of mints.slice(1, 4)) {
      // The flood's requests that go upstream between the victim's call and its own request: the one in
      // flight, a turn of the flooder's, and two a second for the time a loaded machine takes to hand the call
      // on (1 or 2 in all at load 9, with a core kept busy too). First come, first served, it would be the 60
      // queued ahead of it: so half a second per request tells the two apart as well as the second it was
      // (which doubled the test).
      const before = flooded();
      const result = await victim.callTool({ name: 'get_streamer_core', arguments: { mint } });
      expect(result.isError).toBeFalsy();
      const at = sim.requests.findIndex((r) => r.path.includes(mint));
      const ahead = sim.requests.slice(0, at).filter((r) => r.method === 'POST').length - before;
      expect(ahead).toBeLessThanOrEqual(10);
    }
    // The rest of the flood drains at once.
    sim.reset();
    const text = (await Promise.all(flood)).map(textOf).join('\n');
    // The flooder is told it is busy, with when to come back, rather than queued without bound.
    expect(text).toMatch(/busy/);
    for (const c of [victim, flooder]) await c.close();
  }, 30_000);
});

/** A stateless tools/call from a given loopback source address; resolves with the HTTP status. */
function callFrom(url: string, localAddress: string, id: number, mint: string) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_streamer_core', arguments: { mint } },
  });
  return new Promise<number>((resolve) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/**
 * An attacker's 16 workers per identity: each calls again as soon as its call is answered or refused
 * (after 50 ms), so that every place freed is asked for at once; until `stop()`.
 */
function pressure(identities: number, call: (identity: number, worker: number) => Promise<unknown>) {
  let stopped = false;
  const workers = Array.from({ length: identities * 16 }, async (_, w) => {
    while (!stopped) {
      await call(Math.floor(w / 16), w % 16).catch(() => {});
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  return () => {
    stopped = true;
    return workers;
  };
}

describe('fair shares among identities', () => {
  // 96 slow calls (16 from each of 6 identities) hold all 64 places; the victim's call waits its turn.
  it('six sessions of one attacker fill every place: another caller’s call waits its turn, never 503', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
    });
    const mints = ids(sim, 'platform_a', 97);
    const victim = await client(server.url);
    // A 2025 initialize mints a session, and each session is an identity of its own.
    const sessions = await Promise.all(Array.from({ length: 6 }, () => client(server.url)));
    sim.latencyMs = 1_000;
    const stop = pressure(6, (i, j) =>
      (sessions[i] as Client).callTool({
        name: 'get_streamer_core',
        arguments: { mint: mints[1 + i * 16 + j] },
      }),
    );
    // Every place taken: a call waits (the server's debug log says so).
    await until(() => server.stderr().includes('Request waits for a place'));
    const { ms, result } = await timed(victim, mints[0] as string);
    expect(result.isError).toBeFalsy();
    // Generous: a turn at the door behind each of 6 identities, then one upstream turn among 7 callers.
    expect(ms).toBeLessThan(15_000);
    stop();
  }, 30_000);

  it('five loopback addresses fill every place: another address’s call waits its turn, never 503', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
    });
    const mints = ids(sim, 'platform_a', 97);
    sim.latencyMs = 1_000;
    // Five source addresses, each an identity of its own (127.0.0.2–6: all of 127/8 is loopback).
    const stop = pressure(5, (i, j) =>
      callFrom(server.url, `127.0.0.${i + 2}`, j, mints[1 + i * 16 + j] as string),
    );
    // Every place taken: a call waits (the server's debug log says so).
    await until(() => server.stderr().includes('Request waits for a place'));
    const started = performance.now();
    const status = await callFrom(server.url, '127.0.0.1', 1, mints[0] as string);
    expect(status).toBe(200);
    expect(performance.now() - started).toBeLessThan(15_000);
    stop();
  }, 30_000);
});

describe('the per-caller pool under churn', () => {
  it('made-up keys neither take the place of an active caller’s client nor reset its breaker', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
    });
    // Listing tools with made-up keys opens no upstream client.
    for (let i = 0; i < 20; i++) {
      const c = await client(server.url, { 'x-api-key': `made-up-key-${i}-0123456789` });
      await c.listTools();
      await c.close();
    }
    expect(server.stderr()).not.toContain('upstream client opened');
    const victim = await client(server.url, { 'x-api-key': sim.apiKey });
    const mintIds = ids(sim, 'platform_a', 160);
    const args = { mintIds, includeCreatorFees: true };
    // What it answers undisturbed, from another server (this one would answer again from its cache);
    // the simulator's data has a few tokens that fail by design.
    const quiet = await client((await startHttp({})).url, { 'x-api-key': sim.apiKey });
    const undisturbed = textOf(await quiet.callTool({ name: 'investigate_botting', arguments: args }));
    await quiet.close();
    // The victim's requests are slow; the made-up keys' (refused at once) are not.
    sim.injectFor((r) => r.headers['x-api-key'] === sim.apiKey, ...Array(40).fill({ delayMs: 800 }));
    const investigation = victim.callTool({ name: 'investigate_botting', arguments: args });
    await new Promise((r) => setTimeout(r, 100));
    // 70 calls with made-up keys, one after another, while the investigation runs: each reaches the
    // upstream and is refused.
    const call = (i: number) =>
      fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': `churn-key-${i}-0123456789abcdef`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'check_health', arguments: {} },
        }),
      }).then((r) => r.text());
    const churn = [];
    for (let i = 0; i < 70; i++) churn.push(await call(i));
    const text = textOf(await investigation);
    await Promise.all(churn);
    expect(text).toBe(undisturbed);
    // Its breaker was not opened, nor its client replaced: the next call simply works.
    const after = await victim.callTool({ name: 'check_health', arguments: {} });
    expect(after.isError).toBeFalsy();
    await victim.close();
  });
});

describe('mixed load', () => {
  it('a flood, small calls, clients that never read and pool churn: small calls at their turn, memory flat', async () => {
    // One upstream request at a time per key: the flood's 54 requests queue behind each other.
    const server = await startHttp({
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
      STREAMER_ANALYTICS_MAX_CONCURRENCY: '1',
    });
    const victim = await client(server.url, { 'x-api-key': sim.apiKey });
    const flooder = await client(server.url, { 'x-api-key': sim.apiKey });
    const mints = ids(sim, 'platform_a', 160);
    await new Promise((r) => setTimeout(r, 200));
    const before = server.rssMiB();
    // 64 clients that ask for a 2.5 MB batch answer each and never read it.
    const batch = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'resources/read',
        params: { uri: REFERENCE_URI },
      })),
    );
    for (let i = 0; i < 64; i++) neverRead(server.url, batch);
    // The flood's upstream requests (POSTs: bulk and batch lookups) take a second each; the victim's
    // (GETs) and the churn's answer at once. (A second, not the first test's half: here the server is also
    // producing 160 MB for the clients that never read, and the first victim call found 6 of the flood's
    // requests ahead of it at half a second with a core kept busy.)
    const flooded = () => sim.requests.filter((r) => r.method === 'POST').length;
    sim.injectFor((r) => r.method === 'POST', ...Array(54).fill({ delayMs: 1_000 }));
    const flood = Array.from({ length: 6 }, (_, i) =>
      flooder.callTool({ name: 'investigate_botting', arguments: { mintIds: mints.slice(i, i + 150) } }),
    );
    const churn = (async () => {
      for (let i = 0; i < 40; i++) {
        const c = await client(server.url, { 'x-api-key': `mixed-churn-${i}-0123456789abcdef` });
        await c.callTool({ name: 'check_health', arguments: {} });
        await c.close();
      }
    })();
    // Two seconds of the flood gone upstream: its calls are queued by then.
    await until(() => flooded() >= 3);
    for (const mint of mints.slice(1, 6)) {
      // The flood's requests that go upstream between the victim's call and its own request: the one in
      // flight, a turn of the flooder's, and one a second for the time a loaded machine takes to hand the call
      // on. First come, first served, it would be the flood's queue, up to 50.
      const count = flooded();
      const result = await victim.callTool({ name: 'get_streamer_core', arguments: { mint } });
      // Not held at the door by the clients that never read (that would be 503 after 30 s).
      expect(result.isError).toBeFalsy();
      const at = sim.requests.findIndex((r) => r.path.includes(mint));
      const ahead = sim.requests.slice(0, at).filter((r) => r.method === 'POST').length - count;
      expect(ahead).toBeLessThanOrEqual(10);
    }
    // The rest of the flood answers at once.
    sim.reset();
    await Promise.all([...flood, churn]);
    // What the non-readers hold is bounded (64 MiB of unsent answers at most), whatever they ask: the
    // server settles below 150 MiB over its start (holding every answer it produced would be 160 MB more).
    // Waited for, not read at once: right after the load the answers already written may still be garbage
    // V8 has not collected (read at once, runs on one machine ranged from 19 to 168 MiB).
    const grown = () => server.rssMiB() - before;
    const settled = await until(() => grown() < 150, 10_000).then(
      () => true,
      () => false,
    );
    console.log(`mixed load: the server grew ${grown().toFixed(1)} MiB under the load`);
    expect(settled, `${grown().toFixed(1)} MiB`).toBe(true);
    const healthz = performance.now();
    expect((await fetch(server.url.replace(/\/mcp$/, '/healthz'))).status).toBe(200);
    expect(performance.now() - healthz).toBeLessThan(1_000);
    for (const c of [victim, flooder]) await c.close();
  }, 40_000);
});
