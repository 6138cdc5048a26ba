// The writing of an HTTP request's answer: its bytes counted per caller and in total until taken, cut past
// its cap, a client that stops reading disconnected, a batch ended when each request is answered or cancelled.
import type { ServerResponse } from 'node:http';
import type { Meter } from '../../limits/meter.js';

// -32800: a call ended by the caller's cancellation (the LSP convention; MCP names none).
const cancelledAnswer = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32800, message: 'Request cancelled by notifications/cancelled' },
});
const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const bytes = (message: unknown) => Buffer.from(JSON.stringify(message));
const serverError = (message: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });

export interface AnswerOptions {
  /** The requests still owed an answer: JSON-RPC id as JSON text → id. */
  owed: Map<string, unknown>;
  batch: boolean;
  meter: Meter;
  caller: string;
  maxBytes: number;
  sendTimeoutMs: number;
  /** Bytes held from the start (what its requests may answer at most) until it is written in full. */
  reserve: number;
  /** The answer is written in full (not yet read): the request's place is free. */
  produced: () => void;
  /** Every request is answered before the handler's answer came: its work is abandoned. */
  abandon: () => void;
}

/** The answer to one HTTP request; a cancelled request is answered -32800 here, and the handler's answer dropped. */
export class Answer {
  readonly #o: AnswerOptions;
  readonly #res: ServerResponse;
  readonly #ours = new Set<string>();
  #early: unknown[] = [];
  #stream = false;
  #done = false;
  #counted = 0;
  #buffered = 0;
  #sent = 0;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #watch: NodeJS.Timeout | undefined;
  #last = 0;
  #reserve: number;

  constructor(res: ServerResponse, options: AnswerOptions) {
    this.#res = res;
    this.#o = options;
    this.#reserve = options.reserve;
    this.#account();
    res.on('drain', () => this.#account());
    const settle = () => {
      clearInterval(this.#watch);
      this.#o.meter.add(this.#o.caller, -this.#counted);
      this.#counted = 0;
      this.#buffered = 0;
      this.#end();
    };
    res.once('finish', settle);
    res.once('close', settle);
  }

  /** Answers the request with this id -32800 in its place; false if it is not owed here. */
  cancel(key: string): boolean {
    if (this.#done || !this.#o.owed.has(key)) return false;
    const id = this.#o.owed.get(key);
    this.#o.owed.delete(key);
    this.#ours.add(key);
    if (this.#stream) this.#write(event(cancelledAnswer(id)));
    else this.#early.push(cancelledAnswer(id));
    if (this.#o.owed.size === 0) this.#complete();
    return true;
  }

  /** Answers of ours only (every request of the body cancelled in it): 200 with them, else 202. */
  answerOwn(): void {
    if (this.#early.length) this.#json(200, {}, bytes(this.#o.batch ? this.#early : this.#early[0]));
    else {
      this.#res.writeHead(202).end();
      this.#end();
    }
  }

  /** Writes the handler's answer: a JSON body at once (merged with ours), an event stream as it comes. */
  async write(response: Response, extra: Record<string, string>): Promise<void> {
    if (this.#done) {
      await response.body?.cancel().catch(() => {});
      return;
    }
    const headers = { ...Object.fromEntries(response.headers), ...extra };
    if (!response.body || !headers['content-type']?.startsWith('text/event-stream')) {
      const body = response.body ? await this.#readJson(response.body) : undefined;
      if (this.#done) return;
      if (typeof body === 'string') return this.#json(200, {}, bytes(serverError(body)));
      if (!this.#early.length || !body?.length) {
        if (!body?.length && this.#early.length) return this.answerOwn();
        return this.#json(response.status, headers, body);
      }
      // Ours joined to the handler's (which cannot hold a cancelled request's answer: it never ran).
      const theirs = JSON.parse(body.toString('utf8')) as unknown;
      const all = [...(Array.isArray(theirs) ? theirs : [theirs]), ...this.#early];
      return this.#json(200, {}, bytes(all));
    }
    this.#res.writeHead(response.status, headers);
    this.#res.flushHeaders();
    this.#stream = true;
    for (const answer of this.#early.splice(0)) this.#write(event(answer));
    if (this.#o.owed.size === 0) {
      await response.body.cancel().catch(() => {});
      return this.#complete();
    }
    const reader = response.body.getReader();
    this.#reader = reader;
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.#done) return;
        if (done) break;
        if (!this.#ours.size) {
          pending = '';
          if (!this.#write(Buffer.from(value))) return;
          continue;
        }
        pending += decoder.decode(value, { stream: true });
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const chunk = pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          if (this.#dropped(chunk)) continue;
          if (!this.#write(chunk)) return;
        }
      }
      if (pending && !this.#write(pending)) return;
      this.#complete();
    } catch {
      this.#res.destroy();
    }
  }

  /** An event answering a request that was answered here already. */
  #dropped(chunk: string): boolean {
    const data = /^data: (.*)$/m.exec(chunk)?.[1];
    if (!data) return false;
    try {
      const message = JSON.parse(data) as { id?: unknown; result?: unknown; error?: unknown };
      if (message.id === undefined || (message.result === undefined && message.error === undefined))
        return false;
      return this.#ours.has(JSON.stringify(message.id));
    } catch {
      return false;
    }
  }

  /** Writes stream bytes; past the answer's cap or its caller's share, ends it with an error instead. */
  #write(chunk: string | Buffer): boolean {
    const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    this.#sent += size;
    const message = this.#refusal(size, this.#sent);
    if (message) {
      this.#res.write(event(serverError(message)));
      this.#complete();
      return false;
    }
    this.#res.write(chunk);
    this.#account();
    return true;
  }

  /** Why `size` more bytes (`total` in all) are not held: past the answer's cap, or its caller's share. */
  #refusal(size: number, total: number): string | undefined {
    const { meter, maxBytes } = this.#o;
    const grows = Math.max(0, this.#res.writableLength + this.#buffered + size - this.#counted);
    const over = meter.refuses(this.#o.caller, grows);
    if (total > maxBytes)
      return `Answer larger than ${maxBytes} bytes: not sent. Ask for less at once (fewer calls in one batch, a smaller limit, or concise results).`;
    if (over === 'caller')
      return `Answers not yet read by this caller pass ${meter.perCaller} bytes: this one is not sent. Read your answers, then retry.`;
    return (
      over &&
      `Server busy: answers not yet read by their clients pass ${meter.max} bytes: not sent. Retry after 1 s.`
    );
  }

  /** A JSON answer's bytes, counted as they are read; or the message of the cap or share it passes. */
  async #readJson(body: ReadableStream<Uint8Array>): Promise<Buffer | string> {
    const chunks: Uint8Array[] = [];
    const reader = body.getReader();
    this.#reader = reader;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks);
      const message = this.#refusal(value.length, this.#buffered + value.length);
      this.#buffered += value.length;
      if (message) {
        await reader.cancel().catch(() => {});
        this.#buffered = 0;
        this.#account();
        return message;
      }
      this.#account();
      chunks.push(value);
    }
  }

  #json(status: number, headers: Record<string, string>, body: Buffer | undefined): void {
    this.#buffered = 0;
    this.#res.writeHead(status, {
      ...headers,
      ...(headers['content-type'] ? {} : { 'content-type': 'application/json' }),
      ...(body ? { 'content-length': String(body.length) } : {}),
    });
    this.#res.end(body);
    this.#account();
    this.#end();
  }

  /** Every request answered: the stream (or our own JSON) ends, and the handler's work is let go. */
  #complete(): void {
    if (this.#done) return;
    if (this.#stream) {
      this.#res.end();
      this.#account();
      this.#end();
    } else this.answerOwn();
    this.#o.abandon();
  }

  /** The answer is written in full: the place is free, the handler's stream let go. */
  #end(): void {
    if (this.#done) return;
    this.#done = true;
    this.#reserve = 0;
    this.#account();
    this.#reader?.cancel().catch(() => {});
    this.#o.produced();
  }

  /** Counts what the client has not taken yet; one that takes nothing for `sendTimeoutMs` is disconnected. */
  #account(): void {
    const now = this.#res.destroyed ? 0 : Math.max(this.#reserve, this.#res.writableLength + this.#buffered);
    this.#o.meter.add(this.#o.caller, now - this.#counted);
    this.#counted = now;
    if (this.#res.writableLength > 0 && !this.#watch && !this.#res.destroyed) {
      this.#last = Number.POSITIVE_INFINITY;
      this.#watch = setInterval(() => {
        const left = this.#res.writableLength;
        if (left > 0 && left >= this.#last) return void this.#res.destroy();
        this.#last = left > 0 ? left : Number.POSITIVE_INFINITY;
        this.#account();
      }, this.#o.sendTimeoutMs);
      this.#watch.unref();
    }
  }
}
