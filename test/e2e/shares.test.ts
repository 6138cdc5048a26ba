// A shared --http server under hostile load, built and spawned, the simulator as a slow upstream: one
// caller floods, others make small calls, some clients never read their answers, made-up keys churn the
// per-caller pool. The small calls are answered in their normal time, nothing of theirs is lost, and the
// server's memory stays flat. (The load project: these run alone, bounded in count and time.)
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_URI } from '../../src/reference.js';
import type { Simulator } from '../../src/simulator/server.js';
import { ids, startSim } from '../helpers.js';

const ENTRY = fileURLToPath(new URL('../../dist/server/index.js', import.meta.url));
let sim: Simulator;
const children: ChildProcess[] = [];
const sockets: Socket[] = [];

async function startHttp(env: Record<string, string>) {
  const child = spawn(process.execPath, [ENTRY, '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', STREAMER_ANALYTICS_BASE_URL: sim.url, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
      const m = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const rssMiB = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;
  return { url, stderr: () => stderr, rssMiB };
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
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill();
  sim.reset();
});
afterAll(() => sim.close());

describe('fair shares under a server key', () => {
  it('while one caller floods, another caller’s small call is answered in its normal time', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
    });
    const [victim, flooder] = [await client(server.url), await client(server.url)];
    const mints = ids(sim, 'platform_a', 160);
    sim.latencyMs = 150;
    // Its normal time: the same call alone, on the same slow upstream.
    const alone = await timed(victim, mints[0] as string);
    // Ten investigations of 160 ids at once: about 60 upstream requests, one caller.
    const flood = Array.from({ length: 10 }, (_, i) =>
      flooder.callTool({
        name: 'investigate_botting',
        arguments: { mintIds: mints.slice(i, i + 150), includeCreatorFees: true },
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const during = [];
    for (const mint of mints.slice(1, 4)) during.push(await timed(victim, mint));
    for (const d of during) {
      expect(d.result.isError).toBeFalsy();
      // Generous: its own request plus at most a turn behind each busy slot (FIFO: ~60 requests ahead).
      expect(d.ms).toBeLessThan(alone.ms + 1_500);
    }
    const flooded = (await Promise.all(flood)).map(textOf).join('\n');
    // The flooder is told it is busy, with when to come back, rather than queued without bound.
    expect(flooded).toMatch(/busy/);
    for (const c of [victim, flooder]) await c.close();
  });
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
  it('a flood, small calls, clients that never read and pool churn: small calls on time, memory flat', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_MAX_RETRIES: '0' });
    const victim = await client(server.url, { 'x-api-key': sim.apiKey });
    const flooder = await client(server.url, { 'x-api-key': sim.apiKey });
    const mints = ids(sim, 'platform_a', 160);
    sim.latencyMs = 100;
    const alone = await timed(victim, mints[0] as string);
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
    const small = [];
    for (const mint of mints.slice(1, 6)) {
      small.push(await timed(victim, mint));
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all([...flood, churn]);
    for (const s of small) {
      expect(s.result.isError).toBeFalsy();
      expect(s.ms).toBeLessThan(alone.ms + 2_000);
    }
    // What the non-readers hold is bounded (64 MiB of unsent answers at most), whatever they ask.
    expect(server.rssMiB() - before).toBeLessThan(150);
    const healthz = performance.now();
    expect((await fetch(server.url.replace(/\/mcp$/, '/healthz'))).status).toBe(200);
    expect(performance.now() - healthz).toBeLessThan(1_000);
    for (const c of [victim, flooder]) await c.close();
  });
});
