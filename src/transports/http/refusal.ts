// A request the server does not handle is answered here, and only here: each guard of admission says why
// in a Refusal.
import type { ServerResponse } from 'node:http';
import type { TokenBuckets } from '../../limits/buckets.js';

export interface Refusal {
  status: number;
  /** The JSON-RPC error's code: -32000, the server's own, unless given. */
  code?: number;
  message?: string;
  retryAfter?: number;
  /** The connection is closed after the answer: the body was not read, or not to its end. */
  close?: boolean;
  headers?: Record<string, string>;
  data?: Record<string, unknown>;
  /** A JSON body other than a JSON-RPC error (a bad target, the bearer challenge, a probe's answer). */
  body?: unknown;
}

export type Guard<C> = (context: C) => Refusal | undefined | Promise<Refusal | undefined>;

export const refused = (status: number, message: string, more: Omit<Refusal, 'status' | 'message'> = {}) => ({
  status,
  message,
  ...more,
});

export const retry = (status: number, message: string, retryAfter = 1, close = false): Refusal =>
  refused(status, message, { retryAfter, close });

export function throttle(buckets: TokenBuckets, key: string, what: string, cost = 1, close = false) {
  const wait = buckets.take(key, cost);
  return wait > 0 ? retry(429, `Too many ${what}: retry after ${wait} s`, wait, close) : undefined;
}

/** What a meter's refusal says past the caller's share (429), and past the server's bound (503). */
export const METERED = {
  bodies: [
    'Too many request bodies of this caller being handled: retry after 1 s',
    'Server busy: too many request bodies being handled',
  ],
  answers: [
    'Answers not yet read by this caller: read them, then retry after 1 s',
    'Server busy: answers not yet read by their clients',
  ],
} as const;

export const overMeter = (
  over: 'caller' | 'server' | undefined,
  [caller, server]: readonly [string, string],
  close = false,
): Refusal | undefined =>
  over && retry(over === 'caller' ? 429 : 503, over === 'caller' ? caller : server, 1, close);

export async function firstRefusal<C>(guards: readonly Guard<C>[], context: C): Promise<Refusal | undefined> {
  for (const guard of guards) {
    const verdict = guard(context);
    // A synchronous verdict is not awaited: most guards are, and each await is a turn of the queue.
    const refusal = verdict instanceof Promise ? await verdict : verdict;
    if (refusal) return refusal;
  }
  return undefined;
}

/** A fault (by default 500), or the connection closed if the answer has begun. */
export function writeFault(
  res: ServerResponse,
  r: Refusal = refused(500, 'Internal error', { code: -32603 }),
) {
  if (res.headersSent) res.destroy();
  else writeRefusal(res, r);
}

export function writeRefusal(res: ServerResponse, r: Refusal): void {
  if (res.headersSent) return;
  if (r.close) res.shouldKeepAlive = false;
  const error = { code: r.code ?? -32000, message: r.message, ...(r.data ? { data: r.data } : {}) };
  const body = r.body !== undefined ? r.body : { jsonrpc: '2.0', error, id: null };
  res.writeHead(r.status, {
    'content-type': 'application/json',
    ...(r.retryAfter === undefined ? {} : { 'retry-after': String(r.retryAfter) }),
    ...(r.close ? { connection: 'close' } : {}),
    ...r.headers,
  });
  res.end(JSON.stringify(body));
}
