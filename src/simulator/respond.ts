// How the simulator writes an answer: a JSON body, or a fault a test switches on.
import type { ServerResponse } from 'node:http';
import type { Dialect } from './dialect.js';

export type Fault =
  /** Answer with this status (and body, headers) instead of the real answer. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { hang: true }
  /** Destroy the connection before any byte, or in the middle of the body. */
  | { drop: 'before' | 'during' }
  /** Send this text as the body (bad JSON, an HTML page). */
  | { raw: string; status?: number; contentType?: string }
  | { delayMs: number }
  /** A valid JSON body of about this many bytes, written as the client reads (`chunked`: no Content-Length). */
  | { bodyBytes: number; chunked?: boolean }
  /** Send the real answer's body in three pieces, `trickleMs` apart. */
  | { trickleMs: number };

/** Carries out a fault; returns false when the request should go on to a normal answer. */
export function applyFault(fault: Fault, res: ServerResponse, dialect: Dialect): boolean {
  if ('hang' in fault) return true;
  if ('drop' in fault) {
    if (fault.drop === 'before') res.socket?.destroy();
    else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"success":true,"data":[');
      setTimeout(() => res.socket?.destroy(), 10);
    }
  } else if ('raw' in fault) {
    res.writeHead(fault.status ?? 200, { 'content-type': fault.contentType ?? 'application/json' });
    res.end(fault.raw);
  } else if ('bodyBytes' in fault) sendLarge(res, fault.bodyBytes, fault.chunked ?? false);
  else if ('status' in fault) {
    const body = fault.body ?? dialect.errorBody(fault.status, `Simulated HTTP ${fault.status}`);
    send(res, fault.status, body, fault.headers);
  } else return false;
  return true;
}

export function send(res: ServerResponse, status: number, body: unknown, more: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  const length = Buffer.byteLength(text);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': length, ...more });
  res.end(text);
}

/** `{"success":true,"data":{"padding":"xxx…"}}` of `bytes` bytes, 64 KiB at a time, as fast as it is read. */
function sendLarge(res: ServerResponse, bytes: number, chunked: boolean) {
  const head = '{"success":true,"data":{"padding":"';
  const tail = '"}}';
  const total = Math.max(bytes, head.length + tail.length);
  res.writeHead(200, { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': total }) });
  res.write(head);
  let left = total - head.length - tail.length;
  const piece = 'x'.repeat(64 * 1024);
  const more = () => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(left, piece.length);
      left -= n;
      if (!res.write(n === piece.length ? piece : piece.slice(0, n))) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end(tail);
  };
  more();
}

export function sendSlowly(res: ServerResponse, body: unknown, intervalMs: number) {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  const pieces = [0, 1, 2].map((i) => text.slice((i * text.length) / 3, ((i + 1) * text.length) / 3));
  const next = () => {
    const piece = pieces.shift();
    if (piece === undefined || res.destroyed) return;
    if (pieces.length === 0) return void res.end(piece);
    res.write(piece);
    setTimeout(next, intervalMs);
  };
  next();
}
