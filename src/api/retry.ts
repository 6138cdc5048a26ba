import type { ApiError } from './errors.js';

export interface RetryPolicy {
  maxRetries: number;
  /** First backoff step, doubled on every retry up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest `Retry-After` we wait out inside one tool call; a longer one is reported instead. */
  retryAfterCapMs: number;
}

export const DEFAULT_RETRY: Omit<RetryPolicy, 'maxRetries'> = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  retryAfterCapMs: 30_000,
};

/** The wait before retry `attempt + 1`; undefined when not retryable, retries are spent or Retry-After is too long. */
export function retryDelay(
  error: ApiError,
  attempt: number,
  policy: RetryPolicy,
  random = Math.random,
): number | undefined {
  if (!error.retryable || attempt >= policy.maxRetries) return undefined;
  const retryAfter = error.detail.retryAfterMs;
  if (retryAfter !== undefined) return retryAfter <= policy.retryAfterCapMs ? retryAfter : undefined;
  const step = Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
  // Jitter spreads retries of concurrent calls: between 75% and 100% of the step.
  return Math.round(step * (1 - random() * 0.25));
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
