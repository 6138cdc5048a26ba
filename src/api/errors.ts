/** Stable codes of the upstream failure kinds; the tool error text is chosen from these in one place. */
export type ErrorKind =
  | 'auth'
  | 'not_found'
  | 'rate_limited'
  | 'upstream'
  | 'timeout'
  | 'network'
  | 'invalid_response'
  | 'api_error'
  | 'cancelled'
  | 'circuit_open'
  | 'batch_limit'
  | 'busy';

export interface ErrorDetail {
  status?: number | undefined;
  upstreamMessage?: string | undefined;
  body?: string | undefined;
  contentType?: string | undefined;
  retryAfterMs?: number | undefined;
  path?: string | undefined;
  attempts?: number | undefined;
  allowance?: number | undefined;
  timeoutMs?: number | undefined;
  lastFailure?: { kind: string; status?: number | undefined; code?: string | undefined } | undefined;
  /** The failing service is the demo's embedded simulator: no setting of the server's applies. */
  simulated?: boolean | undefined;
}

export abstract class ApiError extends Error {
  abstract readonly kind: ErrorKind;
  readonly retryable: boolean = false;
  readonly detail: ErrorDetail;
  constructor(message: string, detail: ErrorDetail = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.detail = detail;
  }
}

/** One kind's class. Its name is a literal: the bundle is minified, and logs should read ConnectionError, not y. */
const kindOf = (name: string, kind: ErrorKind, retryable = false) =>
  class extends ApiError {
    override readonly name = name;
    readonly kind = kind;
    override readonly retryable = retryable;
  };

const AuthenticationError = kindOf('AuthenticationError', 'auth');
const NotFoundError = kindOf('NotFoundError', 'not_found');
const RateLimitError = kindOf('RateLimitError', 'rate_limited', true);
const ServerError = kindOf('ServerError', 'upstream', true);
export const TimeoutError = kindOf('TimeoutError', 'timeout', true);
export const ConnectionError = kindOf('ConnectionError', 'network', true);
export const InvalidResponseError = kindOf('InvalidResponseError', 'invalid_response');
/** `success: false`, or a 4xx other than 401, 403, 404 and 429. */
export const ApiReportedError = kindOf('ApiReportedError', 'api_error');
export const CancelledError = kindOf('CancelledError', 'cancelled');
/** Not retried within the call: the wait is the point. */
export const CircuitOpenError = kindOf('CircuitOpenError', 'circuit_open');
/** One HTTP request used up its allowance of upstream requests; nothing was sent. */
export const BatchLimitError = kindOf('BatchLimitError', 'batch_limit');
export const BusyError = kindOf('BusyError', 'busy', true);

/** The upstream's words in a failed answer: its JSON message, else a plain-text body's text (not HTML, not binary). */
export function upstreamWords(detail: ErrorDetail): string | undefined {
  if (detail.upstreamMessage?.trim()) return detail.upstreamMessage;
  const body = detail.body;
  if (!body?.startsWith('"') || /^text\/html\b/i.test(detail.contentType ?? '')) return undefined;
  try {
    const text = JSON.parse(body) as unknown;
    return typeof text === 'string' && text.trim() ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The one place where an HTTP status becomes an error kind. */
export function errorFromStatus(status: number, detail: ErrorDetail): ApiError {
  const d = { ...detail, status };
  if (status === 401 || status === 403) return new AuthenticationError(`HTTP ${status}`, d);
  if (status === 404) return new NotFoundError(`HTTP ${status}`, d);
  if (status === 429) return new RateLimitError(`HTTP ${status}`, d);
  if (status >= 500) return new ServerError(`HTTP ${status}`, d);
  return new ApiReportedError(`HTTP ${status}`, d);
}
