// Pieces shared by the batch results: per-item errors, accounting for every requested id, counts.
import { describeObject, idOf } from './generic.js';
import { cutNote, fitRows, type Rendered } from './result.js';
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

/** The upstream's summary counts, checked against the lists; a mismatch is said, not hidden. */
export function countsCheck(
  summary: Record<string, unknown>,
  results: number,
  failed: number,
): string | undefined {
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
  const described = results.map((r) => describeObject(r, ['mintId']));
  const headline = `${what}: ${requested.length} requested, ${results.length} returned, ${errors.length} failed (${scope})`;
  const mismatch = countsCheck(summary, results.length, errors.filter((e) => e.error !== NO_RESULT).length);

  return fitRows(results.length, budget, (shown) => {
    const note =
      shown < results.length
        ? cutNote(shown, results.length, 'results', 'Ask for fewer mintIds per call.')
        : undefined;
    const text = [
      headline,
      ...(mismatch ? [mismatch] : []),
      ...results
        .slice(0, shown)
        .flatMap((_, i) => [`${ids[i]}:`, ...(described[i]?.parts ?? []).map((p) => `  ${p}`)]),
      ...failedLines(errors),
      ...(note ? [note] : []),
    ].join('\n');
    const items = results
      .slice(0, shown)
      .map((r, i) =>
        detailed
          ? { mintId: ids[i], ...asRecord(cleanDeep(r)) }
          : { mintId: ids[i], ...described[i]?.fields },
      );
    return {
      summary: headline,
      text,
      structured: {
        counts: { requested: requested.length, returned: results.length, failed: errors.length },
        results: items,
        ...(errors.length ? { errors: errors.map((e) => ({ mintId: e.id, error: e.error })) } : {}),
        ...(mismatch ? { mismatch } : {}),
        ...(note ? { truncated: note } : {}),
      },
    };
  });
}
