// Investigations kept for a short time, per caller, so that re-slicing one (another sortBy, levels,
// liveOnly, offset or response_format) asks the upstream nothing. A caller is CallContext.caller: over
// --http its anchor (verified session, else address) and its key together, so no other caller can read,
// time or evict what it kept, whichever key they share. An entry is made only for a complete investigation
// (every upstream request answered): a made-up key makes none. Bounded: a few entries per caller, a few
// minutes each, and the callers seen most recently.

/** How long an investigation is reused: long enough to page and re-sort it, short enough to stay current. */
export const INVESTIGATION_TTL_MS = 5 * 60_000;
/** Investigations kept per caller (the oldest goes first). */
const PER_CALLER = 8;
/** Callers whose investigations are kept (the least recently seen goes first). */
const CALLERS = 256;

const store = new Map<string, Map<string, { at: number; value: unknown }>>();

/** A kept investigation of `caller` for `key` and its age, or undefined (never kept, or expired). */
export function recall<T>(
  caller: string,
  key: string,
  now = Date.now(),
): { value: T; ageMs: number } | undefined {
  const entries = store.get(caller);
  const hit = entries?.get(key);
  if (!entries || !hit) return undefined;
  if (now - hit.at > INVESTIGATION_TTL_MS) {
    entries.delete(key);
    return undefined;
  }
  // Most recently seen last.
  store.delete(caller);
  store.set(caller, entries);
  return { value: hit.value as T, ageMs: now - hit.at };
}

export function remember(caller: string, key: string, value: unknown, now = Date.now()): void {
  const entries = store.get(caller) ?? new Map<string, { at: number; value: unknown }>();
  store.delete(caller);
  store.set(caller, entries);
  if (store.size > CALLERS) store.delete(store.keys().next().value as string);
  entries.delete(key);
  for (const [k, e] of entries) if (now - e.at > INVESTIGATION_TTL_MS) entries.delete(k);
  while (entries.size >= PER_CALLER) entries.delete(entries.keys().next().value as string);
  entries.set(key, { at: now, value });
}
