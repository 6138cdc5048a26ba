// Investigations kept for a short time, per caller key, so that re-slicing one (another sortBy, levels,
// liveOnly, offset or response_format) asks the upstream nothing. Bounded: a few entries per key, a few
// minutes each; keyed by the upstream client the call uses (one per API key), or over --http with callers'
// own keys by the pool's owner for the key (src/api/pool.ts), so no caller sees another's.

/** How long an investigation is reused: long enough to page and re-sort it, short enough to stay current. */
export const INVESTIGATION_TTL_MS = 5 * 60_000;
/** Investigations kept per caller key (the oldest goes first). */
const PER_KEY = 8;

const store = new WeakMap<object, Map<string, { at: number; value: unknown }>>();

/** A kept investigation for `key` and its age, or undefined (never kept, or expired). */
export function recall<T>(
  owner: object,
  key: string,
  now = Date.now(),
): { value: T; ageMs: number } | undefined {
  const entries = store.get(owner);
  const hit = entries?.get(key);
  if (!entries || !hit) return undefined;
  if (now - hit.at > INVESTIGATION_TTL_MS) {
    entries.delete(key);
    return undefined;
  }
  return { value: hit.value as T, ageMs: now - hit.at };
}

export function remember(owner: object, key: string, value: unknown, now = Date.now()): void {
  let entries = store.get(owner);
  if (!entries) {
    entries = new Map();
    store.set(owner, entries);
  }
  entries.delete(key);
  for (const [k, e] of entries) if (now - e.at > INVESTIGATION_TTL_MS) entries.delete(k);
  while (entries.size >= PER_KEY) entries.delete(entries.keys().next().value as string);
  entries.set(key, { at: now, value });
}
