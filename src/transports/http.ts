// MCP over Streamable HTTP, stateless: every POST /mcp gets a fresh server and transport, so any instance
// can answer any request and plain round-robin balancing works. Loaded only in --http mode.
//
// A shared server holds against its own callers: each request's caller is known from what it cannot choose
// (its verified session, else its address, read from the proxies the operator trusts) before anything is
// spent on it, and everything it can make the server hold (body bytes, places, unread answers, keys,
// notifications) is bounded per caller and in all before it is held.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, BlockList, isIP, isIPv4 } from 'node:net';
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
  type Server,
  validateHostHeader,
  validateOriginHeader,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { BusyError } from '../api/errors.js';
import { Limiter } from '../api/limiter.js';
import { Switch } from '../api/switch.js';
import type { Logger } from '../log.js';
import { appsDeclared, VIEW_URI } from '../views.js';
import { Answer, Meter } from './answer.js';
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
  /**
   * Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs); a caller's address is the
   * first one, from the right, that is not one of them. Empty: the socket's address, whatever is sent.
   */
  trustProxy?: string[];
  /** One request body; past it, 413. A caller holds at most two bodies' worth at once, all callers 16. */
  maxBodyBytes: number;
  /** A body that sends nothing for this long is answered 408 and its connection closed (default 10 s). */
  bodyIdleMs?: number;
  /** The whole answer to one HTTP request, a batch's included; past it, an error instead, as produced. */
  maxAnswerBytes: number;
  /** Answer bytes not yet taken by their clients, all together; past it, new calls get 503. */
  maxUnsentBytes: number;
  /** Answer bytes not yet taken, one caller's (its share); past it, its new calls get 429. */
  maxUnsentPerCaller?: number;
  /** A client that takes nothing of its answer for this long is disconnected (default 30 s). */
  sendTimeoutMs?: number;
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
  /** One caller's answers not yet taken; past it, its new calls 429 and answers being written are cut. */
  maxUnsentPerCaller: 16 * 1024 * 1024,
  /** A client that takes nothing of its answer for this long is disconnected. */
  sendTimeoutMs: 30_000,
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
  /** Its anchor, for fair shares of places and of the upstream: its verified session, else its address. */
  id: string;
  /** Its anchor and key together, opaque (a digest, never the key): what a tool keeps per caller. */
  share: string;
  /** Its address (the trusted proxy's word for it, if any): for what is scarcer than sessions, the sandbox. */
  address: string;
  /** The cancellation of one of its requests, by JSON-RPC id, when one is cancelled alone (a batch's). */
  cancelled?: (id: unknown) => AbortSignal | undefined;
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
/** The trusted proxies as a block list; throws on an entry that is neither an address nor a CIDR. */
export function trustedProxies(entries: readonly string[]): BlockList | undefined {
  if (!entries.length) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(address) || extra !== undefined || (bits !== undefined && !/^\d{1,3}$/.test(bits)))
      throw new Error(`not an address or CIDR: ${entry}`);
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
const isTrusted = (list: BlockList, address: string) => {
  const plain = plainAddress(address);
  const type = isIP(plain);
  return type !== 0 && list.check(plain, type === 6 ? 'ipv6' : 'ipv4');
};

/**
 * The caller's address: the socket's; behind trusted proxies, the nearest address in X-Forwarded-For (from
 * the right) that is not a trusted proxy, as `trust proxy` works in common HTTP servers. What a caller
 * writes in the header beyond the first untrusted hop is never read.
 */
export function clientAddress(req: IncomingMessage, trusted: BlockList | undefined): string {
  let address = plainAddress(req.socket.remoteAddress ?? '');
  if (!trusted || !isTrusted(trusted, address)) return address;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i] as string);
    if (!isIP(hop)) break;
    address = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return address;
}

/** The request as a web-standard Request (what the SDK takes); its body was read and parsed already. */
function webRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP.has(name) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://localhost${pathOf(req.url) ?? '/mcp'}`, { method: 'POST', headers, signal });
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

/** Writes a small web-standard Response (the SDK's auth challenge) to the Node response. */
async function writeSmall(res: ServerResponse, response: Response) {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'content-length': body.length });
  res.end(body);
}

/** Why a body was not read to its end. */
type Unread = 'too large' | 'gone' | 'idle' | 'caller' | 'server';

/**
 * A request body, read no further than `max` bytes: its text, or why not ('too large'; 'gone': the
 * connection went; 'idle': nothing arrived for `idleMs`; 'caller' or 'server': `take` refused the next
 * chunk, past the caller's share of body bytes or the server's). Each chunk is passed to `take` as it
 * arrives, so what a body holds is what has arrived, never what it promised.
 */
function readBody(
  req: IncomingMessage,
  max: number,
  idleMs: number,
  take: (bytes: number) => 'caller' | 'server' | undefined,
) {
  return new Promise<string | Unread>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let idle: NodeJS.Timeout | undefined;
    const done = (outcome: string | Unread) => {
      clearTimeout(idle);
      req.removeAllListeners('data');
      resolve(outcome);
    };
    const wait = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        req.pause();
        done('idle');
      }, idleMs);
    };
    wait();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        return done('too large');
      }
      const over = take(chunk.length);
      if (over) {
        req.pause();
        return done(over);
      }
      chunks.push(chunk);
      wait();
    });
    req.once('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.once('error', () => done('gone'));
    req.once('close', () => {
      if (!req.complete) done('gone');
    });
  });
}
/** What a body must have room for at admission (what it declares, up to this): the rest as it arrives. */
const BODY_START = 64 * 1024;
/** Bodies an address may have arriving at once (legitimate ones arrive in milliseconds). */
const BODIES_ARRIVING = 8;
/**
 * Notifications a caller (its anchor: a session, else an address) may send: a burst of 20, then 10 a
 * second. Plenty for a client's own cancellations and list changes; a spray of them costs its sender, not
 * the server, and a new key on each changes nothing.
 */
const NOTIFICATION_RATE = { burst: 20, perSecond: 10 };
/**
 * 2025 sessions an address may start (each is an identity of its own in the queue for places): a burst of
 * 60, then one a second. Plenty for a team's clients behind one proxy (each starts one per connection);
 * a caller minting identities to take more turns gets one more a second, no more.
 */
const INITIALIZE_RATE = { burst: 60, perSecond: 1 };
/** New x-api-key values a caller may bring (where callers' keys are used): as sessions, 60 then 1 a second. */
const KEY_RATE = { burst: 60, perSecond: 1 };
/** Callers whose rate is remembered; beyond it, the longest unseen is forgotten (and starts full again). */
const RATE_CALLERS = 10_000;
/**
 * Request body bytes an address may send, as bodies of the largest size: a burst of 4, then one a second.
 * Reading and parsing a body is the main thread's time, shared by every caller (a 1 MiB body of tiny JSON
 * values costs 20 to 80 ms of it): a caller sending junk as fast as it is answered would take most of it.
 * A client's real requests are kilobytes (500 ids are 23 KB), far inside this.
 */
const BODY_RATE = { burst: 4, perSecond: 1 };
/** A tool call's arguments' fields, and its name's characters, at most (no tool comes near either). */
const MAX_ARGUMENT_FIELDS = 64;
const MAX_TOOL_NAME = 128;

/** What makes a tool call of the body one that no tool takes, if any: too many argument fields, too long a name. */
function misfitCall(body: unknown): string | undefined {
  for (const m of Array.isArray(body) ? body : [body]) {
    if ((m as Message | null)?.method !== 'tools/call') continue;
    const params = (m as { params?: { name?: unknown; arguments?: unknown } }).params;
    if (typeof params?.name === 'string' && params.name.length > MAX_TOOL_NAME)
      return `a tool's name is at most ${MAX_TOOL_NAME} characters, this one ${params.name.length}`;
    const args = params?.arguments;
    if (typeof args !== 'object' || args === null) continue;
    let fields = 0;
    for (const _ in args) if (++fields > MAX_ARGUMENT_FIELDS) break;
    if (fields > MAX_ARGUMENT_FIELDS)
      return `a tool call's arguments hold at most ${MAX_ARGUMENT_FIELDS} fields, this one ${Object.keys(args).length}`;
  }
  return undefined;
}
/** Messages in one batch, at most (as many as the upstream requests one HTTP request may cause). */
const MAX_BATCH = 100;

/**
 * A token bucket per caller; `take` spends `cost` (default 1) and answers 0 when the caller may go on, else
 * the seconds to wait; `spend` takes what is known only afterwards (a body without a length), into debt.
 */
function rateLimiter({ burst, perSecond }: { burst: number; perSecond: number }) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const bucketOf = (caller: string) => {
    const now = performance.now();
    const bucket = buckets.get(caller) ?? { tokens: burst, at: now };
    buckets.delete(caller);
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    buckets.set(caller, bucket);
    if (buckets.size > RATE_CALLERS) buckets.delete(buckets.keys().next().value as string);
    return bucket;
  };
  return {
    take(caller: string, cost = 1): number {
      const bucket = bucketOf(caller);
      if (bucket.tokens < cost) return Math.ceil((cost - bucket.tokens) / perSecond);
      bucket.tokens -= cost;
      return 0;
    },
    spend(caller: string, cost: number) {
      bucketOf(caller).tokens -= cost;
    },
  };
}

/** A JSON-RPC request's or notification's parts, as far as the transport reads them. */
interface Message {
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown; capabilities?: ClientCapabilities };
}
/**
 * What one request's answer may hold, as far as it is known before it runs: a read of the view page (the
 * largest resource, about 470 KB) 512 KiB, a tool call (its budgeted result) or another resource 64 KiB,
 * anything else 4 KiB. Held for the answer from admission, so that requests arriving together cannot all
 * be admitted before any of them holds anything.
 */
const estimate = (m: Message) => {
  if (!isRequest(m)) return 0;
  if (m.method === 'resources/read')
    return (m.params as { uri?: unknown } | undefined)?.uri === VIEW_URI ? 512 * 1024 : 64 * 1024;
  return m.method === 'tools/call' ? 64 * 1024 : 4 * 1024;
};
const isRequest = (m: Message) => typeof m?.method === 'string' && m.id !== undefined && m.id !== null;
const isCancellation = (m: Message) => m?.method === 'notifications/cancelled';

export async function serveHttp(options: HttpOptions, deps: HttpDeps) {
  if (!options.token && !isLoopback(options.host)) {
    throw new Error(
      `refusing to listen on ${options.host} without STREAMER_ANALYTICS_HTTP_TOKEN: anyone who can reach it could use the server. Set a token, or bind 127.0.0.1.`,
    );
  }
  const verifier = options.token ? tokenVerifier(options.token) : undefined;
  const sessions = createSessions(options.token);
  const trusted = trustedProxies(options.trustProxy ?? []);
  // Who each request comes from, for the factory (which gets the request itself).
  const callers = new WeakMap<Request, Caller>();
  // Both eras, one factory: a fresh server per HTTP request (stateless), the caller passed along.
  const handler = createMcpHandler(({ requestInfo }) =>
    deps.makeServer(
      (requestInfo && callers.get(requestInfo)) ?? {
        apiKey: requestInfo?.headers.get('x-api-key')?.trim() || undefined,
        id: '',
        share: '',
        address: '',
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
  // Bytes held, by address (what a caller cannot choose): request bodies (two bodies' worth each, 16 in
  // all), and answers not yet taken by their clients (a share each, the bound in all).
  const bodies = new Meter(2 * options.maxBodyBytes, 16 * options.maxBodyBytes);
  // Bodies arriving, by address (a count, in the meter bytes are held in); and how long one may go
  // without a byte arriving.
  const arriving = new Meter(BODIES_ARRIVING, Number.POSITIVE_INFINITY);
  const bodyIdleMs = options.bodyIdleMs ?? 10_000;
  const answers = new Meter(
    options.maxUnsentPerCaller ?? HTTP_DEFAULTS.maxUnsentPerCaller,
    options.maxUnsentBytes,
  );
  const sendTimeoutMs = options.sendTimeoutMs ?? HTTP_DEFAULTS.sendTimeoutMs;
  let closing = false;
  // 2025 calls not yet answered (waiting at the door or running), by verified session id and JSON-RPC id:
  // what a notifications/cancelled finds.
  const calls = new Map<string, Set<() => void>>();
  const notifications = rateLimiter(NOTIFICATION_RATE);
  const initializes = rateLimiter(INITIALIZE_RATE);
  const newKeys = rateLimiter(KEY_RATE);
  const bodyRate = rateLimiter({
    burst: BODY_RATE.burst * options.maxBodyBytes,
    perSecond: BODY_RATE.perSecond * options.maxBodyBytes,
  });
  // Keys each caller brought lately (anchor and key digest, never the key), most recent last.
  const knownKeys = new Set<string>();
  // Requests in flight by caller: past half full, each may hold a quarter of the places at most.
  const perCaller = new Map<string, number>();
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
      // The operator's view of the door (and the tests' event: every place is taken).
      if (door.active >= options.maxConcurrent)
        deps.logger.debug('Request waits for a place', { inFlight: door.active, waiting: door.waiting + 1 });
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
  /** A refusal before the body is read: the connection is closed after it, so the body is never read. */
  const refuse = (res: ServerResponse, status: number, message: string, retryS: number) => {
    res.shouldKeepAlive = false;
    jsonRpcError(res, status, -32000, message, { 'retry-after': String(retryS), connection: 'close' });
  };
  /** A body past its caller's share of body bytes (429) or the server's (503): refused, the rest unread. */
  const refuseBody = (res: ServerResponse, over: 'caller' | 'server') =>
    over === 'caller'
      ? refuse(res, 429, 'Too many request bodies of this caller being handled: retry after 1 s', 1)
      : refuse(res, 503, 'Server busy: too many request bodies being handled', 1);
  /** Ends the one call of this session with this JSON-RPC id, wherever it is; an id two share ends neither. */
  const cancelCall = (session: string | undefined, requestId: unknown) => {
    const matching = session && calls.get(`${session} ${JSON.stringify(requestId)}`);
    if (matching && matching.size === 1) for (const end of matching) end();
  };
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
        return writeSmall(res, bearerAuthChallengeResponse(error));
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

    // Who asks, from what arrives before the body: its anchor is its verified session (an id nobody can
    // forge, and an address starts only so many), else its address; its key is a share inside it.
    const address = clientAddress(req, trusted);
    const sessionHeader = headerOf(req, 'mcp-session-id');
    const claims = sessionHeader === undefined ? undefined : sessions.verify(sessionHeader);
    const anchor = claims ? `session ${sessionHeader}` : `address ${address}`;
    const apiKey = headerOf(req, 'x-api-key')?.trim() || undefined;
    const keyId = deps.callerKeys && apiKey ? digest(apiKey).toString('base64') : '';
    const share = digest(`${anchor}\u0000${keyId}`).toString('base64url').slice(0, 22);
    // A new key costs its caller as a new session does: a stream of made-up keys is a trickle.
    if (keyId) {
      const known = `${anchor} ${keyId}`;
      if (!knownKeys.delete(known)) {
        const wait = newKeys.take(anchor);
        if (wait > 0)
          return refuse(res, 429, `Too many new API keys from this caller: retry after ${wait} s`, wait);
      }
      knownKeys.add(known);
      if (knownKeys.size > RATE_CALLERS) knownKeys.delete(knownKeys.values().next().value as string);
    }
    // The body is read only within its address's share of body bytes, and the server's, counted as they
    // arrive (a slow or stalled body holds what it sent, never what it promised); else refused unread.
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (declared > options.maxBodyBytes) {
      res.shouldKeepAlive = false;
      return jsonRpcError(res, 413, -32600, `Request body larger than ${options.maxBodyBytes} bytes`, {
        connection: 'close',
      });
    }
    const length = Number.isInteger(declared) && declared >= 0 ? declared : undefined;
    if (arriving.refuses(address, 1))
      return refuse(res, 429, 'Too many request bodies of this caller arriving: retry after 1 s', 1);
    const bodyOver = bodies.refuses(address, Math.min(length ?? BODY_START, BODY_START));
    if (bodyOver) return refuseBody(res, bodyOver);
    // Clients that do not read their answers hold memory; past their share (or the bound), no new work.
    const answersOver = answers.refuses(address);
    if (answersOver === 'caller')
      return refuse(res, 429, 'Answers not yet read by this caller: read them, then retry after 1 s', 1);
    if (answersOver === 'server')
      return refuse(res, 503, 'Server busy: answers not yet read by their clients', 1);
    // Its rate of body bytes: what it declares is spent before any is read (a body without a length, as
    // it arrives, into debt).
    const wait = bodyRate.take(address, length ?? 0);
    if (wait > 0)
      return refuse(res, 429, `Too many request bytes from this caller: retry after ${wait} s`, wait);
    let held = 0;
    res.once('close', () => bodies.add(address, -held));

    // Aborted when the connection goes, time runs out or every request is answered: the work in flight is
    // cancelled, and so are its upstream requests.
    const gone = new AbortController();
    // Past the time limit: a 504 if nothing was sent yet; an event stream already under way is cut.
    const timer = setTimeout(() => {
      gone.abort();
      if (res.headersSent) res.destroy();
      else jsonRpcError(res, 504, -32000, `Request took longer than ${options.requestTimeoutMs} ms`);
    }, options.requestTimeoutMs);
    let log = deps.logger;
    // Ends the request's hold on its place at the door (once it has one): when its answer is written in
    // full (unread bytes are the answers meter's), or the connection goes.
    let leave = () => {};
    let left = false;
    const free = () => {
      if (left) return;
      left = true;
      leave();
    };
    res.once('close', () => {
      clearTimeout(timer);
      free();
      if (!res.writableFinished) gone.abort();
    });
    res.once('finish', () => clearTimeout(timer));
    try {
      arriving.add(address, 1);
      const text = await readBody(req, options.maxBodyBytes, bodyIdleMs, (bytes) => {
        const over = bodies.refuses(address, bytes);
        if (over) return over;
        bodies.add(address, bytes);
        held += bytes;
        if (length === undefined) bodyRate.spend(address, bytes);
        return undefined;
      }).finally(() => arriving.add(address, -1));
      if (text === 'gone') return;
      if (text === 'too large') {
        res.shouldKeepAlive = false;
        return jsonRpcError(res, 413, -32600, `Request body larger than ${options.maxBodyBytes} bytes`, {
          connection: 'close',
        });
      }
      if (text === 'caller' || text === 'server') return refuseBody(res, text);
      if (text === 'idle') {
        res.shouldKeepAlive = false;
        return jsonRpcError(res, 408, -32600, `Request body stalled: nothing arrived for ${bodyIdleMs} ms`, {
          connection: 'close',
        });
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      // Each message of a batch costs the SDK's checks and an answer: a batch holds 100 at most.
      if (Array.isArray(body) && body.length > MAX_BATCH) {
        return jsonRpcError(
          res,
          400,
          -32600,
          `Invalid Request: a batch holds at most ${MAX_BATCH} messages, this one ${body.length}`,
        );
      }
      // A tool takes a few parameters (16 at most) under a short name: arguments of thousands of fields, or
      // a name of thousands of characters, are refused here with a short answer, before the SDK checks each
      // field (80,000 of them cost the main thread 150 ms and more) or echoes the name.
      const misfit = misfitCall(body);
      if (misfit) return jsonRpcError(res, 400, -32602, `Invalid params: ${misfit}`);
      keepProtoArguments(body);
      const batch = Array.isArray(body);
      const all = (batch ? body : [body]) as Message[];
      const single = batch ? undefined : all[0];
      const initialize = single?.method === 'initialize';
      // A 2025 client's session (never a 2026 one's: that revision has no sessions). An id that fails
      // verification gets 404, as the spec says of a session the server no longer knows: the client then
      // starts a new session with initialize, which is right after a key change or a forged id alike.
      const webReq = webRequest(req, gone.signal);
      let session: string | undefined;
      let capabilities: ClientCapabilities | undefined;
      if (!initialize && sessionHeader !== undefined && (await isLegacyRequest(webReq, body))) {
        if (!claims) {
          return jsonRpcError(
            res,
            404,
            -32001,
            'Session not found: this Mcp-Session-Id was not issued by this server (or its key changed); send initialize again',
          );
        }
        session = sessionHeader;
        if (claims.apps) capabilities = capabilitiesOf(claims);
      }
      // Requests owed an answer, by id. Cancellations are handled here, never by the SDK: one for a
      // request of the same body answers it -32800 in its place (it never runs); one for another call of
      // the same verified session ends that call, wherever it is.
      const owed = new Map<string, unknown>();
      for (const m of all) if (isRequest(m)) owed.set(JSON.stringify(m.id), m.id);
      const callsOnly = owed.size > 0;
      // What the answer may hold is held from now, within the caller's share and the server's bound.
      const reserve = all.reduce((sum, m) => sum + estimate(m), 0);
      const over = answers.refuses(address, reserve);
      if (over === 'caller') {
        const message =
          reserve > answers.perCaller
            ? `These requests may answer more than one caller may hold unread (${answers.perCaller} bytes): send fewer at once`
            : 'Answers not yet read by this caller: read them, then retry after 1 s';
        return jsonRpcError(res, 429, -32000, message, { 'retry-after': '1' });
      }
      if (over === 'server')
        return jsonRpcError(res, 503, -32000, 'Server busy: answers not yet read by their clients', {
          'retry-after': '1',
        });
      const answer = new Answer(res, {
        reserve,
        owed,
        batch,
        meter: answers,
        caller: address,
        maxBytes: options.maxAnswerBytes,
        sendTimeoutMs,
        produced: free,
        abandon: () => gone.abort(),
      });
      const cancellations = all.filter(isCancellation);
      if (cancellations.length) {
        if (!callsOnly) {
          // A body of notifications only passes the limits on calls (a cancellation must reach a server
          // that is full), but each caller may send only a few a second.
          const wait = notifications.take(anchor);
          if (wait > 0) {
            return jsonRpcError(res, 429, -32000, `Too many notifications: retry after ${wait} s`, {
              'retry-after': String(wait),
            });
          }
        }
        for (const c of cancellations) {
          const key = JSON.stringify(c.params?.requestId);
          if (!answer.cancel(key)) cancelCall(session, c.params?.requestId);
        }
      }
      // Every request cancelled in its own body: answered already.
      if (callsOnly && owed.size === 0) return;
      const rest = all.filter(
        (m) => !isCancellation(m) && !(isRequest(m) && !owed.has(JSON.stringify(m.id))),
      );
      if (!rest.length) return answer.answerOwn();
      const notification = owed.size === 0;
      if (notification && !cancellations.length) {
        const wait = notifications.take(anchor);
        if (wait > 0) {
          return jsonRpcError(res, 429, -32000, `Too many notifications: retry after ${wait} s`, {
            'retry-after': String(wait),
          });
        }
      }
      // Each request of a session can be cancelled from the moment it is known, waiting or running.
      const members = new Map<string, AbortController>();
      if (session) {
        for (const key of owed.keys()) {
          const id = `${session} ${key}`;
          const member = new AbortController();
          members.set(key, member);
          const end = () => {
            if (answer.cancel(key)) member.abort();
          };
          calls.set(id, (calls.get(id) ?? new Set()).add(end));
          res.once('close', () => {
            const set = calls.get(id);
            set?.delete(end);
            if (!set?.size) calls.delete(id);
          });
        }
      }
      if (!notification) {
        // Once the server is half full, no caller takes more than its share (a quarter of the places), so
        // that the others still get in; below that, anyone may use the room there is.
        const mine = perCaller.get(anchor) ?? 0;
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
          const wait = initializes.take(`address ${address}`);
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
        perCaller.set(anchor, mine + 1);
        res.once('close', () => {
          const n = (perCaller.get(anchor) ?? 1) - 1;
          if (n > 0) perCaller.set(anchor, n);
          else perCaller.delete(anchor);
        });
        const entered = await enter(anchor, gone.signal);
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
        if (left) leave();
      }
      const ended: Array<() => void> = [];
      res.once('close', () => {
        for (const end of ended) end();
      });
      const caller: Caller = {
        apiKey,
        id: anchor,
        share,
        address,
        onEnd: (end) => ended.push(end),
        ...(members.size ? { cancelled: (id: unknown) => members.get(JSON.stringify(id))?.signal } : {}),
        ...(capabilities ? { capabilities } : {}),
      };
      callers.set(webReq, caller);
      // A caller may bring its own upstream key; it is never logged, and kept only as its client's header.
      // A key the server ignores (it has its own) is no secret: redacting it would let a caller rewrite lines.
      if (deps.callerKeys) log = deps.logger.redacting(caller.apiKey);
      const response = await handler.fetch(webReq, { parsedBody: batch ? rest : rest[0] });
      // Past the time limit or with the client gone, the answer was given already (or is owed to no one).
      if (gone.signal.aborted || res.headersSent) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      // A 2025 session starts here: its id carries what the client declared that later requests need.
      const started =
        initialize && response.ok
          ? { 'mcp-session-id': sessions.issue({ apps: appsDeclared(single?.params?.capabilities) }) }
          : {};
      await answer.write(response, started);
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
