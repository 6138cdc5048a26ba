// MCP over Streamable HTTP, stateless: every POST /mcp gets a fresh server and transport, so any instance
// can answer any request and plain round-robin balancing works. Loaded only in --http mode.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createMcpHandler, type Server } from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** Bearer token required on /mcp; without one, only loopback binding is allowed. */
  token: string | undefined;
  /** Host header values accepted (host:port); empty: the loopback names when bound to loopback, else any. */
  allowedHosts: string[];
  /** Origin header values accepted when present; empty: the loopback origins. */
  allowedOrigins: string[];
  maxBodyBytes: number;
  maxConcurrent: number;
  /** Longest a request may take, body and answer included. */
  requestTimeoutMs: number;
  /** How long calls in flight may finish after SIGTERM or SIGINT. */
  shutdownGraceMs: number;
}

export const HTTP_DEFAULTS = {
  host: '127.0.0.1',
  port: 3333,
  maxBodyBytes: 1024 * 1024,
  maxConcurrent: 64,
  requestTimeoutMs: 120_000,
  shutdownGraceMs: 10_000,
  /** Upstream requests one HTTP request may cause, all the calls of a batch together. */
  maxUpstreamPerRequest: 100,
};

export interface HttpDeps {
  /** A fresh MCP server for one request; `apiKey` is the caller's own key (x-api-key), if any. */
  makeServer(apiKey: string | undefined): Server;
  /** Whether the upstream answers (cached by the caller). */
  ready(): Promise<{ ready: boolean; detail: string }>;
  logger: Logger;
}

export const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

const digest = (value: string) => createHash('sha256').update(value).digest();

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The path of a request target (origin-form or absolute-form); undefined when it cannot be read. */
function pathOf(target: string | undefined): string | undefined {
  if (!target) return undefined;
  if (target.startsWith('/')) return target.split(/[?#]/, 1)[0];
  if (!URL.canParse(target)) return undefined;
  return new URL(target).pathname;
}

/** Headers that belong to this hop, not to the request handed on. */
const HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
]);

/** The request as a web-standard Request (what the SDK's handler takes), with the body already read. */
function webRequest(req: IncomingMessage, body: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP.has(name) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://localhost${pathOf(req.url) ?? '/mcp'}`, {
    method: 'POST',
    headers,
    body,
    signal,
  });
}

/** Writes a web-standard Response (a JSON body, or an event stream as it comes) to the Node response. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers = Object.fromEntries(response.headers);
  if (!response.body || !headers['content-type']?.startsWith('text/event-stream')) {
    // A JSON answer is complete: one write, with its length.
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
    res.writeHead(response.status, { ...headers, ...(body ? { 'content-length': body.length } : {}) });
    res.end(body);
    return;
  }
  // An event stream's status goes out at once, before its first event.
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const stream = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** Reads the body up to `cap` bytes; undefined when it is larger. */
async function readBody(req: IncomingMessage, cap: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > cap) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function serveHttp(options: HttpOptions, deps: HttpDeps) {
  if (!options.token && !isLoopback(options.host)) {
    throw new Error(
      `refusing to listen on ${options.host} without STREAMER_ANALYTICS_HTTP_TOKEN: anyone who can reach it could use the server. Set a token, or bind 127.0.0.1.`,
    );
  }
  const tokenDigest = options.token ? digest(options.token) : undefined;
  // Both eras, one factory: a fresh server per HTTP request (stateless), the caller's key passed along.
  const handler = createMcpHandler(({ requestInfo }) =>
    deps.makeServer(requestInfo?.headers.get('x-api-key')?.trim() || undefined),
  );
  let active = 0;
  let closing = false;
  // Calls in flight, by caller and JSON-RPC id (see notifications/cancelled below).
  const calls = new Map<string, Set<AbortController>>();
  // Known once listening (the port may be chosen by the system); requests only arrive after that.
  let hosts: string[] = [];
  let origins: string[] = [];

  // Every request gets an answer, whatever its line or headers: a fault in handling one is answered (or
  // its connection closed) and logged, and never becomes an unhandled rejection that stops the server.
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.logger.error('HTTP request failed', { error });
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
      else res.destroy();
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = pathOf(req.url);
    if (path === undefined) return json(res, 400, { error: 'bad request target' });
    if (req.method === 'GET' && path === '/healthz') return json(res, 200, { status: 'ok' });
    if (req.method === 'GET' && path === '/readyz') {
      const r = await deps.ready();
      return json(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', detail: r.detail });
    }
    if (path !== '/mcp') return json(res, 404, { error: 'not found; MCP is at /mcp' });

    // DNS rebinding: a browser page must not reach a local server through a name it controls.
    const host = String(req.headers.host ?? '').toLowerCase();
    if (hosts.length && !hosts.includes(host))
      return jsonRpcError(res, 403, -32000, `Host "${host}" is not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) {
      return jsonRpcError(res, 403, -32000, `Origin "${origin}" is not allowed`);
    }

    if (tokenDigest) {
      const given = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!given || !timingSafeEqual(digest(given), tokenDigest)) {
        return jsonRpcError(
          res,
          401,
          -32001,
          'Unauthorized: send Authorization: Bearer <STREAMER_ANALYTICS_HTTP_TOKEN>',
          {
            'www-authenticate': 'Bearer realm="streamer-analytics-mcp"',
          },
        );
      }
    }
    if (req.method !== 'POST') {
      return jsonRpcError(
        res,
        405,
        -32000,
        'Method not allowed: this server is stateless; POST JSON-RPC to /mcp',
        {
          allow: 'POST',
        },
      );
    }
    if (closing) return jsonRpcError(res, 503, -32000, 'Server shutting down', { 'retry-after': '1' });
    // Aborted when the connection goes, time runs out or the caller cancels: the call in flight is
    // cancelled, and so is its upstream request.
    const gone = new AbortController();
    // Past the time limit: a 504 if nothing was sent yet; an event stream already under way is cut.
    const timer = setTimeout(() => {
      gone.abort();
      if (res.headersSent) res.destroy();
      else jsonRpcError(res, 504, -32000, `Request took longer than ${options.requestTimeoutMs} ms`);
    }, options.requestTimeoutMs);
    let log = deps.logger;
    let counted = false;
    let finished = false;
    // Released when the answer is written ('finish') or the connection goes ('close'), whichever is
    // first: waiting for 'close' alone let a client's next request find its own slot still taken.
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (counted) active--;
    };
    res.once('finish', done);
    res.once('close', () => {
      done();
      if (!res.writableFinished) gone.abort();
    });
    try {
      const text = await readBody(req, options.maxBodyBytes);
      if (text === undefined)
        return jsonRpcError(res, 413, -32600, `Request body larger than ${options.maxBodyBytes} bytes`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      const message = body as { id?: unknown; method?: unknown; params?: { requestId?: unknown } } | null;
      // Calls count against the limit; a notification (a cancellation above all) always gets through.
      if (Array.isArray(body) || message?.id !== undefined || typeof message?.method !== 'string') {
        if (active >= options.maxConcurrent) {
          return jsonRpcError(res, 503, -32000, `Server busy: ${options.maxConcurrent} requests in flight`, {
            'retry-after': '1',
          });
        }
        active++;
        counted = true;
      }
      // A 2025 client cancels with notifications/cancelled in a request of its own, which a stateless
      // server can match only by caller and id: the caller's address and credentials, hashed. Only its
      // own calls are candidates, and an id two of its calls share cancels neither.
      const caller = (id: unknown) =>
        `${digest(`${req.socket.remoteAddress}\n${req.headers['x-api-key']}\n${req.headers.authorization}`).toString('base64')} ${JSON.stringify(id)}`;
      if (message?.method === 'notifications/cancelled') {
        const matching = calls.get(caller(message.params?.requestId));
        if (matching?.size === 1) for (const call of matching) call.abort();
      } else if (message?.id !== undefined && typeof message?.method === 'string') {
        const id = caller(message.id);
        calls.set(id, (calls.get(id) ?? new Set()).add(gone));
        res.once('close', () => {
          const set = calls.get(id);
          set?.delete(gone);
          if (!set?.size) calls.delete(id);
        });
      }
      // A caller may bring its own upstream key; it is never logged, and kept only as its client's header.
      const key = req.headers['x-api-key'];
      log = deps.logger.redacting(typeof key === 'string' ? key.trim() : undefined);
      const response = await handler.fetch(webRequest(req, text, gone.signal), { parsedBody: body });
      // Past the time limit or with the client gone, the answer was given already (or is owed to no one).
      if (gone.signal.aborted || res.headersSent) return;
      await writeResponse(res, response);
    } catch (error) {
      if (gone.signal.aborted) return;
      log.error('HTTP request failed', { error });
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
      else res.destroy();
    }
  };
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const loopbackNames = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  hosts = options.allowedHosts.length ? options.allowedHosts : isLoopback(options.host) ? loopbackNames : [];
  origins = options.allowedOrigins.length
    ? options.allowedOrigins
    : loopbackNames.map((name) => `http://${name}`);
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${shown}:${port}/mcp`,
    /** Stops accepting, lets calls in flight finish within the grace period, then closes everything. */
    async close() {
      closing = true;
      server.close();
      server.closeIdleConnections();
      const deadline = Date.now() + options.shutdownGraceMs;
      while (active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      server.closeAllConnections();
    },
  };
}
