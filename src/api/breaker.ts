import type { Logger } from '../log.js';
import { type ApiError, CircuitOpenError, type ErrorDetail } from './errors.js';

export interface BreakerOptions {
  threshold: number;
  /** How long calls fail fast before one trial request may go. */
  cooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { threshold: 5, cooldownMs: 30_000 };

/** Failures that say the service is down or unreachable; a 4xx or a 429 means it is up and answering. */
const OUTAGE_KINDS = new Set(['upstream', 'timeout', 'network']);
/** Network failures that say the configuration is wrong (the host name does not resolve), not the service. */
export const CONFIGURATION_CODES = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_FAIL']);

type LastFailure = NonNullable<ErrorDetail['lastFailure']>;

/** After `threshold` outage failures in a row, calls fail fast for `cooldownMs`; then one trial request goes. */
export class Breaker {
  #failures = 0;
  #openUntil = 0;
  #trialInFlight = false;
  #last: LastFailure | undefined;

  constructor(
    readonly options: BreakerOptions,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  admit(): void {
    if (this.#openUntil === 0) return;
    if (this.now() >= this.#openUntil && !this.#trialInFlight) {
      this.#trialInFlight = true;
      this.logger.info('circuit half-open: sending one trial request');
      return;
    }
    const retryAfterMs = Math.max(1_000, this.#openUntil - this.now());
    throw new CircuitOpenError('circuit open', {
      retryAfterMs,
      ...(this.#last ? { lastFailure: this.#last } : {}),
    });
  }

  record(error: ApiError | undefined): void {
    const trial = this.#trialInFlight;
    this.#trialInFlight = false;
    // A cancelled attempt says nothing about the service; nor does a host name that does not resolve.
    if (error?.kind === 'cancelled') return;
    if (error?.kind === 'network' && CONFIGURATION_CODES.has(error.message)) return;
    if (!error || !OUTAGE_KINDS.has(error.kind)) {
      if (this.#openUntil !== 0) this.logger.warn('circuit closed: the service answers again');
      this.#failures = 0;
      this.#openUntil = 0;
      return;
    }
    this.#failures++;
    this.#last = {
      kind: error.kind,
      status: error.detail.status,
      code: error.kind === 'network' ? error.message : undefined,
    };
    if (trial || this.#failures >= this.options.threshold) {
      this.#openUntil = this.now() + this.options.cooldownMs;
      this.logger.warn('circuit open: failing fast', {
        consecutiveFailures: this.#failures,
        cooldownMs: this.options.cooldownMs,
        lastError: error.kind,
      });
    }
  }
}
