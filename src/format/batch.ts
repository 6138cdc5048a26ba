// Pieces shared by the batch results: per-item errors, accounting for every requested id, counts.
import { describeObject, idOf } from './generic.js';
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

/**
 * The upstream's per-item errors, cleaned, plus every requested id that appears in neither list
 * (reported as "no result returned", never lost).
 */
export function itemErrors(
  errors: unknown,
  requested: readonly string[],
  resultIds: Iterable<string>,
): ItemError[] {
  const out: ItemError[] = asArray(errors).map((e) => {
    const record = asRecord(e);
    return {
      id: clean(idOf(record) ?? 'unknown id', 64),
      error: clean(record.error ?? record.message ?? 'no message', 160),
    };
  });
  const seen = new Set([...resultIds, ...out.map((e) => e.id)]);
  for (const id of requested) if (!seen.has(id)) out.push({ id, error: NO_RESULT });
  return out;
}

/** `Failed (2): <id> "message"; <id> "message"`, one line per error so none is hidden. */
export function failedLines(errors: ItemError[]): string[] {
  if (errors.length === 0) return [];
  return [`Failed (${errors.length}):`, ...errors.map((e) => `  ${e.id} ${quote(e.error, 160)}`)];
}

/**
 * The upstream's summary counts, checked against the lists (ids we added as "no result returned" are not
 * the upstream's failures); a mismatch is said, not hidden.
 */
export function countsCheck(
  summary: Record<string, unknown>,
  results: number,
  errors: ItemError[],
): string | undefined {
  const failed = errors.filter((e) => e.error !== NO_RESULT).length;
  const s = summary.successful;
  const f = summary.failed;
  if ((typeof s === 'number' && s !== results) || (typeof f === 'number' && f !== failed)) {
    return `Upstream summary says ${num(s)} successful / ${num(f)} failed; the lists hold ${results} / ${failed}.`;
  }
  return undefined;
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
  const results = asArray(data.results).map(asRecord);
  const summary = asRecord(data.summary);
  const ids = results.map((r, i) => idOf(r) ?? `result ${i + 1}`);
  const errors = itemErrors(data.errors, requested, ids);
  const headline = `${what}: ${requested.length} requested, ${results.length} returned, ${errors.length} failed (${scope})`;
  const mismatch = countsCheck(summary, results.length, errors);

  const entries = results.map((raw, i) => ({
    id: ids[i] as string,
    raw,
    described: describeObject(raw, ['mintId']),
  }));
  const cut = { what: 'results', how: () => 'Ask for fewer mintIds per call.' };
  return fitRows(entries, budget, cut, (rows) => ({
    summary: headline,
    text: [
      headline,
      ...(mismatch ? [mismatch] : []),
      ...rows.flatMap((e) => [`${e.id}:`, ...e.described.parts.map((p) => `  ${p}`)]),
      ...failedLines(errors),
    ].join('\n'),
    structured: {
      counts: { requested: requested.length, returned: results.length, failed: errors.length },
      results: rows.map((e) =>
        detailed ? { mintId: e.id, ...asRecord(cleanDeep(e.raw)) } : { mintId: e.id, ...e.described.fields },
      ),
      ...(errors.length ? { errors: errors.map((e) => ({ mintId: e.id, error: e.error })) } : {}),
      ...(mismatch ? { mismatch } : {}),
    },
  }));
}
