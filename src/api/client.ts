import type { Agent, Dispatcher } from 'undici';
import { type Callers, Limiter } from '../limits/places.js';
import { type Switch, sleep } from '../limits/switch.js';
import type { Logger } from '../log.js';
import { messageOf as readMessage } from '../untrusted/reader.js';
import { VERSION } from '../version.js';
import { cleanContentType, describeBody, parseBody, type Shape, scrubber, shapeProblem } from './body.js';
import { Breaker, type BreakerOptions, CONFIGURATION_CODES, DEFAULT_BREAKER } from './breaker.js';
import { Deadlines } from './deadlines.js';
import {
  ApiError,
  ApiReportedError,
  BusyError,
  CancelledError,
  ConnectionError,
  errorFromStatus,
  InvalidResponseError,
  TimeoutError,
} from './errors.js';
import { DEFAULT_RETRY, parseRetryAfter, type RetryPolicy, retryDelay } from './retry.js';
import { SharedCall } from './shared-call.js';

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** Path below the base URL, starting with `/`; dynamic segments already percent-encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** The documented shape of the answer; an answer that departs from it is an invalid response. */
  shape?: Shape;
}

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
  attempts: number;
}

/** ApiClient, or a stand-in that loads it on first use. */
export interface Upstream {
  /** `caller`: the upstream's capacity is shared among callers in turn. */
  request(req: ApiRequest, signal?: AbortSignal, caller?: string): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  maxConcurrency?: number;
  logger: Logger;
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  breaker?: Partial<BreakerOptions>;
  maxResponseBytes?: number;
  agent?: Agent;
}

const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Upstream requests one caller may have waiting (three investigations of 500 ids); beyond, `busy` at once. */
const MAX_WAITING_PER_CALLER = 64;

// undici, the largest single cost of starting, loads on the first request: a desktop client spawns the
// server at every start, often to list tools only. Bundled, its exports arrive under `default`.
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () =>
  (undici ??= import('undici').then((mod) =>
    'Agent' in mod ? mod : (mod as { default: typeof mod }).default,
  ));

/** An API path with its query, as a string (form-encoded as URLSearchParams does; unset values left out). */
export function pathWithQuery(path: string, query?: ApiRequest['query']): string {
  let search = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    search += `${search ? '&' : '?'}${formEncode(key)}=${formEncode(String(value))}`;
  }
  return path + search;
}

const formEncode = (s: string) =>
  /^[\w.*-]*$/.test(s)
    ? s
    : encodeURIComponent(s)
        .replace(/%20/g, '+')
        .replace(/[!'()~]/g, escapeChar);
const escapeChar = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

/** Joins the base URL (path prefix kept, trailing slash or not) with an API path and query. */
export function buildUrl(baseUrl: string, path: string, query?: ApiRequest['query']): string {
  return new URL(baseUrl.replace(/\/+$/, '') + pathWithQuery(path, query)).href;
}

/** The upstream client: keep-alive, deadlines, a size cap, retries, fair places, a breaker, shared identical calls. */
export class ApiClient implements Upstream {
  readonly #options: ApiClientOptions;
  #agent: Agent | undefined;
  readonly #policy: RetryPolicy;
  readonly #headers: Record<string, string>;
  readonly #limiter: Limiter;
  readonly #breaker: Breaker;
  readonly #inflight = new Map<string, SharedCall<ApiResponse>>();
  readonly #scrub: ReturnType<typeof scrubber>;
  readonly #deadlines: Deadlines;
  readonly #origin: string;
  readonly #prefix: string;
  readonly #postHeaders: Record<string, string>;
  #closed = false;

  constructor(options: ApiClientOptions) {
    this.#options = options;
    this.#agent = options.agent;
    this.#policy = { ...DEFAULT_RETRY, ...options.retry, maxRetries: options.maxRetries };
    this.#limiter = new Limiter({
      limit: options.maxConcurrency ?? 4,
      maxWaitingPerCaller: MAX_WAITING_PER_CALLER,
      busy: (n, retryAfterMs) =>
        new BusyError(`${n} upstream requests of this caller already waiting`, { retryAfterMs }),
    });
    this.#scrub = scrubber(options.apiKey);
    this.#breaker = new Breaker({ ...DEFAULT_BREAKER, ...options.breaker }, options.logger);
    this.#headers = {
      accept: 'application/json',
      'user-agent': `streamer-analytics-mcp/${VERSION}`,
      'x-api-key': options.apiKey,
    };
    this.#postHeaders = { ...this.#headers, 'content-type': 'application/json' };
    this.#deadlines = new Deadlines(options.timeoutMs);
    const base = new URL(options.baseUrl);
    this.#origin = base.origin;
    this.#prefix = base.pathname.replace(/\/+$/, '');
  }

  request(req: ApiRequest, signal?: AbortSignal, caller = ''): Promise<ApiResponse> {
    const url = this.#prefix + pathWithQuery(req.path, req.query);
    const payload = req.method === 'POST' ? JSON.stringify(req.body ?? {}) : undefined;
    const key = `${req.method} ${url} ${payload ?? ''}`;
    let shared = this.#inflight.get(key);
    if (!shared || shared.abandoned) {
      const call = new SharedCall((s, callers) => this.#send(req, url, payload, s, callers), caller);
      const forget = () => {
        if (this.#inflight.get(key) === call) this.#inflight.delete(key);
      };
      call.done.then(forget, forget);
      this.#inflight.set(key, call);
      shared = call;
    }
    return shared.join(signal, caller);
  }

  async #send(req: ApiRequest, url: string, payload: string | undefined, cancel: Switch, caller: Callers) {
    const send = () => {
      this.#breaker.admit();
      return this.#attempt(req, url, payload, cancel);
    };
    for (let attempt = 0; ; attempt++) {
      try {
        // Each attempt takes a slot; a backoff wait holds none.
        const { status, body } = await this.#limiter.run(send, cancel, caller);
        this.#breaker.record(undefined);
        return { status, body, attempts: attempt + 1 };
      } catch (thrown) {
        const error = thrown instanceof ApiError ? thrown : this.#transportError(thrown, cancel);
        // A refusal of our own (circuit open, this caller busy) says nothing about the service.
        if (error.kind !== 'circuit_open' && error.kind !== 'busy') this.#breaker.record(error);
        error.detail.attempts = attempt + 1;
        error.detail.path = req.path;
        // A busy caller is told at once (waiting inside the call would hold its place in the queue); a host
        // name that does not resolve is configuration, not a passing fault.
        const final =
          error.kind === 'busy' || (error.kind === 'network' && CONFIGURATION_CODES.has(error.message));
        const delay = cancel.aborted || final ? undefined : retryDelay(error, attempt, this.#policy);
        if (delay === undefined) throw error;
        this.#options.logger.info('retrying upstream request', {
          path: req.path,
          attempt: attempt + 1,
          error: error.kind,
          status: error.detail.status,
          delayMs: delay,
        });
        try {
          await sleep(delay, cancel);
        } catch {
          throw new CancelledError('cancelled during retry backoff', error.detail);
        }
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#agent?.close();
  }

  get load(): { active: number; waiting: number } {
    return { active: this.#limiter.active, waiting: this.#limiter.waiting };
  }

  async #attempt({ method, shape }: ApiRequest, url: string, payload: string | undefined, cancel: Switch) {
    let timedOut = false;
    let response: Exchange;
    try {
      response = await this.#exchange(method, url, payload, cancel, () => {
        timedOut = true;
      });
    } catch (error) {
      throw this.#transportError(error, cancel, timedOut);
    }
    const { status, headers, text } = response;
    // A header quoted in an error is upstream text like the body.
    const contentType = cleanContentType(this.#scrub.text(headerValue(headers['content-type']) ?? ''));
    const parsed = parseBody(text);
    const body = parsed.ok ? this.#scrub.json(text, parsed.value) : undefined;
    const described = () => {
      const shown = this.#scrub.text(text);
      return { body: describeBody(shown, Buffer.byteLength(text), contentType ?? ''), contentType };
    };
    if (status < 200 || status >= 300) {
      const message = messageOf(body);
      throw errorFromStatus(status, {
        ...(message ? { upstreamMessage: message } : described()),
        retryAfterMs: parseRetryAfter(headerValue(headers['retry-after'])),
      });
    }
    if (!parsed.ok) {
      throw new InvalidResponseError(
        parsed.problem === 'not JSON' ? 'response is not JSON' : `response ${parsed.problem} to read`,
        { status, ...(parsed.problem === 'not JSON' ? described() : { contentType }) },
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new InvalidResponseError('response is not a JSON object', { status, contentType });
    }
    const record = body as Record<string, unknown>;
    if (record.success === false) {
      throw new ApiReportedError('success: false', { status, upstreamMessage: messageOf(record) });
    }
    const problem = shape ? shapeProblem(record, shape) : undefined;
    if (problem) throw new InvalidResponseError(`unexpected answer: ${problem}`, { status, contentType });
    return { status, body: record };
  }

  /** One exchange through undici's dispatcher (no stream object), ended by cancellation, deadline or size cap. */
  async #exchange(
    method: ApiRequest['method'],
    path: string,
    payload: string | undefined,
    cancel: Switch,
    onTimeout: () => void,
  ): Promise<Exchange> {
    const agent = this.#agent ?? (await this.#loadAgent());
    const cap = this.#options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    return new Promise((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let ended: unknown;
      // Before the request started, it is aborted at its start.
      const end = (reason: unknown) => {
        ended ??= reason;
        controller?.abort(reason as Error);
      };
      const stopListening = cancel.listen(() => end(cancel.reason ?? new Error('cancelled')));
      const deadline = this.#deadlines.add(() => {
        onTimeout();
        end(new Error('attempt timed out'));
      });
      const finish = () => {
        deadline.done();
        stopListening();
      };
      const tooLarge = () =>
        new InvalidResponseError(`response larger than ${Math.round(cap / 1024 / 1024)} MiB`);
      let status = 0;
      let headers: RawHeaders = {};
      const chunks: Buffer[] = [];
      let size = 0;
      agent.dispatch(
        {
          origin: this.#origin,
          path,
          method,
          headers: payload === undefined ? this.#headers : this.#postHeaders,
          ...(payload !== undefined ? { body: payload } : {}),
        },
        {
          onRequestStart(c) {
            controller = c;
            if (ended !== undefined) c.abort(ended as Error);
          },
          onResponseStart(_c, statusCode, responseHeaders) {
            status = statusCode;
            headers = responseHeaders as RawHeaders;
            // undici does not decode Content-Encoding here: the header counts the bytes that would arrive.
            if (Number(headerValue(headers['content-length'])) > cap) end(tooLarge());
          },
          onResponseData(_c, chunk) {
            size += chunk.length;
            if (size > cap) end(tooLarge());
            else chunks.push(chunk);
          },
          onResponseEnd() {
            finish();
            resolve({ status, headers, text: Buffer.concat(chunks, size).toString('utf8') });
          },
          onResponseError(_c, error) {
            finish();
            reject(ended instanceof InvalidResponseError ? ended : error);
          },
        },
      );
    });
  }

  async #loadAgent(): Promise<Agent> {
    const { Agent } = await loadUndici();
    this.#agent ??= new Agent({ keepAliveTimeout: 30_000, connections: 16 });
    return this.#agent;
  }

  /** The error kind of a failed attempt; rethrows what is not an upstream failure. */
  #transportError(error: unknown, cancel: Switch, timedOut = false): ApiError {
    if (error instanceof InvalidResponseError) return error;
    if (cancel.aborted) return new CancelledError('cancelled by the client', {}, { cause: error });
    // Closed by this server (shutdown, or a pool letting an idle client go): not an outage.
    if (this.#closed)
      return new CancelledError('the server closed this upstream client', {}, { cause: error });
    const code = (error as { code?: string }).code;
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new TimeoutError(
        `no complete answer within ${this.#options.timeoutMs} ms`,
        { timeoutMs: this.#options.timeoutMs },
        { cause: error },
      );
    }
    // Only a transport failure (a system or undici error code) is a network error; anything else is a defect.
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) {
      return new ConnectionError(code, {}, { cause: error });
    }
    throw error;
  }
}

const messageOf = (body: unknown) => readMessage(body)?.slice(0, 500);

type RawHeaders = Record<string, string | string[] | undefined>;
type Exchange = { status: number; headers: RawHeaders; text: string };
const headerValue = (value: RawHeaders[string]) => (Array.isArray(value) ? value[0] : value);
