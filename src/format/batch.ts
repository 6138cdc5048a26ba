// Pieces shared by the batch results: per-item errors, accounting for every requested id, counts.

import type { FailureGroup } from '../report/view-types.js';
import { numberOf } from '../untrusted/numbers.js';
import { idOf as itemId, messageOf } from '../untrusted/reader.js';
import { isRecord } from '../untrusted/series.js';
import { clean, cleanDeep, quote } from '../untrusted/text.js';
import { groupBy } from './aggregate.js';
import { COMPUTED, describeObject, nothingMore, SERIES_LEGEND } from './generic.js';
import type { Report } from './result.js';
import { num, shortener } from './text.js';

export type ItemError = { id: string; error: string };

export const NO_RESULT = 'no result returned';
/** An id with no result matched to it, when some results could not be matched to any id. */
export const NO_MATCH = 'no result matched to this id';

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const asRecord = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});

/** A batch answer reconciled with the ids requested, each once; `notes` say what did not add up. */
export function accountFor<T>(
  found: readonly T[],
  idOf: (item: T) => string,
  rawErrors: unknown,
  requested: readonly string[],
  summary: Record<string, unknown>,
  unreadable: (item: T) => boolean = () => false,
): { results: T[]; errors: ItemError[]; notes: string[]; unidentified: number } {
  const asked = new Set(requested);
  const errorsSent = upstreamErrors(rawErrors, asked);
  const seen = new Set<string>();
  const results: T[] = [];
  const duplicates: string[] = [];
  let unidentified = 0;
  for (const item of found) {
    const id = idOf(item);
    if (!unreadable(item) && seen.has(id)) duplicates.push(id);
    else {
      if (unreadable(item)) unidentified++;
      else seen.add(id);
      results.push(item);
    }
  }
  const unrequested = [...seen].filter((id) => !asked.has(id));
  const conflicts: string[] = [];
  const errors: ItemError[] = [];
  const failedIds = new Set<string>();
  for (const e of errorsSent) {
    if (seen.has(e.id)) conflicts.push(e.id);
    else if (!failedIds.has(e.id)) {
      failedIds.add(e.id);
      errors.push(e);
    }
  }
  // With results whose id could not be read, an id without a matched result may be one of them.
  const missing = requested.filter((id) => !seen.has(id) && !failedIds.has(id));
  for (const id of new Set(missing)) errors.push({ id, error: unidentified ? NO_MATCH : NO_RESULT });
  const list = (ids: string[]) =>
    ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
  const s = numberOf(summary.successful);
  const f = numberOf(summary.failed);
  const notes = [
    duplicates.length &&
      `The upstream returned ${duplicates.length} duplicate results (first kept): ${list(duplicates)}.`,
    conflicts.length &&
      `The upstream reported both a result and an error for: ${list(conflicts)} (result kept).`,
    unrequested.length &&
      `The upstream returned results for ids that were not requested: ${list(unrequested)}.`,
    unidentified &&
      `${unidentified} result${unidentified === 1 ? '' : 's'} named none of the ids asked for in any field this server read, so ${unidentified === 1 ? 'it is' : 'they are'} shown by position ("result N") and the ids without a matched result are listed as "${NO_MATCH}", not as failed upstream.`,
    ((s !== undefined && s !== found.length) || (f !== undefined && f !== errorsSent.length)) &&
      `The upstream summary says ${num(s)} successful / ${num(f)} failed; its lists hold ${found.length} / ${errorsSent.length}.`,
  ].filter((n): n is string => typeof n === 'string');
  return { results, errors, notes, unidentified };
}

/** Failed ids past these counts are shortened (text, JSON), to leave the room to the findings. */
const WHOLE_IDS = { text: 25, json: 100 };
const IDS_PER_LINE = 10;
/** An upstream reason that says the id is unknown ("Token not found"). */
export const NOT_FOUND = /not found/i;

/** Failures grouped by reason, the most frequent first (ties in the order met): every channel's grouping. */
export const groupFailures = (errors: readonly ItemError[]): FailureGroup[] =>
  [...groupBy(errors, (e) => e.error)]
    .map(([error, failed]) => ({ error, ids: failed.map((e) => e.id) }))
    .sort((a, b) => b.ids.length - a.ids.length);

/** Failures in both channels; past 25 (text) or 100 (JSON) ids shortened to the shortest distinct prefix. */
export function failures(
  errors: readonly ItemError[],
  idKey = 'mintIds',
  hint?: (n: number) => string | undefined,
): { lines: string[]; json: Array<{ error: string; count: number } & Record<string, unknown>> } {
  if (errors.length === 0) return { lines: [], json: [] };
  const groups = groupFailures(errors);
  const short = shortener(errors.map((e) => e.id));
  const textIds = errors.length > WHOLE_IDS.text ? short : (id: string) => id;
  const jsonIds = errors.length > WHOLE_IDS.json ? short : (id: string) => id;
  const lines = [`Failed (${errors.length})${groups.length > 1 ? ', by reason' : ''}:`];
  for (const { error, ids } of groups) {
    const shown = ids.map(textIds);
    lines.push(`  ${quote(error, 160)} (${ids.length}): ${shown.slice(0, IDS_PER_LINE).join(', ')}`);
    for (let i = IDS_PER_LINE; i < shown.length; i += IDS_PER_LINE)
      lines.push(`    ${shown.slice(i, i + IDS_PER_LINE).join(', ')}`);
  }
  if (errors.length > WHOLE_IDS.text)
    lines.push('  (failed ids shortened to their first characters: the ids you passed)');
  // The hint goes with the (first) not-found reason, in both channels.
  const said = notFoundHint(groups, hint);
  if (said) lines.push(`  Hint: ${said}`);
  const first = groups.find((g) => NOT_FOUND.test(g.error));
  return {
    lines,
    json: groups.map((g) => ({
      error: g.error,
      count: g.ids.length,
      [idKey]: g.ids.map(jsonIds),
      ...(said && g === first ? { hint: said } : {}),
    })),
  };
}

export function notFoundHint(groups: readonly FailureGroup[], hint?: (n: number) => string | undefined) {
  const lost = groups.filter((g) => NOT_FOUND.test(g.error));
  return lost.length ? hint?.(lost.reduce((n, g) => n + g.ids.length, 0)) : undefined;
}

/** The upstream's per-id errors of a batch answer: the id (one of those asked, where it names one), the message. */
export const upstreamErrors = (raw: unknown, asked: ReadonlySet<string>): ItemError[] =>
  asArray(raw).map((e) => {
    const record = asRecord(e);
    return {
      id: clean(itemId(record, asked) ?? 'unknown id', 64),
      error: clean(messageOf(record) ?? 'no message', 160),
    };
  });

interface GenericBatch {
  what: string;
  /** The scope in the headline: `chain_a / platform_a, period 24h, 100 points`. */
  scope: string;
  query: Record<string, unknown>;
  /** What narrows one result (analytics: fewer points or a shorter period). */
  narrow?: string;
  /** Lists of records are time series: summarised per numeric field at any length (analytics). */
  series?: boolean;
  hint?: (n: number) => string | undefined;
}

/** Batch results whose element fields the document does not show: each led by its id, every field described. */
export function renderGenericBatch(
  batch: GenericBatch,
  body: Record<string, unknown>,
  requested: readonly string[],
  format: 'concise' | 'detailed',
): Report<{
  id: string;
  raw: Record<string, unknown>;
  unread: boolean;
  described: ReturnType<typeof describeObject>;
}> {
  const detailed = format === 'detailed';
  const data = asRecord(body.data);
  const asked = new Set(requested);
  const found = asArray(data.results)
    .map(asRecord)
    .map((raw, i) => {
      const id = itemId(raw, asked);
      return { id: clean(id ?? `result ${i + 1}`, 64), raw, unread: id === undefined };
    });
  const { results, errors, notes, unidentified } = accountFor(
    found,
    (e) => e.id,
    data.errors,
    requested,
    asRecord(data.summary),
    (e) => e.unread,
  );
  // The id leads each entry; the fields that hold it are not repeated.
  const idKeys = (e: { id: string; raw: Record<string, unknown> }) =>
    Object.keys(e.raw).filter((k) => e.raw[k] === e.id);
  const entries = results.map((e) => ({
    ...e,
    described: describeObject(e.raw, idKeys(e), detailed, batch.series, e.id),
  }));
  const unmatched = errors.filter((e) => e.error === NO_MATCH).length;
  return {
    headline: `${batch.what}: ${requested.length} requested, ${results.length} returned${unidentified ? ` (${unidentified} not matched to an id)` : ''}, ${errors.length - unmatched} failed${unmatched ? `, ${unmatched} without a matched result` : ''} (${batch.scope})`,
    query: batch.query,
    legend: entries.some((e) => e.described.parts.some((p) => p.includes(`=${COMPUTED} `)))
      ? SERIES_LEGEND
      : undefined,
    notes,
    data: {
      counts: {
        requested: requested.length,
        returned: results.length,
        failed: errors.length - unmatched,
        ...(unidentified ? { unidentified, unmatched } : {}),
      },
    },
    rows: {
      items: entries,
      cut: {
        what: 'results',
        how: (shown) =>
          requested.length > 1 && shown > 0
            ? `Ask for fewer mintIds per call (${shown} fit).`
            : `One result is larger than the budget${batch.narrow ? `: ask for ${batch.narrow}` : ''}.`,
      },
      text: (rows) => rows.flatMap((e) => [`${e.id}:`, ...e.described.parts.map((p) => `  ${p}`)]),
      json: (rows) => ({
        results: rows.map((e) => ({
          ...(e.unread ? { position: e.id } : { mintId: e.id }),
          ...(detailed ? asRecord(cleanDeep(e.raw)) : e.described.fields),
        })),
      }),
    },
    nothingMore: detailed && results.length > 0 && results.every((e) => nothingMore(e.raw, idKeys(e))),
    failed: failures(errors, 'mintIds', batch.hint),
  };
}
