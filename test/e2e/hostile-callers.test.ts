// The nine attacks of issue 27 on a shared --http server, built and spawned, the simulator as the upstream:
// each is reproduced as an attacker would try it, and the promise it broke is shown to hold: the victim is
// answered in its time, the server's memory stays bounded, and every attacker's request gets an answer.
// (The load project: these run alone, one file at a time.)
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerProcess, startHttpServer } from '../../scripts/http-server.js';
import type { Simulator } from '../../src/simulator/server.js';
import { VIEW_URI } from '../../src/views.js';
import { ids, startSim } from '../helpers.js';

const LEGACY = '2025-06-18';
let sim: Simulator;
const children: ChildProcess[] = [];
const servers: HttpServerProcess[] = [];
const sockets: Socket[] = [];

async function startHttp(env: Record<string, string>) {
  const server = await startHttpServer({
    env: { PATH: process.env.PATH ?? '', STREAMER_ANALYTICS_BASE_URL: sim.url, ...env },
  });
  servers.push(server);
  const { child, url, stderr } = server;
  const rssMiB = () => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;
    } catch {
      return 0; // exited
    }
  };
  // The highest RSS seen, sampled every 50 ms until `stop`.
  const watchRss = () => {
    let peak = rssMiB();
    const timer = setInterval(() => {
      peak = Math.max(peak, rssMiB());
    }, 50);
    child.once('exit', () => clearInterval(timer));
    return () => {
      clearInterval(timer);
      return Math.max(peak, rssMiB());
    };
  };
  return { url, stderr, rssMiB, watchRss };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/** A raw POST (from a given loopback address, if any); the whole answer, read. */
function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<Answer> {
  const started = performance.now();
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        ...(localAddress ? { localAddress } : {}),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            ms: performance.now() - started,
          });
        res.on('end', done);
        res.on('error', done);
      },
    );
    req.on('error', () => resolve({ status: 0, headers: {}, text: '', ms: performance.now() - started }));
    req.end(payload);
  });
}

/** The JSON-RPC messages of an answer, JSON or event stream. */
function messagesOf(answer: Answer): Array<{ id?: unknown; result?: unknown; error?: { code: number } }> {
  if (String(answer.headers['content-type']).startsWith('text/event-stream')) {
    return answer.text
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)));
  }
  const body = answer.text ? JSON.parse(answer.text) : [];
  return Array.isArray(body) ? body : [body];
}

/** A 2025 session started raw: the headers its later requests carry. */
async function session(url: string, apps = false, localAddress?: string) {
  const init = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY,
        capabilities: apps ? { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } : {},
        clientInfo: { name: 'hostile', version: '1' },
      },
    },
    {},
    localAddress,
  );
  expect(init.status).toBe(200);
  return { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': LEGACY };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const cancel = (requestId: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId },
});

async function client(url: string, headers: Record<string, string> = {}) {
  const c = new Client({ name: 'victim', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text: string }>)[0]?.text ?? '';

/** A raw POST whose answer is never read (the socket paused): the client just keeps the connection. */
function neverRead(url: string, body: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(url);
  const socket = netConnect(Number(port), hostname);
  socket.pause();
  sockets.push(socket);
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

/** Sends 1 MiB junk bodies over 32 connections from 127.0.0.3 until killed; for each answer, r if it was
 * refused (429, 503: before its body was read), a if it was read (and refused as junk), e for a connection
 * the server closed before the body was sent in full (refused unread). */
const JUNK_SENDER = `
const http = require('node:http');
const body = '[' + Array(262000).fill('[0]').join(',') + ']';
const url = process.argv[1];
const send = () => {
  const req = http.request(url, { method: 'POST', localAddress: '127.0.0.3', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } }, (res) => { res.resume(); res.on('end', () => { process.stdout.write(res.statusCode === 429 || res.statusCode === 503 ? 'r' : 'a'); send(); }); });
  req.on('error', () => { process.stdout.write('e'); setTimeout(send, 20); });
  req.end(body);
};
for (let i = 0; i < 32; i++) send();
`;

/** The middle of a few timings: the victim's time, not the other work of a shared machine. */
const median = (times: number[]) => [...times].sort((x, y) => x - y)[Math.floor(times.length / 2)] as number;

/** A call's time on this server before any attack (the middle of three): on a loaded machine, more than the call's own. */
async function alone(send: () => Promise<Answer>) {
  const times = [];
  for (let i = 0; i < 3; i++) times.push((await send()).ms);
  return median(times);
}

/** Waits for what the test cannot be told of by an event of its own (a count of answers). */
async function until(condition: () => boolean, timeoutMs = 20_000) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${condition}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  sim = await startSim();
});
// Killed, not stopped: SIGTERM lets calls in flight finish within a 10 s grace (test/e2e/http.test.ts
// checks that), which here is only the flood that a test has done with draining (10 s and 4 s of this file).
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill();
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
  sim.reset();
});
afterAll(() => sim.close());

describe('1 and 9: every call ends, and says how', () => {
  it('64 batches holding a request and its own cancellation are answered -32800 in the batch; a victim is served', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_API_KEY: sim.apiKey });
    const sessions = await Promise.all(Array.from({ length: 4 }, () => session(server.url)));
    const victimAlone = await alone(() => post(server.url, call(1, 'check_health'), {}, '127.0.0.2'));
    const batches = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        post(
          server.url,
          [{ jsonrpc: '2.0', id: i, method: 'ping' }, cancel(i)],
          sessions[i % 4] as Record<string, string>,
        ),
      ),
    );
    for (const [i, b] of batches.entries()) {
      expect(b.status).toBe(200);
      expect(messagesOf(b)).toEqual([
        expect.objectContaining({ id: i, error: expect.objectContaining({ code: -32800 }) }),
      ]);
    }
    // Nothing held a place: another caller's call is answered in its time alone.
    const victim = await post(server.url, call(1, 'check_health'), {}, '127.0.0.2');
    expect(victim.status).toBe(200);
    expect(victim.ms).toBeLessThan(victimAlone + 2_000);
    // A batch member cancelled by a notification of its own: -32800 in its place, the other answered.
    const s = sessions[0] as Record<string, string>;
    const [mint1, mint2] = ids(sim, 'platform_a', 2);
    sim.latencyMs = 1_500;
    const batch = post(
      server.url,
      [call(101, 'get_streamer_core', { mint: mint1 }), call(102, 'get_streamer_core', { mint: mint2 })],
      s,
    );
    // Under way upstream (the simulator has it), then cancelled.
    await until(() => sim.requests.some((r) => r.path.includes(mint2 as string)));
    const cancelled = await post(server.url, cancel(102), s);
    expect(cancelled.status).toBe(202);
    const answered = messagesOf(await batch);
    expect(answered).toHaveLength(2);
    expect(answered.find((m) => m.id === 102)?.error?.code).toBe(-32800);
    expect(answered.find((m) => m.id === 101)?.result).toBeDefined();
  });

  it('a cancellation sent while the call waits for a place ends it there: -32800 at once, nothing sent upstream', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
    });
    const mints = ids(sim, 'platform_a', 70);
    const victimSession = await session(server.url);
    const pingAlone = await alone(() =>
      post(server.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, victimSession),
    );
    sim.latencyMs = 1_500;
    const waits = () => server.stderr().split('Request waits for a place').length - 1;
    // Five addresses, 13 slow calls each: all 64 places taken, and one call waiting.
    const fill = Array.from({ length: 65 }, (_, i) =>
      post(server.url, call(i, 'get_streamer_core', { mint: mints[i] }), {}, `127.0.0.${2 + (i % 5)}`),
    );
    await until(() => waits() >= 1);
    const waiting = post(server.url, call(7, 'get_streamer_core', { mint: mints[69] }), victimSession);
    await until(() => waits() >= 2);
    const cancelled = await post(server.url, cancel(7), victimSession);
    expect(cancelled.status).toBe(202);
    const answer = await waiting;
    // Ended at the cancellation (once it waited), not when a place came free (seconds later).
    expect(answer.ms).toBeLessThan(pingAlone + 2_000);
    expect(messagesOf(answer)).toEqual([
      expect.objectContaining({ id: 7, error: expect.objectContaining({ code: -32800 }) }),
    ]);
    // Twenty places freed since: had it still been waiting, its turn (a caller of its own) came first.
    // The upstream answers at once from here (the calls already sent keep their 1.5 s): the places it
    // would have had come free in a second or two instead of the 7.5 s four upstream requests at a time
    // take to answer twenty calls at 1.5 s each; it is the same turn either way.
    sim.latencyMs = 0;
    let freed = 0;
    await new Promise<void>((resolve) => {
      for (const f of fill)
        f.then((a) => {
          expect(a.status).toBe(200);
          if (++freed === 20) resolve();
        });
    });
    expect(sim.requests.some((r) => r.path.includes(mints[69] as string))).toBe(false);
  }, 30_000);
});

describe('2: answers nobody reads are counted as they are produced', () => {
  it('four MCP Apps sessions that never read view-page batches neither fill the door nor grow the server past 512 MiB', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_HTTP_SEND_TIMEOUT_MS: '1000',
    });
    const sessions = await Promise.all(Array.from({ length: 4 }, () => session(server.url, true)));
    const victimAlone = await alone(() => post(server.url, call(1, 'check_health'), {}, '127.0.0.2'));
    const reads = (n: number) =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'resources/read',
          params: { uri: VIEW_URI },
        })),
      );
    const stop = server.watchRss();
    for (let i = 0; i < 64; i++) neverRead(server.url, reads(17), sessions[i % 4]);
    // Batches of 100 reads: refused as produced, past 8 MiB.
    for (let i = 0; i < 16; i++) neverRead(server.url, reads(100), sessions[i % 4]);
    await new Promise((r) => setTimeout(r, 1_500));
    const victim = await post(server.url, call(1, 'check_health'), {}, '127.0.0.2');
    expect(victim.status).toBe(200);
    expect(victim.ms).toBeLessThan(victimAlone + 2_000);
    expect(stop()).toBeLessThan(512);
  }, 30_000);

  it('one answer past 8 MiB is cut as it is produced, and a client that stops reading is disconnected', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_HTTP_SEND_TIMEOUT_MS: '500',
    });
    const apps = await session(server.url, true);
    const batch = (n: number) =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'resources/read',
          params: { uri: VIEW_URI },
        })),
      );
    // Read: 18 view pages (8.5 MB) end with the error, cut at 8 MiB as they were produced.
    const read = await post(server.url, batch(18), apps);
    expect(read.text.length).toBeLessThan(8.5 * 1024 * 1024);
    expect(read.text).toContain('Answer larger than 8388608 bytes');
    // 40 could never fit in what one caller may hold unread (16 MiB): refused before they run.
    const refused = await post(server.url, batch(40), apps);
    expect(refused.status).toBe(429);
    expect(refused.text).toMatch(/may answer more than one caller may hold unread/);
    // Not read: after the bound the server lets the connection go, before its answer is complete.
    const socket = neverRead(server.url, batch(17), apps);
    await new Promise((r) => setTimeout(r, 3_000));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      received += c;
    });
    socket.resume();
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.once('end', () => resolve());
    });
    // A chunked answer written in full ends with its last chunk; a cut connection does not.
    expect(received.endsWith('0\r\n\r\n')).toBe(false);
  }, 20_000);
});

describe('3 and 8: identities cost something', () => {
  it('330 calls from one address, each with a new key: the victim is served, the flooder told to wait', async () => {
    // An upstream of this test's own, so that it can go away once the victim is measured.
    const upstream = await startSim();
    try {
      const server = await startHttp({
        STREAMER_ANALYTICS_MAX_RETRIES: '0',
        STREAMER_ANALYTICS_BASE_URL: upstream.url,
      });
      const mint = ids(upstream, 'platform_a', 1)[0] as string;
      const victimCall = () =>
        post(
          server.url,
          call(1, 'get_streamer_core', { mint }),
          { 'x-api-key': upstream.apiKey },
          '127.0.0.2',
        );
      const victimAlone = await alone(victimCall);
      upstream.reset();
      // The made-up keys' calls that are let in hold their places: the upstream never answers them, until it
      // goes away below, once the victim has been measured (they held them for a fixed 10 s before: the
      // same places held, and 8 s of waiting for nothing).
      upstream.injectFor(
        (r) => r.headers['x-api-key'] !== upstream.apiKey,
        ...Array(400).fill({ hang: true }),
      );
      let answered = 0;
      const flood = Array.from({ length: 330 }, (_, i) =>
        post(
          server.url,
          call(i, 'get_streamer_core', { mint }),
          { 'x-api-key': `made-up-${i}-0123456789abcdef` },
          '127.0.0.3',
        ).then((a) => {
          answered++;
          return a;
        }),
      );
      // The flood has taken what it can once its refusals are back, or once 64 of its calls (every place)
      // have gone upstream, however long a loaded machine takes to send 330 requests: then the victim meets
      // what the flooder holds.
      await until(() => answered >= 200 || upstream.requests.length >= 64);
      const victim = await victimCall();
      expect(victim.status).toBe(200);
      expect(messagesOf(victim)[0]?.result).toBeDefined();
      // Within 2 s of its time alone (its own upstream request, and what this machine takes for a call).
      expect(victim.ms).toBeLessThan(victimAlone + 2_000);
      // Served while the flooder's calls still held their places.
      expect(answered).toBeLessThan(330);
      // The upstream goes away: the held calls end with an upstream error, the rest the same.
      await upstream.close();
      const flooded = await Promise.all(flood);
      // Every one answered; past 60 new keys, 429 with Retry-After.
      const refused = flooded.filter((f) => f.status === 429);
      expect(refused.length).toBeGreaterThan(200);
      expect(refused.every((f) => Number(f.headers['retry-after']) >= 1)).toBe(true);
      expect(flooded.every((f) => f.status > 0)).toBe(true);
    } finally {
      await upstream.close();
    }
  }, 30_000);

  it('a new key on each notification does not lift the notification rate (20, then 10 a second)', async () => {
    const server = await startHttp({});
    const started = performance.now();
    const answers = [];
    for (let i = 0; i < 150; i++) {
      answers.push(
        await post(
          server.url,
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { 'x-api-key': `spray-${i}-0123456789abcdef` },
        ),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const accepted = answers.filter((a) => a.status === 202).length;
    expect(accepted).toBeLessThanOrEqual(20 + Math.ceil(seconds * 10) + 1);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
  });
});

describe('4 and 7: kept investigations belong to their caller', () => {
  it('made-up keys evict nothing: the victim’s re-slice asks the upstream nothing', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_MAX_RETRIES: '0' });
    const victim = await client(server.url, { 'x-api-key': sim.apiKey });
    const args = { mintIds: ids(sim, 'platform_a', 160), includeCreatorFees: true };
    await victim.callTool({ name: 'investigate_botting', arguments: args });
    // 70 requests with made-up keys, from three addresses: lists, notifications and calls.
    const churn = [];
    for (let i = 0; i < 70; i++) {
      const headers = { 'x-api-key': `evict-${i}-0123456789abcdef` };
      const address = `127.0.0.${3 + (i % 3)}`;
      const body =
        i % 3 === 0
          ? { jsonrpc: '2.0', id: i, method: 'tools/list' }
          : i % 3 === 1
            ? { jsonrpc: '2.0', method: 'notifications/initialized' }
            : call(i, 'check_health');
      churn.push(await post(server.url, body, headers, address));
    }
    sim.reset();
    const again = await victim.callTool({ name: 'investigate_botting', arguments: { ...args, offset: 5 } });
    expect(textOf(again)).toMatch(/Data from this investigation \d+ s ago; no new upstream requests/);
    expect(sim.requests).toHaveLength(0);
    await victim.close();
  });

  it('with a server key, one caller neither reads, times nor evicts another’s investigation', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
    });
    const [a, b] = [await client(server.url), await client(server.url)];
    const mints = ids(sim, 'platform_a', 40);
    const args = { mintIds: mints.slice(0, 30) };
    await a.callTool({ name: 'investigate_botting', arguments: args });
    sim.reset();
    // B asks for the same ids: it goes upstream, and is not told A's age.
    const bs = await b.callTool({ name: 'investigate_botting', arguments: args });
    expect(sim.requests.length).toBeGreaterThan(0);
    expect(textOf(bs)).not.toMatch(/Data from this investigation/);
    // Eight small investigations of B's own evict nothing of A's.
    for (let i = 0; i < 8; i++)
      await b.callTool({ name: 'investigate_botting', arguments: { mintIds: [mints[30 + i]] } });
    sim.reset();
    const again = await a.callTool({ name: 'investigate_botting', arguments: { ...args, offset: 3 } });
    expect(textOf(again)).toMatch(/Data from this investigation \d+ s ago; no new upstream requests/);
    expect(sim.requests).toHaveLength(0);
    for (const c of [a, b]) await c.close();
  });
});

describe('5: a shared upstream request runs at the best place of those waiting on it', () => {
  it('a flooder that queued the victim’s identical call first does not make the victim wait its backlog', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
    });
    const [flooder, victim] = [await session(server.url), await session(server.url)];
    const mints = ids(sim, 'platform_a', 160);
    sim.latencyMs = 300;
    const alone = await post(server.url, call(1, 'get_analytics_overview'), victim);
    // A batch of 60 calls (60 upstream requests in the flooder's queue), then the overview.
    const flood = [
      post(
        server.url,
        mints.slice(0, 60).map((mint, i) => call(100 + i, 'get_streamer_core', { mint })),
        flooder,
      ),
    ];
    await new Promise((r) => setTimeout(r, 300));
    const queued = post(server.url, call(20, 'get_analytics_overview'), flooder);
    await new Promise((r) => setTimeout(r, 100));
    const during = await post(server.url, call(2, 'get_analytics_overview'), victim);
    expect(messagesOf(during)[0]?.result).toBeDefined();
    expect(during.ms).toBeLessThan(alone.ms + 2_000);
    expect(messagesOf(await queued)[0]?.result).toBeDefined();
    void flood;
  }, 30_000);
});

describe('6: bodies are admitted before they are read or parsed', () => {
  it('1 MiB junk bodies over 32 connections from one address: the victim keeps its time, memory bounded', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_API_KEY: sim.apiKey });
    const victimTimes = async () => {
      const times = [];
      for (let i = 0; i < 9; i++) {
        const answer = await post(server.url, call(i, 'check_health'), {}, '127.0.0.2');
        expect(answer.status).toBe(200);
        times.push(answer.ms);
      }
      return times;
    };
    const before = median(await victimTimes());
    // What one junk body costs the server on this machine now (read, parsed, refused): the unit of the bound.
    const junk = `[${Array(262000).fill('[0]').join(',')}]`;
    const junkTimes = [];
    for (let i = 0; i < 3; i++) junkTimes.push((await post(server.url, junk, {}, '127.0.0.4')).ms);
    const junkMs = median(junkTimes);
    const stop = server.watchRss();
    // The attacker is a process of its own (the test's own event loop stays the victim's): 32 connections
    // from 127.0.0.3, each sending a 1 MiB body of tiny JSON arrays again as soon as it is answered (20 to
    // 80 ms of the server's main thread each, read and parsed, where it is admitted).
    const attackStarted = performance.now();
    const attacker = spawn(process.execPath, ['-e', JUNK_SENDER, server.url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(attacker);
    const answered = { r: 0, a: 0, e: 0 };
    attacker.stdout?.on('data', (c) => {
      for (const mark of String(c)) answered[mark as keyof typeof answered]++;
    });
    // Under way once it has had its first answer (however long a loaded machine takes to start it); and
    // still under way while the victim is timed.
    await until(() => answered.r + answered.a + answered.e >= 1);
    const refusedBefore = answered.r;
    const times = await victimTimes();
    const refusedDuring = answered.r - refusedBefore;
    attacker.kill();
    const attackS = (performance.now() - attackStarted) / 1000;
    // What the server's admission did, counted, not timed: past two bodies in hand per address, and past
    // its rate of body bytes (4 MiB, then 1 MiB a second), the attacker's bodies were refused before they
    // were read. Unbounded, a 1 MiB body is admitted every 20 to 80 ms of the attack.
    expect(refusedDuring).toBeGreaterThan(0);
    expect(answered.a).toBeLessThanOrEqual(4 + Math.ceil(attackS));
    // So the victim waits behind at most a junk body in hand, not behind the flood: within 2 s of its time
    // alone on this server (measured with a core kept busy: 5 to 7 ms under attack, 3 to 17 ms alone; 150 to
    // 260 ms without the rate of body bytes).
    console.info(
      `victim alone ${Math.round(before)} ms, under attack ${Math.round(median(times))} ms (one junk body ${Math.round(junkMs)} ms; ${answered.a} of the attacker's bodies read in ${attackS.toFixed(1)} s)`,
    );
    expect(median(times)).toBeLessThan(before + 2_000);
    expect(stop()).toBeLessThan(1024);
  }, 60_000);
});

describe('6: bodies that stall hold what they sent, not what they promised', () => {
  it('16 bodies from 8 addresses that send their headers and one chunk, then nothing: a victim is served', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_API_KEY: sim.apiKey });
    const { hostname, port } = new URL(server.url);
    // Each stalls: half chunked after one chunk, half declaring 1 MiB and sending a byte (together 16 MiB
    // promised: the server's whole share of bodies, were promises held).
    const stalled = Array.from({ length: 16 }, (_, i) => {
      const socket = netConnect({
        port: Number(port),
        host: hostname,
        localAddress: `127.0.0.${10 + (i % 8)}`,
      });
      sockets.push(socket);
      const head = `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n`;
      socket.write(
        i % 2
          ? `${head}transfer-encoding: chunked\r\n\r\n1\r\n[\r\n`
          : `${head}content-length: 1048576\r\n\r\n[`,
      );
      return new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    });
    await Promise.all(stalled);
    const victim = await post(server.url, call(1, 'check_health'), {}, '127.0.0.2');
    expect(victim.status).toBe(200);
    expect(messagesOf(victim)[0]?.result).toBeDefined();
  });
});

describe('batches', () => {
  it('hold 100 messages at most: a larger one is refused before any of it is checked or run', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_API_KEY: sim.apiKey });
    const pings = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    const ok = await post(server.url, pings(100));
    expect(messagesOf(ok)).toHaveLength(100);
    const refused = await post(server.url, pings(101));
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/a batch holds at most 100 messages, this one 101/);
  });
});

describe('behind a reverse proxy', () => {
  // The notification rate (20 at once) shows who the server takes a caller to be.
  // 24 sent at once, so that few are refilled while they arrive, however loaded the machine.
  const burst = async (url: string, forwardedFor: string) => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, () =>
        post(
          url,
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { 'x-forwarded-for': forwardedFor },
        ),
      ),
    );
    return answers.filter((a) => a.status === 202).length;
  };
  /** What a caller whose burst was spent at `since` has got back by now (10 a second), and one to spare. */
  const refilled = (since: number) => Math.floor(((performance.now() - since) / 1000) * 10) + 1;

  it('reads X-Forwarded-For only from the proxies named in STREAMER_ANALYTICS_HTTP_TRUST_PROXY', async () => {
    const trusting = await startHttp({ STREAMER_ANALYTICS_HTTP_TRUST_PROXY: '127.0.0.1,10.0.0.0/8' });
    // Two clients behind the named proxy are two callers; a hop the client wrote itself, left of an
    // untrusted one, is not read: the same caller as the first, with only what it got back since (a
    // caller of its own would have 20).
    let since = performance.now();
    expect(await burst(trusting.url, '192.0.2.1')).toBeGreaterThanOrEqual(20);
    expect(await burst(trusting.url, '203.0.113.9, 192.0.2.1')).toBeLessThanOrEqual(refilled(since));
    expect(await burst(trusting.url, '192.0.2.2')).toBeGreaterThanOrEqual(20);
    // Through a chain of named proxies: the nearest address that is not one.
    expect(await burst(trusting.url, '192.0.2.3, 10.1.2.3')).toBeGreaterThanOrEqual(20);
    // Without the setting, the header is never read: one caller, whatever it says.
    const plain = await startHttp({});
    since = performance.now();
    expect(await burst(plain.url, '192.0.2.1')).toBeGreaterThanOrEqual(20);
    expect(await burst(plain.url, '192.0.2.2')).toBeLessThanOrEqual(refilled(since));
  });

  it('refuses to start with a trusted proxy that is neither an address nor a CIDR', async () => {
    await expect(startHttp({ STREAMER_ANALYTICS_HTTP_TRUST_PROXY: 'proxy.example' })).rejects.toThrow(
      /TRUST_PROXY: not an address or CIDR: proxy.example/,
    );
  });
});
