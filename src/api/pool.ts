import { createHash } from 'node:crypto';
import type { Upstream } from './client.js';

/**
 * One upstream client per caller key, so that a caller's requests share one circuit breaker, one
 * concurrency limit and one set of shared requests, and nothing is shared across keys. Clients are found
 * by the key's SHA-256 (the map never holds a key in clear); past `max` keys the least recently used
 * client is closed (requests it still has in flight finish first).
 */
export class ClientPool {
  readonly #clients = new Map<string, Upstream>();

  constructor(
    private readonly make: (apiKey: string) => Upstream,
    readonly max = 64,
  ) {}

  get size(): number {
    return this.#clients.size;
  }

  get(apiKey: string): Upstream {
    const id = createHash('sha256').update(apiKey).digest('base64');
    let client = this.#clients.get(id);
    if (client) this.#clients.delete(id);
    else client = this.make(apiKey);
    this.#clients.set(id, client);
    if (this.#clients.size > this.max) {
      const [oldest, evicted] = this.#clients.entries().next().value as [string, Upstream];
      this.#clients.delete(oldest);
      evicted.close().catch(() => {});
    }
    return client;
  }

  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}
