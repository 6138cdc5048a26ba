// Complete investigations kept a few minutes per caller (no other caller can read, time or evict them).
import { Lru } from '../limits/lru.js';

/** How long an investigation is reused: long enough to page and re-sort it, short enough to stay current. */
export const INVESTIGATION_TTL_MS = 5 * 60_000;
/** Investigations kept per caller (the oldest goes first). */
const PER_CALLER = 8;

type Entries = Map<string, { at: number; value: unknown }>;
const store = new Lru<string, Entries>(256);

export function recall<T>(caller: string, key: string, now = Date.now()) {
  const entries = store.get(caller);
  const hit = entries?.get(key);
  if (!hit) return undefined;
  if (now - hit.at <= INVESTIGATION_TTL_MS) return { value: hit.value as T, ageMs: now - hit.at };
  entries?.delete(key);
  return undefined;
}

export function remember(caller: string, key: string, value: unknown, now = Date.now()): void {
  const entries: Entries = store.get(caller) ?? new Map();
  store.set(caller, entries);
  entries.delete(key);
  for (const [k, e] of entries) if (now - e.at > INVESTIGATION_TTL_MS) entries.delete(k);
  while (entries.size >= PER_CALLER) entries.delete(entries.keys().next().value as string);
  entries.set(key, { at: now, value });
}
