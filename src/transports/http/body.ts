// The body of a request: admitted within its address's share of body bytes and the server's, at a rate per
// address; read no further than its bound; parsed and checked before the SDK.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { TokenBuckets } from '../../limits/buckets.js';
import { Meter } from '../../limits/meter.js';
import type { Who } from './identity.js';
import type { HttpOptions } from './options.js';
import { type Guard, METERED, overMeter, type Refusal, refused, retry, throttle } from './refusal.js';

/** What a body must have room for at admission (what it declares, up to this): the rest as it arrives. */
const BODY_START = 64 * 1024;
/** Bodies an address may have arriving at once (legitimate ones arrive in milliseconds). */
const BODIES_ARRIVING = 8;
/** Body bytes an address may send, in bodies of the largest size: parsing is main-thread time all share. */
const BODY_RATE = { burst: 4, perSecond: 1 };
/** No tool comes near either. */
const MAX_ARGUMENT_FIELDS = 64;
const MAX_TOOL_NAME = 128;
/** As many as the upstream requests one HTTP request may cause. */
const MAX_BATCH = 100;
/** An invalid request whose body is not read to its end: the connection is closed. */
const UNREAD = { code: -32600, close: true };

export interface Message {
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown; capabilities?: ClientCapabilities; uri?: unknown };
}
export const isRequest = (m: Message) => typeof m?.method === 'string' && m.id !== undefined && m.id !== null;
export const isCancellation = (m: Message) => m?.method === 'notifications/cancelled';

export type Arrival = ReturnType<typeof arrival>;

/** Content-Length as sent (NaN when absent); `length`, when it is a byte count. */
export function arrival(req: IncomingMessage, who: Who) {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  return { who, declared, length: Number.isInteger(declared) && declared >= 0 ? declared : undefined };
}

type Unread = 'too large' | 'gone' | 'idle' | 'caller' | 'server';

/** A body's text, read no further than `max` bytes, each chunk passed to `take` as it arrives; or why not. */
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
    const stop = (why: Unread) => {
      req.pause();
      done(why);
    };
    const wait = () => {
      clearTimeout(idle);
      idle = setTimeout(() => stop('idle'), idleMs);
    };
    wait();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      const over = size > max ? 'too large' : take(chunk.length);
      if (over) return stop(over);
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

/** Why a tool call of the body is one no tool takes (too many argument fields, too long a name), if it is. */
function misfitCall(all: Message[]): string | undefined {
  for (const m of all) {
    if (m?.method !== 'tools/call') continue;
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

/** Bodies held: bytes by address (two bodies' worth each, 16 in all), bodies arriving, bytes sent over time. */
export function createBodies(options: HttpOptions, answers: Meter) {
  const { bodyIdleMs: idleMs, maxBodyBytes: max } = options;
  const bytes = new Meter(2 * max, 16 * max);
  const arriving = new Meter(BODIES_ARRIVING);
  const rate = new TokenBuckets(BODY_RATE.burst * max, BODY_RATE.perSecond * max);
  const tooLarge = refused(413, `Request body larger than ${max} bytes`, UNREAD);
  const over = (who: 'caller' | 'server' | undefined) => overMeter(who, METERED.bodies, true);

  /** Before a byte is read; each refusal closes the connection, so the body is never read. */
  const admission: Guard<Arrival>[] = [
    ({ declared }) => (declared > max ? tooLarge : undefined),
    ({ who }) =>
      arriving.refuses(who.address, 1)
        ? retry(429, 'Too many request bodies of this caller arriving: retry after 1 s', 1, true)
        : undefined,
    ({ who, length }) => over(bytes.refuses(who.address, Math.min(length ?? BODY_START, BODY_START))),
    // Clients that do not read their answers hold memory; past their share (or the bound), no new work.
    ({ who }) => overMeter(answers.refuses(who.address), METERED.answers, true),
    // What a body declares is spent before any is read; a body without a length, as it arrives.
    ({ who, length }) => throttle(rate, who.address, 'request bytes from this caller', length ?? 0, true),
  ];

  async function read(req: IncomingMessage, res: ServerResponse, { who, length }: Arrival) {
    const { address } = who;
    let held = 0;
    res.once('close', () => bytes.add(address, -held));
    arriving.add(address, 1);
    const text = await readBody(req, max, idleMs, (n) => {
      const refusal = bytes.refuses(address, n);
      if (refusal) return refusal;
      bytes.add(address, n);
      held += n;
      if (length === undefined) rate.spend(address, n);
      return undefined;
    }).finally(() => arriving.add(address, -1));
    if (text === 'gone') return text;
    if (text === 'too large') return tooLarge;
    if (text === 'caller' || text === 'server') return over(text) as Refusal;
    if (text === 'idle')
      return refused(408, `Request body stalled: nothing arrived for ${idleMs} ms`, UNREAD);
    return parse(text);
  }

  return { admission, read };
}

function parse(text: string): { body: unknown; batch: boolean; all: Message[] } | Refusal {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refused(400, 'Parse error: the body is not JSON', { code: -32700 });
  }
  const batch = Array.isArray(body);
  const all = (batch ? body : [body]) as Message[];
  if (batch && all.length > MAX_BATCH) {
    return refused(
      400,
      `Invalid Request: a batch holds at most ${MAX_BATCH} messages, this one ${all.length}`,
      { code: -32600 },
    );
  }
  // Refused before the SDK checks each of thousands of fields (main-thread time) or echoes a long name.
  const misfit = misfitCall(all);
  if (misfit) return refused(400, `Invalid params: ${misfit}`, { code: -32602 });
  return { body, batch, all };
}

export const isRefusal = (value: object): value is Refusal => 'status' in value;
