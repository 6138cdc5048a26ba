// Who asks, from what arrives before the body: the gate (host, origin, bearer token, method) and the
// caller's identity: its verified session, else its address read from trusted proxies; its key a share inside.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, isIPv4 } from 'node:net';
import {
  bearerAuthChallengeResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  validateHostHeader,
  validateOriginHeader,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { TokenBuckets } from '../../limits/buckets.js';
import { Lru } from '../../limits/lru.js';
import type { HttpOptions } from './options.js';
import { firstRefusal, type Guard, refused, retry, throttle } from './refusal.js';
import type { SessionClaims, Sessions } from './session.js';

/** A literal loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x); a name is not one, whatever it reads. */
export const isLoopbackAddress = (address: string) => {
  const v4 = address.replace(/^::ffff:/i, '');
  return (isIPv4(v4) && v4.startsWith('127.')) || address === '::1' || address === '0:0:0:0:0:0:0:1';
};
/** Loopback as --host gives it: a literal loopback address, or `localhost` (checked again once bound). */
export const isLoopback = (host: string) => host === 'localhost' || isLoopbackAddress(host);

const digest = (value: string) => createHash('sha256').update(value).digest();

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

/** The host name of an origin or URL (`https://app.example:8443` → `app.example`); the value itself if none. */
const hostnameOf = (value: string) => (URL.canParse(value) ? new URL(value).hostname : value).toLowerCase();

/** A header's single value (a repeated header counts as absent). */
const headerOf = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

function trustedProxies(entries: readonly string[]): BlockList | undefined {
  if (!entries.length) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    // Entries are checked by the configuration (isProxy).
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
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

/** The caller's address: the socket's; behind trusted proxies, the nearest untrusted X-Forwarded-For hop from the right. */
function clientAddress(req: IncomingMessage, trusted: BlockList | undefined): string {
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

export interface Who {
  address: string;
  /** The Mcp-Session-Id sent, verified or not; its claims when verified. */
  sessionHeader: string | undefined;
  claims: SessionClaims | undefined;
  /** Its verified session, else its address: for fair shares of places and of the upstream. */
  id: string;
  apiKey: string | undefined;
  /** The key's digest where callers' keys are used, else ''. */
  keyId: string;
  /** Its id and key digest together: what a tool keeps per caller. */
  share: string;
}

export function createIdentity(
  options: HttpOptions,
  sessions: Sessions,
  callerKeys: boolean,
  closing: () => boolean,
) {
  const verifier = options.token ? tokenVerifier(options.token) : undefined;
  const trusted = trustedProxies(options.trustProxy ?? []);
  // None (bound beyond loopback, none given) accepts any.
  const hosts = options.allowedHosts.length
    ? options.allowedHosts.map((h) => hostnameOf(`http://${h}`))
    : isLoopback(options.host)
      ? localhostAllowedHostnames()
      : [];
  const origins = options.allowedOrigins.length
    ? options.allowedOrigins.map(hostnameOf)
    : localhostAllowedOrigins();
  // New x-api-key values a caller may bring: as many as sessions.
  const newKeys = new TokenBuckets(60, 1);
  // Ids with key digests (never keys), the least recent forgotten.
  const knownKeys = new Lru<string, true>(10_000);

  const gate: Guard<IncomingMessage>[] = [
    // DNS rebinding: a page must not reach a local server through a name it controls (any port).
    (req) => {
      const host = validateHostHeader(req.headers.host, hosts);
      return hosts.length && !host.ok ? refused(403, host.message) : undefined;
    },
    (req) => {
      const origin = validateOriginHeader(req.headers.origin, origins);
      return origin.ok ? undefined : refused(403, origin.message);
    },
    async (req) => {
      if (!verifier) return undefined;
      try {
        await verifyBearerToken(req.headers.authorization, { verifier });
        return undefined;
      } catch (error) {
        const challenge = bearerAuthChallengeResponse(error);
        const body: unknown = await challenge.json();
        return { status: challenge.status, headers: Object.fromEntries(challenge.headers), body };
      }
    },
    (req) =>
      req.method === 'POST'
        ? undefined
        : refused(405, 'Method not allowed: this server is stateless; POST JSON-RPC to /mcp', {
            headers: { allow: 'POST' },
          }),
    () => (closing() ? retry(503, 'Server shutting down') : undefined),
  ];

  /** A new key costs its caller as a new session does: a stream of made-up keys is a trickle. */
  const newKey: Guard<Who> = ({ id, keyId }) => {
    if (!keyId) return undefined;
    const known = `${id} ${keyId}`;
    const refusal = knownKeys.delete(known)
      ? undefined
      : throttle(newKeys, id, 'new API keys from this caller', 1, true);
    if (!refusal) knownKeys.set(known, true);
    return refusal;
  };

  return {
    check: (req: IncomingMessage) => firstRefusal(gate, req),
    newKey,
    identify(req: IncomingMessage): Who {
      const address = clientAddress(req, trusted);
      const sessionHeader = headerOf(req, 'mcp-session-id');
      const claims = sessionHeader === undefined ? undefined : sessions.verify(sessionHeader);
      const id = claims ? `session ${sessionHeader}` : `address ${address}`;
      const apiKey = headerOf(req, 'x-api-key')?.trim() || undefined;
      const keyId = callerKeys && apiKey ? digest(apiKey).toString('base64') : '';
      const share = digest(`${id}\u0000${keyId}`).toString('base64url').slice(0, 22);
      return { address, sessionHeader, claims, id, apiKey, keyId, share };
    },
  };
}
