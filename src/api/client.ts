import type { Agent, Dispatcher } from 'undici';
import type { Logger } from '../log.js';
import { messageOf as readMessage } from '../untrusted/reader.js';
import { VERSION } from '../version.js';
import {
  cleanContentType,
  describeBody,
  parseBody,
  readCapped,
  type Shape,
  scrubber,
  shapeProblem,
} from './body.js';
import { Breaker, type BreakerOptions, CONFIGURATION_CODES, DEFAULT_BREAKER } from './breaker.js';
import {
  ApiError,
  ApiReportedError,
  CancelledError,
  ConnectionError,
  errorFromStatus,
  InvalidResponseError,
  TimeoutError,
} from './errors.js';
import { type Callers, Limiter } from './limiter.js';
import { DEFAULT_RETRY, parseRetryAfter, type RetryPolicy, retryDelay } from './retry.js';
import { SharedCall } from './shared-call.js';
import { Switch, sleep } from './switch.js';

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
  /** The parsed JSON object; `success` was not false. */
  body: Record<string, unknown>;
  attempts: number;
  ms: number;
}

/** What the server needs of an upstream client (ApiClient, or a stand-in that loads it on first use). */
export interface Upstream {
  /** `caller` names who asks (over --http), so that the upstream's capacity is shared among callers in turn. */
  request(req: ApiRequest, signal?: AbortSignal, caller?: string): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  /** Upstream requests in flight at once; the rest queue, one queue per caller, served in turn. */
  maxConcurrency?: number;
  /** Upstream requests one caller may have waiting; beyond, its calls get a fast `busy` error. */
  maxWaitingPerCaller?: number;
  logger: Logger;
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  breaker?: Partial<BreakerOptions>;
  /** Responses larger than this are refused rather than buffered. */
  maxResponseBytes?: number;
  agent?: Agent;
}

const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Room for three investigations of 500 ids (about 20 requests each) from one caller at once. */
const DEFAULT_MAX_WAITING_PER_CALLER = 64;

let undici: Promise<typeof import('undici')> | undefined;
/**
 * undici is loaded on the first request, not at start: a desktop client spawns the server at every start,
 * often to list tools only, and loading undici is the largest single cost of starting.
 */
const loadUndici = () => {
  // Bundled, a CommonJS module imported dynamically arrives with its exports under `default`.
  undici ??= import('undici').then((mod) =>
    'Agent' in mod ? mod : (mod as { default: typeof mod }).default,
  );
  return undici;
};

/** Joins the base URL (path prefix kept, trailing slash or not) with an API path and query. */
export function buildUrl(baseUrl: string, path: string, query?: ApiRequest['query']): URL {
  // The query is built first and the URL parsed once (setting url.searchParams re-serializes each time).
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.size ? `?${params}` : '';
  return new URL(baseUrl.replace(/\/+$/, '') + path + search);
}

/**
 * The upstream client: one keep-alive agent for every call, a timeout per attempt, a response size cap,
 * JSON parsing, retries with backoff for 429, 5xx, network errors and timeouts, a concurrency limit, a
 * circuit breaker, and one upstream request for identical requests in flight at the same time.
 */
export class ApiClient implements Upstream {
  readonly #options: ApiClientOptions;
  #agent: Agent | undefined;
  readonly #policy: RetryPolicy;
  readonly #headers: Record<string, string>;
  readonly #limiter: Limiter;
  readonly #breaker: Breaker;
  readonly #inflight = new Map<string, SharedCall<ApiResponse>>();
  readonly #scrub: ReturnType<typeof scrubber>;
  #closed = false;

  constructor(options: ApiClientOptions) {
    this.#options = options;
    this.#agent = options.agent;
    this.#policy = { ...DEFAULT_RETRY, ...options.retry, maxRetries: options.maxRetries };
    this.#limiter = new Limiter({
      limit: options.maxConcurrency ?? 4,
      maxWaitingPerCaller: options.maxWaitingPerCaller ?? DEFAULT_MAX_WAITING_PER_CALLER,
    });
    this.#scrub = scrubber(options.apiKey);
    this.#breaker = new Breaker({ ...DEFAULT_BREAKER, ...options.breaker }, options.logger);
    this.#headers = {
      accept: 'application/json',
      'user-agent': `streamer-analytics-mcp/${VERSION}`,
      'x-api-key': options.apiKey,
    };
  }

  /** Sends a request; identical requests already in flight share its answer instead of a second request. */
  request(req: ApiRequest, signal?: AbortSignal, caller = ''): Promise<ApiResponse> {
    const url = buildUrl(this.#options.baseUrl, req.path, req.query);
    const payload = req.method === 'POST' ? JSON.stringify(req.body ?? {}) : undefined;
    const key = `${req.method} ${url.href} ${payload ?? ''}`;
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

  async #send(req: ApiRequest, url: URL, payload: string | undefined, cancel: Switch, caller: Callers) {
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        // Each attempt takes a slot; a backoff wait does not hold one.
        const { status, body: json } = await this.#limiter.run(
          () => {
            this.#breaker.admit();
            return this.#attempt(req, url, payload, cancel);
          },
          cancel,
          caller,
        );
        this.#breaker.record(undefined);
        return { status, body: json, attempts: attempt + 1, ms: performance.now() - started };
      } catch (thrown) {
        const error = thrown instanceof ApiError ? thrown : this.#transportError(thrown, cancel);
        // Neither a refusal of our own (circuit open, this caller busy) nor a client we closed ourselves
        // says anything about the service.
        if (error.kind !== 'circuit_open' && error.kind !== 'busy') this.#breaker.record(error);
        error.detail.attempts = attempt + 1;
        error.detail.path = req.path;
        // A busy caller is told at once (waiting inside the call would hold its place in the queue).
        // Nor is a host name that does not resolve retried: that is configuration, not a passing fault.
        const final =
          error.kind === 'busy' || (error.kind === 'network' && CONFIGURATION_CODES.has(error.message));
        const delay = cancel.aborted || final ? undefined : retryDelay(error, attempt, this.#policy);
        if (delay === undefined) throw error;
        this.#options.logger.info('retrying upstream request', {
          path: url.pathname,
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

  /** Requests running and queued now. */
  get load(): { active: number; waiting: number } {
    return { active: this.#limiter.active, waiting: this.#limiter.waiting };
  }

  async #attempt({ method, shape }: ApiRequest, url: URL, payload: string | undefined, cancel: Switch) {
    // One switch per attempt, thrown when the call is cancelled or the attempt times out.
    const attempt = new Switch();
    let timedOut = false;
    const stopListening = cancel.listen(() => attempt.abort(cancel.reason));
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, this.#options.timeoutMs);
    const isPost = method === 'POST';
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      const { Agent, request } = await loadUndici();
      this.#agent ??= new Agent({ keepAliveTimeout: 30_000, connections: 16 });
      response = await request(url, {
        method,
        dispatcher: this.#agent,
        signal: attempt,
        headers: isPost ? { ...this.#headers, 'content-type': 'application/json' } : this.#headers,
        ...(payload !== undefined ? { body: payload } : {}),
      });
      text = await readCapped(
        response.body,
        headerValue(response.headers['content-length']),
        this.#options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      );
    } catch (error) {
      throw this.#transportError(error, cancel, timedOut);
    } finally {
      clearTimeout(timer);
      stopListening();
    }

    const { statusCode: status, headers } = response;
    // A header quoted in an error is upstream text like the body: the key removed, then cleaned and cut.
    const contentType = cleanContentType(this.#scrub.text(headerValue(headers['content-type']) ?? ''));
    // Everything read from the body is read after it was bounded and cleared of the key.
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

  /** The error kind of a failed attempt; rethrows what is not an upstream failure. */
  #transportError(error: unknown, cancel: Switch, timedOut = false): ApiError {
    if (error instanceof InvalidResponseError) return error;
    if (cancel.aborted) return new CancelledError('cancelled by the client', {}, { cause: error });
    // Closed by this server (shutdown, or a pool letting an idle client go): not an outage, not retried.
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
    // Only a transport failure (a system or undici error code) is a network error, and worth a retry;
    // anything else is a defect, and goes up as it is, to be reported as an internal error.
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) {
      return new ConnectionError(code, {}, { cause: error });
    }
    throw error;
  }
}

/** The upstream's message in an error body, wherever it puts it (the body is not documented). */
const messageOf = (body: unknown) => readMessage(body)?.slice(0, 500);

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
