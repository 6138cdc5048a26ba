// The 2025 session id over stateless --http (signed, carries what initialize declared, verified by any
// replica with the same token) and what it is for: a cancellation reaches only calls of the same session.
// The real HTTP front in process, a real MCP server per request, the simulator as a slow upstream.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { createServer } from '../../src/server.js';
import type { Simulator } from '../../src/simulator/server.js';
import { HTTP_DEFAULTS, serveHttp } from '../../src/transports/http.js';
import { connect, startSim, testConfig } from '../helpers.js';

const TOKEN = 'team-token-session-test';
const AUTH = { authorization: `Bearer ${TOKEN}`, 'x-api-key': 'shared-team-key' };
let sim: Simulator;
let api: Awaited<ReturnType<typeof connect>>;
const servers: Array<Awaited<ReturnType<typeof serveHttp>>> = [];

async function front(token: string | undefined) {
  const http = await serveHttp(
    { ...HTTP_DEFAULTS, port: 0, token, allowedHosts: [], allowedOrigins: [], requestTimeoutMs: 5_000 },
    {
      logger: silentLogger,
      ready: async () => ({ ready: true, detail: 'test' }),
      makeServer: (caller) =>
        createServer({
          config: testConfig(sim),
          logger: silentLogger,
          ...(api.api ? { client: api.api } : {}),
          ...(caller.capabilities ? { clientCapabilities: caller.capabilities } : {}),
        }),
    },
  );
  servers.push(http);
  return http;
}

const post = (url: string, message: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...AUTH,
      ...headers,
    },
    body: JSON.stringify(message),
  });

const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** A 2025 initialize; resolves with the session id the server answered with. */
async function initialize(url: string, capabilities: Record<string, unknown> = {}) {
  const res = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } },
  });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id') ?? '';
}

const health = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'check_health', arguments: {} },
});
const cancel = (requestId: unknown) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId },
});

/** Waits until the simulator has seen `n` requests (the call is upstream, so there is something to cancel). */
async function upstreamSeen(n: number) {
  for (let i = 0; i < 200 && sim.requests.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  expect(sim.requests.length).toBeGreaterThanOrEqual(n);
}

/** Every JSON-RPC message of an answer, JSON or event stream. */
async function messagesOf(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return [JSON.parse(text)];
  return [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] ?? ''));
}

type Entry = { name: string; _meta?: unknown };
const toolsOf = (m: Record<string, unknown> | undefined) =>
  (m?.result as { tools?: Entry[] } | undefined)?.tools ?? [];

beforeAll(async () => {
  sim = await startSim();
  api = await connect(sim);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await api.close();
  await sim.close();
});

describe('2025 session id over stateless HTTP', () => {
  it('is signed and unguessable; a replica with the same token accepts it, anything else gets 404', async () => {
    const a = await front(TOKEN);
    const first = await initialize(a.url);
    const second = await initialize(a.url);
    expect(first).toMatch(/^[A-Za-z0-9_-]{60,}$/);
    expect(second).not.toBe(first);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await post(a.url, list, { 'mcp-session-id': first })).status).toBe(200);
    // Another instance behind the same balancer (same token) verifies it without any shared state.
    const replica = await front(TOKEN);
    expect((await post(replica.url, list, { 'mcp-session-id': first })).status).toBe(200);
    // A forged or altered id, or one from a server with another key: 404, so the client initializes again.
    const flipped = `${first.slice(0, 10)}${first[10] === 'A' ? 'B' : 'A'}${first.slice(11)}`;
    for (const forged of [flipped, 'made-up', `${first}x`]) {
      const res = await post(a.url, list, { 'mcp-session-id': forged });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32001);
    }
    const other = await front('another-team-token');
    const res = await post(other.url, list, {
      'mcp-session-id': first,
      authorization: 'Bearer another-team-token',
    });
    expect(res.status).toBe(404);
  });

  it('carries the MCP Apps declaration to later requests; a plain session gets the plain list', async () => {
    const http = await front(TOKEN);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const names = async (session: string) => {
      const [answer] = await messagesOf(await post(http.url, list, { 'mcp-session-id': session }));
      return toolsOf(answer).map((t) => `${t.name}${t._meta ? '+view' : ''}`);
    };
    const withApps = await names(await initialize(http.url, APPS));
    expect(withApps).toContain('get_token_evidence+view');
    expect(withApps).toContain('investigate_botting+view');
    const plain = await names(await initialize(http.url));
    expect(plain.some((n) => n.includes('+view') || n === 'get_token_evidence')).toBe(false);
    // Without any session: exactly the plain list.
    const [answer] = await messagesOf(await post(http.url, list));
    expect(toolsOf(answer)).toHaveLength(plain.length);
  });
});

describe('cancellation stays with its caller', () => {
  it('another caller with the same address, token and key spraying ids 0–50 cancels nothing', async () => {
    const http = await front(TOKEN);
    const victim = await initialize(http.url);
    const attacker = await initialize(http.url);
    sim.reset();
    // Both calls share one upstream request (the same call at the same time).
    sim.inject({ delayMs: 600 });
    const session = victim;
    const calls = [
      post(http.url, health(7), { 'mcp-session-id': session }),
      post(http.url, health(8)), // no session at all: cannot be cancelled by notification
    ];
    await upstreamSeen(1);
    const spray = [];
    for (let id = 0; id <= 50; id++) {
      spray.push(post(http.url, cancel(id)));
      spray.push(post(http.url, cancel(id), { 'mcp-session-id': attacker }));
    }
    for (const res of await Promise.all(spray)) expect([202, 429]).toContain(res.status);
    for (const res of await Promise.all(calls)) {
      const [answer] = (await messagesOf(res)).filter((m) => 'result' in m || 'error' in m);
      expect(JSON.stringify(answer)).toContain('Service reachable');
    }
    expect(sim.abandoned).toBe(0);
  });

  it('a session cancels its own call, which answers with a cancellation error, not silence', async () => {
    const http = await front(TOKEN);
    const session = await initialize(http.url);
    sim.reset();
    sim.inject({ hang: true });
    const pending = post(http.url, health(9), { 'mcp-session-id': session });
    await upstreamSeen(1);
    expect((await post(http.url, cancel(9), { 'mcp-session-id': session })).status).toBe(202);
    const res = await pending;
    const answers = (await messagesOf(res)).filter((m) => 'result' in m || 'error' in m);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 9, error: { code: -32800, message: expect.stringContaining('cancelled') } },
    ]);
    for (let i = 0; i < 100 && sim.abandoned === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(sim.abandoned).toBe(1);
  });

  it('never cancels a 2026-07-28 call by notification, even one carrying a valid session id', async () => {
    const http = await front(TOKEN);
    const session = await initialize(http.url);
    const seen: unknown[] = [];
    const client = new ModernClient(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' as const } } },
    );
    await client.connect(
      new ModernHttp(new URL(http.url), {
        fetch: (url, init) => {
          const headers = new Headers(init?.headers);
          for (const [k, v] of Object.entries(AUTH)) headers.set(k, v);
          headers.set('mcp-session-id', session);
          const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
          if (body?.method === 'tools/call') seen.push(body.id);
          return fetch(url, { ...init, headers });
        },
      }),
    );
    sim.reset();
    sim.inject({ delayMs: 500 });
    const pending = client.callTool({ name: 'check_health', arguments: {} });
    await upstreamSeen(1);
    const ids = [...new Set([...seen, ...Array.from({ length: 51 }, (_, i) => i)])];
    await Promise.all(ids.map((id) => post(http.url, cancel(id), { 'mcp-session-id': session })));
    const result = await pending;
    expect(JSON.stringify(result.content)).toContain('Service reachable');
    expect(sim.abandoned).toBe(0);
    await client.close();
  });
});
