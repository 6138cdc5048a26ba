// The built server with --http, driven by the SDK's StreamableHTTPClientTransport.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpServerProcess, SERVER_ENTRY, startHttpServer } from '../../scripts/http-server.js';
import type { Simulator } from '../../src/simulator/server.js';
import { ids, startSim } from '../helpers.js';

const TOKEN = 'team-token-4d1f';

let sim: Simulator;
const servers: HttpServerProcess[] = [];

/** Starts the built server with --http on a free port (scripts/http-server.ts), stopped after the test. */
async function startHttp(env: Record<string, string>, args: string[] = []) {
  const server = await startHttpServer({ env: { PATH: process.env.PATH ?? '', ...env }, args });
  servers.push(server);
  return server;
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A raw POST with any headers (Host included, which fetch would not let us set). */
function post(url: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += String(c);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text: string }>)[0]?.text ?? '';

beforeAll(async () => {
  sim = await startSim();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
});
afterAll(() => sim.close());

describe('Streamable HTTP', () => {
  it('lists tools and calls each kind of tool, with the bearer token', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_HTTP_TOKEN: TOKEN,
    });
    const client = await connect(server.url, { authorization: `Bearer ${TOKEN}` });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('investigate_botting');
    const a = ids(sim, 'platform_a', 60);
    const batch = await client.callTool({ name: 'analyze_botting', arguments: { mintIds: a.slice(0, 5) } });
    expect(textOf(batch)).toMatch(/^Botting analysis: \d+ of \d+ analysed tokens flagged HIGH \(5 requested/);
    const single = await client.callTool({ name: 'get_streamer_core', arguments: { mint: a[0] } });
    expect(single.isError).toBeFalsy();
    const progress: number[] = [];
    const composite = await client.callTool(
      { name: 'investigate_botting', arguments: { mintIds: a } },
      undefined,
      {
        onprogress: (p) => progress.push(p.progress),
      },
    );
    expect(textOf(composite)).toMatch(
      /^Botting investigation: \d+ of \d+ analysed tokens flagged HIGH, .*\(60 requested/,
    );
    expect(progress).toEqual([1, 2, 3]);
    const invalid = await client.callTool({ name: 'analyze_botting', arguments: { mintIds: [] } });
    expect(invalid.isError).toBe(true);
    await client.close();
  });

  it('gives a 2025 client that declared MCP Apps the views, through its signed session id', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_HTTP_TOKEN: TOKEN,
    });
    const headers = { authorization: `Bearer ${TOKEN}` };
    const apps = new Client(
      { name: 'apps', version: '1.0.0' },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
    await apps.connect(transport);
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{60,}$/);
    const listed = (await apps.listTools()).tools;
    expect(listed.map((t) => t.name)).toContain('get_token_evidence');
    expect(listed.find((t) => t.name === 'investigate_botting')?._meta).toBeDefined();
    const plain = await connect(server.url, headers);
    const plainList = (await plain.listTools()).tools;
    expect(plainList.map((t) => t.name)).not.toContain('get_token_evidence');
    expect(plainList.every((t) => t._meta === undefined)).toBe(true);
    // A session id this server did not issue: 404, which tells a client to initialize again. (Its last two
    // characters changed: "AA" alone was the issued id itself whenever that already ended so.)
    const issued = transport.sessionId ?? '';
    const forged = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      ...headers,
      'mcp-session-id': `${issued.slice(0, -2)}${issued.endsWith('AA') ? 'BB' : 'AA'}`,
    });
    expect(forged.status).toBe(404);
    await apps.close();
    await plain.close();
  });

  it('keeps every log line whole whatever x-api-key a caller sends, with readable error names', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
    });
    // The server has its own key: a caller's x-api-key is ignored, so it is no secret to redact.
    for (const key of ['"', 'error', '"level":"', 'tool call failed']) {
      const client = await connect(server.url, { 'x-api-key': key });
      sim.reset();
      sim.inject({ status: 400, body: { success: false, error: 'tool call failed: error' } });
      await client.callTool({ name: 'check_health', arguments: {} });
      await client.close();
    }
    // Each failure is logged as its call ends: wait for the four lines rather than a fixed moment. Every
    // complete line must parse (a line cut by another would not).
    const failedLines = () =>
      server
        .stderr()
        .split('\n')
        .slice(0, -1)
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'tool call failed');
    await vi.waitFor(() => expect(failedLines()).toHaveLength(4), { timeout: 10_000, interval: 10 });
    const failed = failedLines();
    expect(failed).toHaveLength(4);
    for (const line of failed) {
      expect(line).toMatchObject({
        level: 'warn',
        tool: 'check_health',
        error: { name: 'ApiReportedError' },
      });
    }
    expect(server.stderr()).not.toContain('[redacted]');
  });

  it('answers 401 with WWW-Authenticate for a missing or wrong token', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_HTTP_TOKEN: TOKEN });
    const said = [];
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: TOKEN }]) {
      const res = await post(server.url, INIT, headers);
      expect(res.status).toBe(401);
      // RFC 6750: the challenge names the error; the body is the OAuth error object.
      expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="/);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_token' });
      said.push(JSON.parse(res.body).error_description);
    }
    expect(said).toEqual([
      'Missing Authorization header',
      'The token is not STREAMER_ANALYTICS_HTTP_TOKEN',
      "Invalid Authorization header format, expected 'Bearer TOKEN'",
    ]);
    expect(server.stderr()).not.toContain(TOKEN);
  });

  it('refuses a foreign Origin and a foreign Host with 403, and accepts allowed ones', async () => {
    const server = await startHttp({});
    const port = new URL(server.url).port;
    expect((await post(server.url, INIT, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(server.url, INIT, { host: `evil.example:${port}` })).status).toBe(403);
    expect((await post(server.url, INIT, { origin: `http://localhost:${port}` })).status).toBe(200);
    const proxied = await startHttp({}, [
      '--allowed-hosts',
      'mcp.team.example',
      '--allowed-origins',
      'https://app.team.example',
    ]);
    expect(
      (await post(proxied.url, INIT, { host: 'mcp.team.example', origin: 'https://app.team.example' }))
        .status,
    ).toBe(200);
    expect((await post(proxied.url, INIT, { host: `127.0.0.1:${new URL(proxied.url).port}` })).status).toBe(
      403,
    );
  });

  it('refuses a body that is too large, and non-POST methods', async () => {
    const server = await startHttp({});
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(1_100_000) },
    });
    const res = await post(server.url, big, {});
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.message).toMatch(/larger than 1048576 bytes/);
    const get = await fetch(server.url);
    expect(get.status).toBe(405);
  });

  it('uses a caller’s own x-api-key for that request only, when the server has none', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_BASE_URL: sim.url });
    const withKey = await connect(server.url, { 'x-api-key': sim.apiKey });
    sim.reset();
    const ok = await withKey.callTool({ name: 'check_health', arguments: {} });
    expect(ok.isError).toBeFalsy();
    expect(sim.requests[0]?.headers['x-api-key']).toBe(sim.apiKey);
    const withoutKey = await connect(server.url);
    const refused = await withoutKey.callTool({ name: 'check_health', arguments: {} });
    expect(textOf(refused)).toContain('STREAMER_ANALYTICS_API_KEY');
    expect(server.stderr()).not.toContain(sim.apiKey);
    await withKey.close();
    await withoutKey.close();
  });

  it('reuses an investigation across HTTP requests with the same caller key, and never for another key', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_BASE_URL: sim.url });
    const owner = await connect(server.url, { 'x-api-key': sim.apiKey });
    const mintIds = ids(sim, 'platform_a', 30);
    sim.reset();
    const first = await owner.callTool({ name: 'investigate_botting', arguments: { mintIds } });
    expect(first.isError).toBeFalsy();
    const asked = sim.requests.length;
    expect(asked).toBeGreaterThan(0);
    // A re-slice on a later HTTP request (a fresh lease of the same pooled key): nothing asked upstream.
    const again = await owner.callTool({
      name: 'investigate_botting',
      arguments: { mintIds, sortBy: 'viewers', offset: 1 },
    });
    expect(again.isError).toBeFalsy();
    expect(sim.requests).toHaveLength(asked);
    // Another key gets nothing kept for the first: its call goes upstream (and is refused there).
    const other = await connect(server.url, { 'x-api-key': 'another-callers-key-0123456789' });
    const refused = await other.callTool({ name: 'investigate_botting', arguments: { mintIds } });
    expect(refused.isError).toBe(true);
    expect(sim.requests.length).toBeGreaterThan(asked);
    expect(JSON.stringify(refused)).not.toContain(mintIds[0]);
    await owner.close();
    await other.close();
  });

  it('serves /healthz without auth, and /readyz from the upstream /health', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_HTTP_TOKEN: TOKEN,
    });
    expect(await (await fetch(`${server.base}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { detail: string }).detail).toBe(
      'upstream GET /health answered, with the server key',
    );
  });

  it('/readyz in demo mode says demo, not a server key (demo mode needs none)', async () => {
    const server = await startHttp({}, ['--demo']);
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status).toBe(200);
    const { detail } = (await ready.json()) as { detail: string };
    expect(detail).toContain('demo mode');
    expect(detail).not.toContain('server key');
  });

  it('/readyz tells the operator what it checked, and is not ready when it should not be', async () => {
    const readyz = async (env: Record<string, string>) => {
      const server = await startHttp(env);
      const res = await fetch(`${server.base}/readyz`);
      return { http: res.status, detail: ((await res.json()) as { detail: string }).detail };
    };
    expect(await readyz({})).toMatchObject({ http: 503, detail: 'STREAMER_ANALYTICS_BASE_URL is not set' });
    // Without a server key: reachability, on /health, no key sent (the simulator answers 401 to that).
    expect(await readyz({ STREAMER_ANALYTICS_BASE_URL: sim.url })).toMatchObject({
      http: 200,
      detail: expect.stringContaining('GET /health answered HTTP 401 without a key'),
    });
    // A port nothing listens on (fetch refuses well-known ones like 9 outright).
    const probe = createNetServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const deadPort = (probe.address() as { port: number }).port;
    probe.close();
    expect(await readyz({ STREAMER_ANALYTICS_BASE_URL: `http://127.0.0.1:${deadPort}` })).toMatchObject({
      http: 503,
      detail: expect.stringContaining('connection refused'),
    });
    expect(await readyz({ STREAMER_ANALYTICS_BASE_URL: 'http://nonexistent.invalid' })).toMatchObject({
      http: 503,
      detail: expect.stringContaining('host not found (ENOTFOUND): check STREAMER_ANALYTICS_BASE_URL'),
    });
    sim.reset();
    sim.inject({ hang: true });
    expect(
      await readyz({ STREAMER_ANALYTICS_BASE_URL: sim.url, STREAMER_ANALYTICS_API_KEY: sim.apiKey }),
    ).toMatchObject({ http: 503, detail: 'upstream GET /health did not answer within 3 s (time-out)' });
  });

  it('reports a host that does not resolve as configuration, and circuit_open with its last cause', async () => {
    const unresolvable = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: 'http://nonexistent.invalid',
    });
    for (let i = 0; i < 2; i++) await fetch(`${unresolvable.base}/readyz`);
    const first = await connect(unresolvable.url);
    for (let i = 0; i < 6; i++) {
      const text = textOf(await first.callTool({ name: 'check_health', arguments: {} }));
      expect(text).toContain('host name does not resolve');
      expect(text).toContain('a configuration problem, not an outage');
      expect(text).not.toContain('circuit_open');
    }
    await first.close();
    const dead = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: 'http://127.0.0.1:9',
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
    });
    const second = await connect(dead.url);
    let text = '';
    for (let i = 0; i < 6; i++) text = textOf(await second.callTool({ name: 'check_health', arguments: {} }));
    expect(text).toContain('[error: circuit_open');
    expect(text).toContain(
      '(last failure: connection refused (ECONNREFUSED): is the service running at STREAMER_ANALYTICS_BASE_URL?)',
    );
    await second.close();
  });

  it('refuses a `__proto__` argument like any other unknown parameter', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
    });
    sim.reset();
    const res = await post(
      server.url,
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_activity_heatmap","arguments":{"__proto__":{"x":1}}}}',
      {},
    );
    expect(res.body).toContain('unknown parameter \\"__proto__\\"');
    expect(sim.requests).toHaveLength(0);
  });

  it('speaks to the caller and to the operator apart when a call cannot go upstream', async () => {
    const server = await startHttp({ STREAMER_ANALYTICS_BASE_URL: sim.url });
    const keyless = await connect(server.url);
    const text = textOf(await keyless.callTool({ name: 'check_health', arguments: {} }));
    expect(text).toContain('For you, the caller: send your API key');
    expect(text).toContain('x-api-key header');
    expect(text).toContain(
      "For the operator of this server: or set STREAMER_ANALYTICS_API_KEY in the server's environment",
    );
    expect(text).not.toContain('the "env" of this server');
    await keyless.close();
  });

  it.each(['0.0.0.0', '127.example.invalid', '127.0.0.1.nip.io'])(
    'refuses to bind beyond loopback without a token (--host %s)',
    async (host) => {
      const child = spawn(process.execPath, [SERVER_ENTRY, '--http', '--host', host, '--port', '0'], {
        env: { PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (c) => {
        stderr += String(c);
      });
      const [code] = await once(child, 'exit');
      expect(code).toBe(2);
      expect(stderr).toContain('without STREAMER_ANALYTICS_HTTP_TOKEN');
    },
  );

  it('on SIGTERM lets a slow call in flight finish, then exits 0', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
    });
    const client = await connect(server.url);
    sim.inject({ delayMs: 800 });
    const pending = client.callTool({ name: 'check_health', arguments: {} });
    // SIGTERM once the call is in flight upstream (its answer 800 ms off).
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1), { timeout: 10_000, interval: 5 });
    server.child.kill('SIGTERM');
    const result = await pending;
    expect(result.isError).toBeFalsy();
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(0);
  });

  it('keeps one breaker and one limit per caller key, and shares nothing across keys', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_MAX_RETRIES: '0',
    });
    const caller = await connect(server.url, { 'x-api-key': sim.apiKey });
    sim.reset();
    sim.randomFaults(1, [{ status: 503 }]);
    const outcomes: string[] = [];
    for (let i = 0; i < 7; i++)
      outcomes.push(textOf(await caller.callTool({ name: 'check_health', arguments: {} })));
    // Five outage failures open this caller's circuit; the calls after them fail fast.
    expect(sim.requests).toHaveLength(5);
    expect(outcomes.at(-1)).toContain('[error: circuit_open');
    const other = await connect(server.url, { 'x-api-key': 'another-callers-key-0123456789' });
    await other.callTool({ name: 'check_health', arguments: {} });
    expect(sim.requests).toHaveLength(6);
    sim.reset();

    // Identical calls in flight at once share one upstream request.
    const mint = ids(sim, 'platform_a', 1)[0];
    // The same key on a fresh server (this one's circuit for it is open, as it should be).
    const second = await startHttp({
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
    });
    const fresh = await connect(second.url, { 'x-api-key': sim.apiKey });
    // A caller's key echoed back reaches neither that caller's result nor a log line.
    sim.reset();
    sim.inject({ status: 400, body: { success: false, error: `bad request for key=${sim.apiKey}!` } });
    const echoed = await fresh.callTool({ name: 'check_health', arguments: {} });
    expect(textOf(echoed)).toContain('key=[redacted]!');
    sim.reset();
    sim.latencyMs = 300;
    const answers = await Promise.all(
      // 30 at once: within what one caller may hold while the server is less than half full.
      Array.from({ length: 30 }, () => fresh.callTool({ name: 'get_streamer_core', arguments: { mint } })),
    );
    expect(answers.filter((a) => a.isError).map(textOf)).toEqual([]);
    expect(sim.requests.length).toBeLessThanOrEqual(4);
    expect(server.stderr() + second.stderr()).not.toContain(sim.apiKey);
    for (const c of [caller, other, fresh]) await c.close();
  });

  it('bounds the upstream work of one HTTP request, a batch of calls included', async () => {
    const server = await startHttp({
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
    });
    const mintIds = Array.from({ length: 500 }, (_, i) =>
      `Batch${String(i).padStart(4, '0')}`.padEnd(44, 'x'),
    );
    const batch = Array.from({ length: 10 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'investigate_botting', arguments: { mintIds } },
    }));
    sim.reset();
    const res = await post(server.url, JSON.stringify(batch), {});
    expect(res.status).toBe(200);
    // Ten investigations of 500 ids would make 150 upstream requests; one HTTP request may make 100.
    expect(sim.requests.length).toBeLessThanOrEqual(100);
    expect(res.body).toContain('[error: batch_limit · final]');
    expect(res.body.match(/"id":\d+/g)?.length).toBeGreaterThanOrEqual(10);
  });
});
