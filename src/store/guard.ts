// What keeps the store safe from its callers: writes only for a key the upstream accepted, failures of the
// store told apart from the tool's own, and an SQLite file that only its user can read.
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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

/** At most this many missing folders above a file are made: a deeper path is refused. */
const MAX_NEW_FOLDERS = 64;

/**
 * Makes `folder` and each missing folder above it (`mode`), walking up at most MAX_NEW_FOLDERS and never past
 * the root, then down one mkdir each: it ends on any path. Node's recursive mkdir does not on a pseudo file
 * system (under /proc each mkdir fails with ENOENT and its parent exists, so it tries again forever, inside
 * one synchronous call); here the first mkdir that fails throws, and the store is unavailable.
 */
export function createFolder(folder: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let d = resolve(folder); !existsSync(d); d = dirname(d)) {
    if (dirname(d) === d) break;
    if (missing.length >= MAX_NEW_FOLDERS)
      throw Object.assign(new Error(`ENOENT: over ${MAX_NEW_FOLDERS} folders to make, mkdir '${folder}'`), {
        code: 'ENOENT',
      });
    missing.push(d);
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode });
    } catch (error) {
      // Made by another process meanwhile.
      if ((error as { code?: string }).code !== 'EEXIST' || !statSync(d).isDirectory()) throw error;
    }
  }
}

/** Creates the SQLite file's folder (0700) and the file itself (0600) when they do not exist yet (POSIX). */
export function createPrivately(path: string): void {
  if (path === ':memory:' || existsSync(path)) return;
  createFolder(dirname(path));
  // 'a': created if absent, never truncated; SQLite gives its -wal and -shm files the same mode.
  closeSync(openSync(path, 'a', 0o600));
}
