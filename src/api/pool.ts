import { createHash } from 'node:crypto';
import type { Upstream } from './client.js';
import { ApiError } from './errors.js';

interface Entry {
  client: Upstream;
  /** HTTP requests holding this client now. */
  users: number;
  /** The upstream refused this key on its last answer (a made-up key, say): let go of first. */
  refused: boolean;
}

/** An upstream for one HTTP request, and the release of the pooled client it took, if any. */
export interface Lease extends Upstream {
  release(): void;
  /**
   * The same object for every lease of one key, for as long as the key is among the last `max` leased:
   * what a call keeps for its caller key (investigate_botting's cache) is kept under it.
   */
  owner: object;
}

/**
 * One upstream client per caller key, so that a caller's requests share one circuit breaker, one
 * concurrency limit and one set of shared requests, and nothing is shared across keys. Clients are found
 * by the key's SHA-256 (the map never holds a key in clear).
 *
 * An entry is made only when a caller's request reaches the upstream (listing tools makes none), and is
 * held, counted, by every HTTP request that uses it: a client in use is never closed. Past `max` keys the
 * pool lets go of an idle client, one the upstream refused before any other, then the least recently used:
 * a stream of made-up keys replaces only its own kind, never an active caller's client or its breaker.
 */
export class ClientPool {
  readonly #entries = new Map<string, Entry>();
  /** Owners by key digest, most recently leased last (never the key itself). */
  readonly #owners = new Map<string, object>();

  constructor(
    private readonly make: (apiKey: string) => Upstream,
    readonly max = 64,
    private readonly onOpen: (clients: number) => void = () => {},
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The caller's upstream for one HTTP request: its pooled client, taken on its first upstream request. */
  lease(apiKey: string): Lease {
    const id = createHash('sha256').update(apiKey).digest('base64');
    let held: Entry | undefined;
    const owner = this.#owners.get(id) ?? {};
    this.#owners.delete(id);
    this.#owners.set(id, owner);
    if (this.#owners.size > this.max) this.#owners.delete(this.#owners.keys().next().value as string);
    const take = (): Entry => {
      if (held) return held;
      let entry = this.#entries.get(id);
      if (entry) this.#entries.delete(id);
      else {
        entry = { client: this.make(apiKey), users: 0, refused: false };
        this.onOpen(this.#entries.size + 1);
      }
      // Most recently used last.
      this.#entries.set(id, entry);
      entry.users++;
      held = entry;
      return entry;
    };
    return {
      request: async (req, signal, caller) => {
        const entry = take();
        try {
          const answer = await entry.client.request(req, signal, caller);
          entry.refused = false;
          return answer;
        } catch (error) {
          if (error instanceof ApiError && error.kind === 'auth') entry.refused = true;
          throw error;
        }
      },
      close: async () => {},
      owner,
      release: () => {
        if (!held) return;
        held.users--;
        held = undefined;
        this.#trim();
      },
    };
  }

  /** Past `max`, lets go of idle clients: refused keys first, then the least recently used. */
  #trim(): void {
    while (this.#entries.size > this.max) {
      let victim: string | undefined;
      for (const [id, entry] of this.#entries) {
        if (entry.users > 0) continue;
        if (entry.refused) {
          victim = id;
          break;
        }
        victim ??= id;
      }
      // Every client in use: the pool stays over `max` until one is released (bounded by requests in flight).
      if (victim === undefined) return;
      const entry = this.#entries.get(victim);
      this.#entries.delete(victim);
      entry?.client.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    const clients = [...this.#entries.values()].map((e) => e.client);
    this.#entries.clear();
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}
