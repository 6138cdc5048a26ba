import { Lru } from './lru.js';

/** Callers whose rate is remembered, by default; beyond it, the longest unseen is forgotten (and starts full). */
const CALLERS = 10_000;

/** A token bucket per caller: `take` answers 0 to go on, else the seconds to wait; `spend` goes into debt. */
export class TokenBuckets {
  readonly #buckets = new Lru<string, { tokens: number; at: number }>(CALLERS);

  constructor(
    readonly burst: number,
    readonly perSecond: number,
  ) {}

  take(caller: string, cost = 1): number {
    const bucket = this.#bucket(caller);
    if (bucket.tokens < cost) return Math.ceil((cost - bucket.tokens) / this.perSecond);
    bucket.tokens -= cost;
    return 0;
  }

  spend(caller: string, cost: number): void {
    this.#bucket(caller).tokens -= cost;
  }

  #bucket(caller: string) {
    const now = performance.now();
    const bucket = this.#buckets.get(caller) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.#buckets.set(caller, bucket);
    return bucket;
  }
}
