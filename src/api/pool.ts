import { createHash } from 'node:crypto';
import { Lru } from '../limits/lru.js';
import type { Upstream } from './client.js';
import { ApiError } from './errors.js';

interface Entry {
  client: Upstream;
  users: number;
  /** Whether the upstream answered this key, refused it (let go once idle), or not yet. */
  state: 'new' | 'accepted' | 'refused';
}

export interface Lease extends Upstream {
  release(): void;
}

// One upstream client per caller key. One in use is never closed; a refused key's goes once idle; keys not
// yet answered are kept apart from accepted ones, `max` of each: made-up keys displace only their own kind.
export class ClientPool {
  readonly #entries = new Lru<string, Entry>(Number.POSITIVE_INFINITY);

  constructor(
    private readonly make: (apiKey: string) => Upstream,
    readonly max = 64,
    private readonly onOpen: (clients: number) => void = () => {},
  ) {}

  lease(apiKey: string): Lease {
    const id = createHash('sha256').update(apiKey).digest('base64');
    let held: Entry | undefined;
    const take = (): Entry => {
      if (held) return held;
      let entry = this.#entries.get(id);
      if (!entry) {
        entry = { client: this.make(apiKey), users: 0, state: 'new' };
        this.onOpen(this.#entries.size + 1);
        this.#entries.set(id, entry);
      }
      entry.users++;
      held = entry;
      return entry;
    };
    return {
      request: async (req, signal, caller) => {
        const entry = take();
        try {
          const answer = await entry.client.request(req, signal, caller);
          entry.state = 'accepted';
          return answer;
        } catch (error) {
          if (error instanceof ApiError && error.kind === 'auth') entry.state = 'refused';
          throw error;
        }
      },
      close: async () => {},
      release: () => {
        if (!held) return;
        const entry = held;
        held = undefined;
        entry.users--;
        if (entry.users === 0 && entry.state === 'refused' && this.#entries.get(id) === entry) {
          this.#entries.delete(id);
          entry.client.close().catch(() => {});
        }
        this.#trim();
      },
    };
  }

  /** Past `max` keys of a kind (accepted, or not yet answered), lets go of the least recently used idle. */
  #trim(): void {
    for (const accepted of [false, true]) {
      const kind = [...this.#entries.entries()].filter(([, e]) => (e.state === 'accepted') === accepted);
      let excess = kind.length - this.max;
      for (const [id, entry] of kind) {
        if (excess <= 0) break;
        if (entry.users > 0) continue;
        this.#entries.delete(id);
        entry.client.close().catch(() => {});
        excess--;
      }
    }
  }

  async close(): Promise<void> {
    const clients = [...this.#entries.entries()].map(([, e]) => e.client);
    this.#entries.clear();
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}
