// MCP over Streamable HTTP, stateless: every POST /mcp gets a fresh server and transport, so any instance
// can answer any request and plain round-robin balancing works. Loaded only in --http mode.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, isIPv4 } from 'node:net';
import { Readable, Transform } from 'node:stream';
import {
  bearerAuthChallengeResponse,
  type ClientCapabilities,
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  readRequestBody,
  type Server,
  validateHostHeader,
  validateOriginHeader,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { BusyError } from '../api/errors.js';
import { Limiter } from '../api/limiter.js';
import { Switch } from '../api/switch.js';
import type { Logger } from '../log.js';
import { appsDeclared } from '../views.js';
import { keepProtoArguments } from './proto.js';
import { capabilitiesOf, createSessions } from './session.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** Bearer token required on /mcp; without one, only loopback binding is allowed. */
  token: string | undefined;
  /** Host names accepted in Host (a port is ignored); empty: the loopback names when bound to loopback, else any. */
  allowedHosts: string[];
  /** Origins accepted when present, compared by host name; empty: the loopback names. */
  allowedOrigins: string[];
  maxBodyBytes: number;
  /** The whole answer to one HTTP request, a batch's included; past it, an error instead. */
  maxAnswerBytes: number;
  /** Answer bytes not yet taken by slow clients, all together, past which new calls are refused. */
  maxUnsentBytes: number;
  maxConcurrent: number;
  /** Requests waiting for a place in all (default 256); beyond it, 503. */
  maxWaiting?: number;
  /** Longest a request waits for a place (default 30 s) before it is answered 503. */
  maxWaitMs?: number;
  /** Longest a request may take, body and answer included. */
  requestTimeoutMs: number;
  /** How long calls in flight may finish after SIGTERM or SIGINT. */
  shutdownGraceMs: number;
}

export const HTTP_DEFAULTS = {
  host: '127.0.0.1',
  port: 3333,
  maxBodyBytes: 1024 * 1024,
  /** The whole answer to one HTTP request, a batch's included. */
  maxAnswerBytes: 8 * 1024 * 1024,
  /** Answers written but not yet taken by their clients, all together; past it, new calls wait (503). */
  maxUnsentBytes: 64 * 1024 * 1024,
  maxConcurrent: 64,
  requestTimeoutMs: 120_000,
  shutdownGraceMs: 10_000,
  /** Upstream requests one HTTP request may cause, all the calls of a batch together. */
  maxUpstreamPerRequest: 100,
  /** Requests waiting for a place in all, past `maxConcurrent`; beyond it, 503. */
  maxWaiting: 256,
  /** Longest a request waits for a place before it is answered 503. */
  maxWaitMs: 30_000,
};

/** Who a request comes from, as far as the server needs to know. */
export interface Caller {
  /** The caller's own upstream key (x-api-key), if any. */
  apiKey: string | undefined;
  /** What a 2025 client declared at initialize, from its verified session id (absent: none, or 2026). */
  capabilities?: ClientCapabilities;
  /** Who asks, for fair shares of the upstream: its session, its own key, or its address. */
  id: string;
  /** Runs `end` when the HTTP request is over (answered, or its connection gone). */
  onEnd(end: () => void): void;
}

export interface HttpDeps {
  /** A fresh MCP server for one request. */
  makeServer(caller: Caller): Server;
  /** Whether a caller's x-api-key is sent upstream (the server has no key of its own): only then a secret. */
  callerKeys?: boolean;
  /** Whether the upstream answers (cached by the caller). */
  ready(): Promise<{ ready: boolean; detail: string }>;
  logger: Logger;
}

/** A literal loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x); a name is not one, whatever it reads. */
export const isLoopbackAddress = (address: string) => {
  const v4 = address.replace(/^::ffff:/i, '');
  return (isIPv4(v4) && v4.startsWith('127.')) || address === '::1' || address === '0:0:0:0:0:0:0:1';
};
/** Loopback as --host gives it: a literal loopback address, or `localhost` (checked again once bound). */
export const isLoopback = (host: string) => host === 'localhost' || isLoopbackAddress(host);

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Checks a bearer token against STREAMER_ANALYTICS_HTTP_TOKEN, in constant time. */
function tokenVerifier(expected: string): OAuthTokenVerifier {
  const want = digest(expected);
  return {
    async verifyAccessToken(token) {
      if (!timingSafeEqual(digest(token), want)) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'The token is not STREAMER_ANALYTICS_HTTP_TOKEN');
      }
      // A shared secret, not an issued token: it does not expire, and is not handed on.
      return { token: '', clientId: 'http-token', scopes: [], expiresAt: Number.POSITIVE_INFINITY };
    },
  };
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: Record<string, unknown>,
) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null }));
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The host name of an origin or URL (`https://app.example:8443` → `app.example`); the value itself if none. */
const hostnameOf = (value: string) => (URL.canParse(value) ? new URL(value).hostname : value).toLowerCase();

/** The path of a request target (origin-form or absolute-form); undefined when it cannot be read. */
function pathOf(target: string | undefined): string | undefined {
  if (!target) return undefined;
  if (target.startsWith('/')) return target.split(/[?#]/, 1)[0];
  if (!URL.canParse(target)) return undefined;
  return new URL(target).pathname;
}

/** A header's single value (a repeated header counts as absent). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
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

/** The request as a web-standard Request (what the SDK takes), its body still to be read. */
function webRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP.has(name) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://localhost${pathOf(req.url) ?? '/mcp'}`, {
    method: 'POST',
    headers,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: 'half',
    signal,
  } as RequestInit);
}

/**
 * Writes a web-standard Response (a JSON body, or an event stream as it comes) to the Node response; an
 * event stream is returned, so that a cancellation can take its place.
 */
async function writeResponse(
  res: ServerResponse,
  response: Response,
  extra: Record<string, string> = {},
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Readable | undefined> {
  const headers = { ...Object.fromEntries(response.headers), ...extra };
  if (!response.body || !headers['content-type']?.startsWith('text/event-stream')) {
    // A JSON answer is complete: one write, with its length; past the cap, a clear error instead.
    const body = response.body ? await readAnswer(response.body, maxBytes) : undefined;
    if (body === TOO_LARGE) {
      return void jsonRpcError(res, 200, -32000, answerTooLarge(maxBytes));
    }
    res.writeHead(response.status, { ...headers, ...(body ? { 'content-length': body.length } : {}) });
    res.end(body);
    return undefined;
  }
  // An event stream's status goes out at once, before its first event; it is written as the client reads
  // it (pipe), and past the cap it ends with an error event.
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const stream = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  let sent = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      sent += chunk.length;
      if (sent <= maxBytes) return next(null, chunk);
      stream.unpipe(counted);
      stream.destroy();
      const error = { jsonrpc: '2.0', id: null, error: { code: -32000, message: answerTooLarge(maxBytes) } };
      this.push(`event: message\ndata: ${JSON.stringify(error)}\n\n`);
      this.end();
      next();
    },
  });
  stream.on('error', () => res.destroy());
  stream.pipe(counted).pipe(res);
  return stream;
}

const TOO_LARGE = Symbol('too large');
const answerTooLarge = (max: number) =>
  `Answer larger than ${max} bytes: not sent. Ask for less at once (fewer calls in one batch, a smaller limit, or concise results).`;

/** A JSON answer's bytes, read no further than `max` (TOO_LARGE past it). */
async function readAnswer(body: ReadableStream<Uint8Array>, max: number): Promise<Buffer | typeof TOO_LARGE> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
  }
}

/**
 * Notifications a caller (a session, else an address) may send: a burst of 20, then 10 a second. Plenty for
 * a client's own cancellations and list changes; a spray of them costs its sender, not the server.
 */
const NOTIFICATION_RATE = { burst: 20, perSecond: 10 };
/**
 * 2025 sessions an address may start (each is an identity of its own in the queue for places): a burst of
 * 60, then one a second. Plenty for a team's clients behind one proxy (each starts one per connection);
 * a caller minting identities to take more turns gets one more a second, no more.
 */
const INITIALIZE_RATE = { burst: 60, perSecond: 1 };
/** Callers whose rate is remembered; beyond it, the longest unseen is forgotten (and starts full again). */
const RATE_CALLERS = 10_000;

/** A token bucket per caller; `take` answers 0 when the caller may go on, else the seconds to wait. */
function rateLimiter({ burst, perSecond }: { burst: number; perSecond: number }) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(caller: string): number {
      const now = performance.now();
      const bucket = buckets.get(caller) ?? { tokens: burst, at: now };
      buckets.delete(caller);
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
      buckets.set(caller, bucket);
      if (buckets.size > RATE_CALLERS) buckets.delete(buckets.keys().next().value as string);
      if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / perSecond);
      bucket.tokens -= 1;
      return 0;
    },
  };
}

/** JSON-RPC error code of a call ended by the caller's cancellation (the LSP convention; MCP names none). */
const REQUEST_CANCELLED = -32800;

export async function serveHttp(options: HttpOptions, deps: HttpDeps) {
  if (!options.token && !isLoopback(options.host)) {
    throw new Error(
      `refusing to listen on ${options.host} without STREAMER_ANALYTICS_HTTP_TOKEN: anyone who can reach it could use the server. Set a token, or bind 127.0.0.1.`,
    );
  }
  const verifier = options.token ? tokenVerifier(options.token) : undefined;
  const sessions = createSessions(options.token);
  // Who each request comes from, for the factory (which gets the request itself).
  const callers = new WeakMap<Request, Caller>();
  // Both eras, one factory: a fresh server per HTTP request (stateless), the caller passed along.
  const handler = createMcpHandler(({ requestInfo }) =>
    deps.makeServer(
      (requestInfo && callers.get(requestInfo)) ?? {
        apiKey: requestInfo?.headers.get('x-api-key')?.trim() || undefined,
        id: '',
        onEnd: () => {},
      },
    ),
  );
  // The door: `maxConcurrent` requests in flight; past it, requests wait in one queue per caller and a
  // freed place goes to the callers in turn (the upstream limiter's round robin), so that a caller with
  // many requests, or many identities, delays another's one request by a turn per identity, not refuses it.
  const door = new Limiter({
    limit: options.maxConcurrent,
    maxWaitingPerCaller: Math.max(1, Math.floor(options.maxConcurrent / 4)),
  });
  const maxWaiting = options.maxWaiting ?? HTTP_DEFAULTS.maxWaiting;
  const maxWaitMs = options.maxWaitMs ?? HTTP_DEFAULTS.maxWaitMs;
  let closing = false;
  // 2025 calls in flight, by verified session id and JSON-RPC id (see notifications/cancelled below).
  const calls = new Map<string, Set<() => void>>();
  const notifications = rateLimiter(NOTIFICATION_RATE);
  const initializes = rateLimiter(INITIALIZE_RATE);
  // Requests in flight by caller: past half full, each may hold a quarter of the places at most.
  const perCaller = new Map<string, number>();
  let unsent = 0;
  const perCallerMax = Math.max(1, Math.floor(options.maxConcurrent / 4));
  // Host names, as the SDK's checks take them; an empty list of hosts (bound beyond loopback, none given)
  // accepts any.
  const hosts = options.allowedHosts.length
    ? options.allowedHosts.map((h) => hostnameOf(`http://${h}`))
    : isLoopback(options.host)
      ? localhostAllowedHostnames()
      : [];
  const origins = options.allowedOrigins.length
    ? options.allowedOrigins.map(hostnameOf)
    : localhostAllowedOrigins();

  // Every request gets an answer, whatever its line or headers: a fault in handling one is answered (or
  // its connection closed) and logged, and never becomes an unhandled rejection that stops the server.
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.logger.error('HTTP request failed', { error });
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
      else res.destroy();
    });
  });
  /**
   * Takes a place at the door for `who`, waiting its turn when all are taken: the function that gives it
   * back, or why there is none: a BusyError (too much of its own work waiting), 'timeout' (no place within
   * `maxWaitMs`) or 'gone' (the request ended while it waited).
   */
  const enter = (who: string, gone: AbortSignal) =>
    new Promise<(() => void) | BusyError | 'timeout' | 'gone'>((resolve) => {
      if (gone.aborted) return resolve('gone');
      const wait = new Switch();
      const timer = setTimeout(() => wait.abort('timeout'), maxWaitMs);
      const onGone = () => wait.abort('gone');
      gone.addEventListener('abort', onGone, { once: true });
      const stop = () => {
        clearTimeout(timer);
        gone.removeEventListener('abort', onGone);
      };
      door
        .run(
          () => {
            stop();
            return new Promise<void>((free) => resolve(() => free()));
          },
          wait,
          who,
        )
        .catch((error: unknown) => {
          stop();
          resolve(error instanceof BusyError ? error : error === 'gone' ? 'gone' : 'timeout');
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

    // DNS rebinding: a browser page must not reach a local server through a name it controls. The SDK's
    // checks compare host names (any port): what a rebinding page controls is the name.
    const host = validateHostHeader(req.headers.host, hosts);
    if (hosts.length && !host.ok) return jsonRpcError(res, 403, -32000, host.message);
    const origin = validateOriginHeader(req.headers.origin, origins);
    if (!origin.ok) return jsonRpcError(res, 403, -32000, origin.message);
    if (verifier) {
      try {
        await verifyBearerToken(req.headers.authorization, { verifier });
      } catch (error) {
        return writeResponse(res, bearerAuthChallengeResponse(error));
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
    let stream: Readable | undefined;
    // Ends the request's hold on its place at the door (once it has one).
    let leave = () => {};
    let finished = false;
    // Released when the answer is written ('finish') or the connection goes ('close'), whichever is
    // first: waiting for 'close' alone let a client's next request find its own slot still taken.
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      leave();
    };
    res.once('finish', done);
    res.once('close', () => {
      done();
      if (!res.writableFinished) gone.abort();
    });
    try {
      const request = webRequest(req, gone.signal);
      const read = await readRequestBody(request, options.maxBodyBytes);
      if (read.tooLarge)
        return jsonRpcError(res, 413, -32600, `Request body larger than ${options.maxBodyBytes} bytes`);
      const { text } = read;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      keepProtoArguments(body);
      const message = body as {
        id?: unknown;
        method?: unknown;
        params?: { requestId?: unknown; capabilities?: ClientCapabilities };
      } | null;
      const notification =
        !Array.isArray(body) && message?.id === undefined && typeof message?.method === 'string';
      const single = Array.isArray(body) ? undefined : message;
      const initialize = single?.method === 'initialize';
      const apiKey = headerOf(req, 'x-api-key')?.trim() || undefined;
      // A 2025 client's session id (never a 2026 one's: that revision has no sessions). One that fails
      // verification gets 404, as the spec says of a session the server no longer knows: the client then
      // starts a new session with initialize, which is right after a key change or a forged id alike.
      const sessionId = initialize ? undefined : headerOf(req, 'mcp-session-id');
      let session: string | undefined;
      let capabilities: ClientCapabilities | undefined;
      if (sessionId !== undefined && (await isLegacyRequest(request, body))) {
        const claims = sessions.verify(sessionId);
        if (!claims) {
          return jsonRpcError(
            res,
            404,
            -32001,
            'Session not found: this Mcp-Session-Id was not issued by this server (or its key changed); send initialize again',
          );
        }
        session = sessionId;
        if (claims.apps) capabilities = capabilitiesOf(claims);
      }
      // Who asks, for fair shares: the verified session; else the caller's own key, where it is used
      // upstream; else the address (behind a proxy with one team token, all such callers are one).
      const who = session
        ? `session ${session}`
        : deps.callerKeys && apiKey
          ? `key ${digest(apiKey).toString('base64')}`
          : `address ${req.socket.remoteAddress}`;
      if (notification) {
        // Notifications pass the limits on calls (a cancellation must reach a server that is full), but
        // each caller may send only a few a second.
        const wait = notifications.take(who);
        if (wait > 0) {
          return jsonRpcError(res, 429, -32000, `Too many notifications: retry after ${wait} s`, {
            'retry-after': String(wait),
          });
        }
      } else {
        // Clients that do not read their answers hold memory; past the bound, no new work until they do.
        if (unsent > options.maxUnsentBytes) {
          return jsonRpcError(res, 503, -32000, 'Server busy: answers not yet read by their clients', {
            'retry-after': '1',
          });
        }
        // Once the server is half full, no caller takes more than its share (a quarter of the places), so
        // that the others still get in; below that, anyone may use the room there is.
        const mine = perCaller.get(who) ?? 0;
        if (mine >= perCallerMax && door.active >= options.maxConcurrent / 2) {
          return jsonRpcError(
            res,
            429,
            -32000,
            `Too many requests in flight from this caller (${perCallerMax}): retry after 1 s`,
            { 'retry-after': '1' },
          );
        }
        // Each session started is an identity with its own turn: an address starts only so many.
        if (initialize) {
          const wait = initializes.take(`address ${req.socket.remoteAddress}`);
          if (wait > 0) {
            return jsonRpcError(res, 429, -32000, `Too many sessions started: retry after ${wait} s`, {
              'retry-after': String(wait),
            });
          }
        }
        if (door.active >= options.maxConcurrent && door.waiting >= maxWaiting) {
          return jsonRpcError(
            res,
            503,
            -32000,
            `Server busy: ${options.maxConcurrent} requests in flight and ${door.waiting} waiting`,
            { 'retry-after': '1' },
          );
        }
        perCaller.set(who, mine + 1);
        res.once('close', () => {
          const left = (perCaller.get(who) ?? 1) - 1;
          if (left > 0) perCaller.set(who, left);
          else perCaller.delete(who);
        });
        const entered = await enter(who, gone.signal);
        if (entered === 'gone') return;
        if (typeof entered !== 'function') {
          // Too much of its own work waiting: 429, with when its queue will have drained; none free: 503.
          const own = entered instanceof BusyError;
          const retryS = own ? Math.ceil((entered.detail.retryAfterMs ?? 1000) / 1000) : 1;
          const message = own
            ? `Too many requests of this caller waiting: retry after ${retryS} s`
            : `Server busy: no place freed within ${maxWaitMs / 1000} s (${options.maxConcurrent} requests in flight)`;
          return jsonRpcError(
            res,
            own ? 429 : 503,
            -32000,
            message,
            { 'retry-after': String(retryS) },
            { retry_after_s: retryS },
          );
        }
        leave = entered;
        if (finished) leave();
      }
      const ended: Array<() => void> = [];
      res.once('close', () => {
        for (const end of ended) end();
      });
      const caller: Caller = {
        apiKey,
        id: who,
        onEnd: (end) => ended.push(end),
        ...(capabilities ? { capabilities } : {}),
      };
      callers.set(request, caller);
      // A 2025 client cancels with notifications/cancelled in a request of its own. A stateless server can
      // match it only by an identity no other caller can present: the verified session id (an address or a
      // shared token is no such identity). Calls without one, and 2026-07-28 calls (which cancel by closing
      // their request), are never candidates; an id two calls of one session share cancels neither.
      if (single?.method === 'notifications/cancelled') {
        const matching = session && calls.get(`${session} ${JSON.stringify(single.params?.requestId)}`);
        if (matching && matching.size === 1) for (const end of matching) end();
      } else if (session && single?.id !== undefined && typeof single.method === 'string') {
        const id = `${session} ${JSON.stringify(single.id)}`;
        // The call answers with a cancellation error, in place of whatever it was writing.
        const end = () => {
          if (!res.writableEnded) {
            const error = {
              code: REQUEST_CANCELLED,
              message: 'Request cancelled by notifications/cancelled',
            };
            const answer = JSON.stringify({ jsonrpc: '2.0', id: single.id, error });
            if (!res.headersSent) {
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end(answer);
            } else {
              stream?.unpipe(res);
              res.end(`event: message\ndata: ${answer}\n\n`);
            }
          }
          gone.abort();
        };
        calls.set(id, (calls.get(id) ?? new Set()).add(end));
        res.once('close', () => {
          const set = calls.get(id);
          set?.delete(end);
          if (!set?.size) calls.delete(id);
        });
      }
      // A caller may bring its own upstream key; it is never logged, and kept only as its client's header.
      // A key the server ignores (it has its own) is no secret: redacting it would let a caller rewrite lines.
      if (deps.callerKeys) log = deps.logger.redacting(caller.apiKey);
      const response = await handler.fetch(request, { parsedBody: body });
      // Past the time limit or with the client gone, the answer was given already (or is owed to no one).
      if (gone.signal.aborted || res.headersSent) return;
      // A 2025 session starts here: its id carries what the client declared that later requests need.
      const started =
        initialize && response.ok
          ? { 'mcp-session-id': sessions.issue({ apps: appsDeclared(single?.params?.capabilities) }) }
          : {};
      stream = await writeResponse(res, response, started, options.maxAnswerBytes);
      // What the client has not taken yet stays in memory: counted until it has (or the connection goes).
      const unsentNow = res.writableLength;
      if (unsentNow > 0) {
        unsent += unsentNow;
        let settled = false;
        const settle = () => {
          if (settled) return;
          settled = true;
          unsent -= unsentNow;
        };
        res.once('finish', settle);
        res.once('close', settle);
      }
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
  const { port, address } = server.address() as AddressInfo;
  // What a name resolved to is what counts: without a token, the address bound must be loopback.
  if (!options.token && !isLoopbackAddress(address)) {
    server.close();
    throw new Error(
      `refusing to listen on ${options.host} (${address}) without STREAMER_ANALYTICS_HTTP_TOKEN: it is not a loopback address. Set a token, or bind 127.0.0.1.`,
    );
  }
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${shown}:${port}/mcp`,
    /** Stops accepting, lets calls in flight finish within the grace period, then closes everything. */
    async close() {
      closing = true;
      server.close();
      server.closeIdleConnections();
      const deadline = Date.now() + options.shutdownGraceMs;
      while (door.active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      server.closeAllConnections();
    },
  };
}
