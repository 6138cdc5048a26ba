// What keeps the store safe from its callers: writes only for a key the upstream accepted, failures of the
// store told apart from the tool's own, and an SQLite file that only its user can read.
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from './types.js';

/** The store's methods that write for an owner: refused for a key the upstream has not accepted. */
export const WRITES = new Set<keyof Store>([
  'putWatchlist',
  'deleteWatchlist',
  'changeWatchlist',
  'putCheck',
  'record',
]);

/** A write for a key the upstream has not accepted (and no probe to ask it): nothing is written. */
export class UnverifiedKey extends Error {
  constructor() {
    super(
      'the API key has not been accepted by the upstream yet, so nothing is kept for it: make any other call first. Nothing was written.',
    );
  }
}

/** A failure of the store itself, as opposed to the code that uses it. */
export class StoreFault extends Error {}

/**
 * The store with each failure of its own marked as such: an error thrown by a callback the caller passed
 * (a watchlist change refused by the tool) is the caller's, and goes through unmarked. `canWrite` says
 * whether the owner's writes may go ahead (the key accepted by the upstream), and may first ask it.
 */
export function guard(s: Store, canWrite?: () => Promise<void>): Store {
  const out = { ...s } as Record<string, unknown>;
  const callers = new WeakSet<object>();
  const own = (f: unknown) =>
    typeof f === 'function'
      ? (...x: unknown[]) => {
          try {
            return (f as (...y: unknown[]) => unknown)(...x);
          } catch (error) {
            if (typeof error === 'object' && error !== null) callers.add(error);
            throw error;
          }
        }
      : f;
  for (const [k, v] of Object.entries(s))
    if (typeof v === 'function')
      out[k] = async (...a: unknown[]) => {
        if (canWrite && WRITES.has(k as keyof Store)) await canWrite();
        return (v as (...x: unknown[]) => Promise<unknown>).apply(s, a.map(own)).catch((cause: unknown) => {
          if (typeof cause === 'object' && cause !== null && callers.has(cause)) throw cause;
          throw new StoreFault('store failed', { cause });
        });
      };
  return out as unknown as Store;
}

/** Creates the SQLite file's folder (0700) and the file itself (0600) when they do not exist yet (POSIX). */
export function createPrivately(path: string): void {
  if (path === ':memory:' || existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // 'a': created if absent, never truncated; SQLite gives its -wal and -shm files the same mode.
  closeSync(openSync(path, 'a', 0o600));
}
