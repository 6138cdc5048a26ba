// Pieces shared by the batch results: per-item errors, accounting for every requested id, counts.
import { describeObject, idOf as itemId } from './generic.js';
import { fitRows, type Rendered } from './result.js';
import { clean, cleanDeep, num, quote } from './text.js';

export interface ItemError {
  id: string;
  error: string;
}

const NO_RESULT = 'no result returned';

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A batch answer reconciled with the request: every requested id exactly once, oddities said aloud. */
export interface Accounted<T> {
  /** One per id, the first occurrence kept. */
  results: T[];
  /** The upstream's errors (cleaned, none for an id that has a result) plus "no result returned" for the rest. */
  errors: ItemError[];
  /** What did not add up, one sentence each, for both channels. */
  notes: string[];
}

/**
 * Reconciles a batch answer with the ids requested: duplicate results and errors are dropped (first kept),
 * an error for an id that also has a result is dropped, a requested id found in neither list is reported
 * as "no result returned", results for ids nobody requested are kept and named, and the upstream's
 * summary counts are checked against its lists.
 */
export function accountFor<T>(
  found: readonly T[],
  idOf: (item: T) => string,
  rawErrors: unknown,
  requested: readonly string[],
  summary: Record<string, unknown>,
): Accounted<T> {
  const upstreamErrors: ItemError[] = asArray(rawErrors).map((e) => {
    const record = asRecord(e);
    return {
      id: clean(itemId(record) ?? 'unknown id', 64),
      error: clean(record.error ?? record.message ?? 'no message', 160),
    };
  });
  const seen = new Set<string>();
  const results: T[] = [];
  const duplicates: string[] = [];
  for (const item of found) {
    const id = idOf(item);
    if (seen.has(id)) duplicates.push(id);
    else {
      seen.add(id);
      results.push(item);
    }
  }
  const wanted = new Set(requested);
  const unrequested = [...seen].filter((id) => !wanted.has(id));
  const conflicts: string[] = [];
  const errors: ItemError[] = [];
  const failedIds = new Set<string>();
  for (const e of upstreamErrors) {
    if (seen.has(e.id)) conflicts.push(e.id);
    else if (!failedIds.has(e.id)) {
      failedIds.add(e.id);
      errors.push(e);
    }
  }
  for (const id of requested) if (!seen.has(id) && !failedIds.has(id)) errors.push({ id, error: NO_RESULT });

  const notes: string[] = [];
  const list = (ids: string[]) =>
    ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
  if (duplicates.length)
    notes.push(
      `The upstream returned ${duplicates.length} duplicate results (first kept): ${list(duplicates)}.`,
    );
  if (conflicts.length)
    notes.push(`The upstream reported both a result and an error for: ${list(conflicts)} (result kept).`);
  if (unrequested.length)
    notes.push(`The upstream returned results for ids that were not requested: ${list(unrequested)}.`);
  const s = summary.successful;
  const f = summary.failed;
  if (
    (typeof s === 'number' && s !== found.length) ||
    (typeof f === 'number' && f !== upstreamErrors.length)
  ) {
    notes.push(
      `The upstream summary says ${num(s)} successful / ${num(f)} failed; its lists hold ${found.length} / ${upstreamErrors.length}.`,
    );
  }
  return { results, errors, notes };
}

/** Integrity notes as text lines. */
export const noteLines = (notes: string[]) => notes.map((n) => `Note: ${n}`);

/** `Failed (2): <id> "message"; <id> "message"`, one line per error so none is hidden. */
export function failedLines(errors: ItemError[]): string[] {
  if (errors.length === 0) return [];
  return [`Failed (${errors.length}):`, ...errors.map((e) => `  ${e.id} ${quote(e.error, 160)}`)];
}

/**
 * Batch results whose element fields the document does not show (streamer analytics, complete):
 * each element led by its id, every field rendered generically, long series summarised.
 */
export function renderGenericBatch(
  what: string,
  body: Record<string, unknown>,
  requested: readonly string[],
  scope: string,
  detailed: boolean,
  budget: number,
): Rendered {
  const data = asRecord(body.data);
  const found = asArray(data.results)
    .map(asRecord)
    .map((raw, i) => ({ id: clean(itemId(raw) ?? `result ${i + 1}`, 64), raw }));
  const { results, errors, notes } = accountFor(
    found,
    (e) => e.id,
    data.errors,
    requested,
    asRecord(data.summary),
  );
  const entries = results.map((e) => ({ ...e, described: describeObject(e.raw, ['mintId'], detailed) }));
  const headline = `${what}: ${requested.length} requested, ${results.length} returned, ${errors.length} failed (${scope})`;
  const cut = { what: 'results', how: () => 'Ask for fewer mintIds per call.' };
  return fitRows(entries, budget, cut, (rows) => ({
    summary: headline,
    text: [
      headline,
      ...noteLines(notes),
      ...rows.flatMap((e) => [`${e.id}:`, ...e.described.parts.map((p) => `  ${p}`)]),
      ...failedLines(errors),
    ].join('\n'),
    structured: {
      counts: { requested: requested.length, returned: results.length, failed: errors.length },
      results: rows.map((e) =>
        detailed ? { mintId: e.id, ...asRecord(cleanDeep(e.raw)) } : { mintId: e.id, ...e.described.fields },
      ),
      ...(errors.length ? { errors: errors.map((e) => ({ mintId: e.id, error: e.error })) } : {}),
      ...(notes.length ? { integrity: notes } : {}),
    },
  }));
}
