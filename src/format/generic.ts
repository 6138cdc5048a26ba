// Rendering of objects whose fields the interface document does not show: every field, compactly.
import { numericStats } from './aggregate.js';
import { asTime, isoTime, readSeries, idOf as shapeIdOf } from './shape.js';
import { approx, clean, dict, num, plural, quote, sparkline } from './text.js';

export interface SeriesSummary {
  count: number;
  min?: number;
  max?: number;
  /** When the minimum occurred: the time field of the record that holds it (first one, on a tie). */
  minAt?: string;
  /** When the maximum occurred: the time field of the record that holds it (first one, on a tie). */
  maxAt?: string;
  mean?: number;
  first?: unknown;
  last?: unknown;
  /** Values that were not numbers, left out of min, max and mean. */
  ignored?: number;
}

export interface Described {
  /** `key=value` parts for the text channel, in field order. */
  parts: string[];
  /** The same facts for `structuredContent`: scalars as they are, series as summaries. */
  fields: Record<string, unknown>;
}

const MAX_FIELDS = 40;
const MAX_DEPTH = 3;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The identifier an element of a batch answer is known by (src/format/shape.ts `idOf`). */
export const idOf = shapeIdOf;

/**
 * A series in figures: count, first, last, min, max (with its time, when the records carry one) and mean
 * over the numbers; values that are not numbers are counted and left out. A series that is mostly not
 * numbers is shown by its first and last values.
 */
function summariseSeries(
  values: unknown[],
  /** Each value's time as the text shows it, when the records carry one. */
  times?: Array<string | undefined>,
): { text: string; summary: SeriesSummary } {
  const stats = numericStats(values);
  if (stats && stats.count * 2 >= values.length) {
    const nums = values.filter(isNum);
    // When the extremes occurred: the time of the first record holding each.
    const timeOf = (target: number | undefined) => {
      const at = values.indexOf(target);
      const time = at >= 0 ? times?.[at] : undefined;
      return time || undefined;
    };
    const minAt = timeOf(stats.min);
    const maxAt = timeOf(stats.max);
    const summary: SeriesSummary = {
      count: stats.count,
      first: nums[0],
      last: nums.at(-1),
      min: stats.min,
      ...(minAt ? { minAt } : {}),
      max: stats.max,
      ...(maxAt ? { maxAt } : {}),
      mean: stats.mean,
      ...(stats.ignored ? { ignored: stats.ignored } : {}),
    };
    return {
      text: `${COMPUTED} ${plural(stats.count, 'point')}: first ${num(summary.first)}, last ${num(summary.last)}, min ${num(stats.min)}${minAt ? ` at ${minAt}` : ''}, max ${num(stats.max)}${maxAt ? ` at ${maxAt}` : ''}, mean ${approx(stats.mean)}${stats.ignored ? ` (${stats.ignored} non-numeric left out)` : ''} ${sparkline(nums, 24)}`,
      summary,
    };
  }
  const first = values[0];
  const last = values.at(-1);
  const show = (v: unknown) => (typeof v === 'string' ? quote(v, 40) : num(v));
  return {
    text: `${plural(values.length, 'value')}, first ${show(first)}, last ${show(last)}`,
    summary: {
      count: values.length,
      first: typeof first === 'string' ? clean(first, 60) : first,
      last: typeof last === 'string' ? clean(last, 60) : last,
    },
  };
}

/** A time as the text shows it: a string as the upstream sent it (cleaned), epoch numbers in ISO 8601. */
const timeText = (v: unknown) => (typeof v === 'string' ? clean(v, 40) : isoTime(asTime(v) as number));

/** What marks a series summary as this server's figures, not the upstream's (SERIES_LEGEND says so). */
export const COMPUTED = 'computed over';

/** The sentence that tells the server's figures from the upstream's own fields, both channels (the document names neither). */
export const SERIES_LEGEND =
  'Series figures ("computed over N points": count, first, last, min, max, mean) are this server\'s, over the points returned; every other field (a peak or an average the upstream gives, say) is the upstream\'s own, as sent.';

/**
 * What a detailed result says when the upstream sent nothing beyond the concise result: one line instead
 * of the same figures again, so the assistant does not ask once more hoping for more.
 */
export const NOTHING_MORE = 'detailed: the upstream sent nothing beyond what concise shows.';

/** Whether a detailed rendering of `value` says no more than the concise one. */
export const nothingMore = (value: Record<string, unknown>, skip: readonly string[] = []) =>
  describeObject(value, skip, true).parts.join('\n') === describeObject(value, skip, false).parts.join('\n');

/** In detailed mode, one line with a record's fields that its table row does not show; none when all are shown. */
export function extraLine(id: string, record: Record<string, unknown>, shown: readonly string[]): string[] {
  const extra = describeObject(record, shown, true).parts;
  return extra.length ? [`  ${id}: ${extra.join('; ')}`] : [];
}

/** Lists of records up to this long are shown as records, one per entry; longer ones as series. */
const SHORT_LIST = 10;

/** A number written exactly (detailed mode): integers grouped, others as the upstream sent them. */
const exactNum = (v: number) => (Number.isInteger(v) ? num(v) : String(v));

/**
 * Flattens an object into dotted fields. Concise: scalars stay; short scalar lists are joined; short
 * lists of records are records, one entry each with its fields together; long lists become per-key
 * series summaries (count, min, max, last, sparkline); at most 40 fields. Full (`detailed`): every field,
 * every list entry and every number exactly, nothing summarised.
 */
export function describeObject(
  value: Record<string, unknown>,
  skip: readonly string[] = [],
  full = false,
  /** Lists of records are series at any length (time series: every point counts, none shown alone). */
  series = false,
): Described {
  const parts: string[] = [];
  const fields = dict<unknown>();
  let omitted = 0;
  const number = full ? exactNum : num;
  const add = (key: string, text: string, structured: unknown) => {
    if (!full && parts.length >= MAX_FIELDS) {
      omitted++;
      return;
    }
    parts.push(`${key}=${text}`);
    fields[key] = structured;
  };
  const scalarText = (v: unknown) =>
    typeof v === 'string' ? quote(v, full ? 500 : 80) : typeof v === 'number' ? number(v) : String(v);
  const scalarJson = (v: unknown) => (typeof v === 'string' ? clean(v, full ? 500 : 200) : v);
  /** One record of a list: its scalar fields together (nested values as a field count, or whole when full). */
  const record = (item: Record<string, unknown>) => {
    const inner = full ? describeObject(item, [], true) : undefined;
    if (inner) return { text: `{${inner.parts.join(', ')}}`, json: inner.fields };
    const text: string[] = [];
    const json = dict<unknown>();
    for (const [k, v] of Object.entries(item)) {
      if (v === null || v === undefined) continue;
      const key = clean(k, 40);
      const nested = typeof v === 'object' ? `{${plural(Object.keys(v).length, 'field')}}` : undefined;
      text.push(`${key}=${nested ?? scalarText(v)}`);
      json[key] = nested ?? scalarJson(v);
    }
    return { text: `{${text.join(', ')}}`, json };
  };
  const walk = (obj: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [rawKey, v] of Object.entries(obj)) {
      const key = prefix + clean(rawKey, 40);
      if (depth === 0 && skip.includes(rawKey)) continue;
      if (v === null || v === undefined) continue;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        add(key, scalarText(v), scalarJson(v));
      else if (Array.isArray(v)) walkArray(key, v, depth);
      else if (isRecord(v) && (full || depth < MAX_DEPTH)) walk(v, `${key}.`, depth + 1);
      else if (isRecord(v))
        add(
          key,
          `{${plural(Object.keys(v).length, 'field')}}`,
          `{${plural(Object.keys(v).length, 'field')}}`,
        );
    }
  };
  const walkArray = (key: string, list: unknown[], depth: number) => {
    if (list.length === 0) return;
    if (list.every(isRecord) && (full || (list.length <= SHORT_LIST && !series))) {
      const records = list.map(record);
      add(
        key,
        records.map((r) => r.text).join('; '),
        records.map((r) => r.json),
      );
      return;
    }
    if (list.every(isRecord)) {
      // One reading of a series (src/format/shape.ts): its time field, whatever its name, and its
      // records in time order, as the views read them; the times written as ISO 8601.
      const series = readSeries(list);
      const tk = series.time;
      const keys = new Set<string>();
      for (const item of series.records) for (const k of Object.keys(item)) keys.add(k);
      for (const k of keys) {
        const present = series.records.filter((item) => item[k] !== undefined && item[k] !== null);
        const column = present.map((item) => (k === tk ? timeText(item[k]) : item[k]));
        if (column.length === 0 || column.some((x) => typeof x === 'object')) continue;
        const s = summariseSeries(
          column,
          tk && k !== tk ? present.map((item) => timeText(item[tk])) : undefined,
        );
        add(`${key}[].${clean(k, 40)}`, s.text, s.summary);
      }
      return;
    }
    const scalars = list.every((x) => typeof x !== 'object' || x === null);
    if (scalars && (full || list.length <= 8)) {
      add(key, list.map(scalarText).join(', '), list.map(scalarJson));
    } else if (scalars) {
      const s = summariseSeries(list);
      add(key, s.text, s.summary);
    } else if (full) {
      list.forEach((item, i) => {
        if (isRecord(item)) walk(item, `${key}[${i}].`, depth + 1);
        else if (Array.isArray(item)) walkArray(`${key}[${i}]`, item, depth + 1);
        else if (item !== null && item !== undefined) add(`${key}[${i}]`, scalarText(item), scalarJson(item));
      });
    } else if (depth < MAX_DEPTH) {
      add(key, `${list.length} mixed items`, `${list.length} mixed items`);
    }
  };
  walk(value, '', 0);
  if (omitted) parts.push(`(+${omitted} more fields; response_format "detailed" has them all)`);
  return { parts, fields };
}
