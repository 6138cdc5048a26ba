// Rendering of objects whose fields the interface document does not show: every field, compactly.
import { numericStats } from './aggregate.js';
import { decimalSum } from './decimal.js';
import {
  asTime,
  isoTime,
  KEY_TIME,
  numberOf,
  numericColumn,
  parallelSeries,
  readSeries,
  idOf as shapeIdOf,
  timeKeyed,
  timeNamed,
  timeTuples,
  yearNamed,
} from './shape.js';
import { approx, clean, cleanDeep, dict, num, plural, quote, sparkline } from './text.js';

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
  /** Every point holds this one value (no minimum, maximum or change to tell). */
  allEqual?: number;
  /** The largest rise from one point to the next, and the time of the point it rose to. */
  maxRise?: number;
  maxRiseAt?: string;
  /** The largest fall from one point to the next (negative), and the time of the point it fell to. */
  maxFall?: number;
  maxFallAt?: string;
  /** The upstream sent these numbers as decimal text ("772"): read as the numbers they write. */
  sentAsText?: true;
  /** Values that were not numbers, left out of min, max and mean. */
  ignored?: number;
  /** How many of the values were numbers, when too few were to compute over (0: none was). */
  numeric?: number;
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

/** The exact difference b - a of two numbers as the upstream wrote them (1316.6 - 1316.5 is 0.1). */
const diff = (b: number, a: number) => Number(decimalSum([b, -a]));

/**
 * A series in figures: count, first, last, min, max (with its time, when the records carry one), mean,
 * and the largest rise and fall from one point to the next over the numbers (numbers sent as decimal text
 * read as numbers when every value is one); values that are not numbers are counted and left out. A series
 * of one value says so ("all 100 points are 0"). A series that is mostly not numbers is shown by its first
 * and last values, with how many were numbers.
 */
function summariseSeries(
  values: unknown[],
  /** Each value's time as the text shows it, when the records carry one. */
  times?: Array<string | undefined>,
): { text: string; summary: SeriesSummary } {
  const column = numericColumn(values);
  const sentAsText = column !== undefined && values.some((v) => typeof v === 'string');
  const read: unknown[] = column ?? values;
  const stats = numericStats(read);
  if (stats && stats.count * 2 >= values.length) {
    const at = (i: number) => times?.[i] || undefined;
    const textNote = sentAsText ? ' (numbers sent as text)' : '';
    const left = stats.ignored ? ` (${stats.ignored} non-numeric left out)` : '';
    if (stats.min === stats.max) {
      const summary: SeriesSummary = {
        count: stats.count,
        allEqual: stats.min,
        ...(sentAsText ? { sentAsText: true as const } : {}),
        ...(stats.ignored ? { ignored: stats.ignored } : {}),
      };
      return {
        text: `${COMPUTED} ${plural(stats.count, 'point')}: all ${plural(stats.count, 'point')} ${stats.count === 1 ? 'is' : 'are'} ${num(stats.min)}${textNote}${left}`,
        summary,
      };
    }
    const nums: number[] = [];
    const idx: number[] = [];
    read.forEach((v, i) => {
      if (isNum(v)) {
        nums.push(v);
        idx.push(i);
      }
    });
    // When the extremes occurred: the time of the first record holding each.
    const minAt = at(read.indexOf(stats.min));
    const maxAt = at(read.indexOf(stats.max));
    // The largest step up and down between consecutive numbers, at the time of the later point.
    let rise: { by: number; i: number } | undefined;
    let fall: { by: number; i: number } | undefined;
    for (let k = 1; k < nums.length; k++) {
      const d = (nums[k] as number) - (nums[k - 1] as number);
      if (d > 0 && (!rise || d > rise.by)) rise = { by: d, i: k };
      if (d < 0 && (!fall || d < fall.by)) fall = { by: d, i: k };
    }
    const step = (s: { by: number; i: number } | undefined) =>
      s && { by: diff(nums[s.i] as number, nums[s.i - 1] as number), at: at(idx[s.i] as number) };
    const up = step(rise);
    const down = step(fall);
    const summary: SeriesSummary = {
      count: stats.count,
      first: nums[0],
      last: nums.at(-1),
      min: stats.min,
      ...(minAt ? { minAt } : {}),
      max: stats.max,
      ...(maxAt ? { maxAt } : {}),
      mean: stats.mean,
      ...(up ? { maxRise: up.by, ...(up.at ? { maxRiseAt: up.at } : {}) } : {}),
      ...(down ? { maxFall: down.by, ...(down.at ? { maxFallAt: down.at } : {}) } : {}),
      ...(sentAsText ? { sentAsText: true as const } : {}),
      ...(stats.ignored ? { ignored: stats.ignored } : {}),
    };
    const when = (t: string | undefined) => (t ? ` at ${t}` : '');
    const steps = [
      ...(up ? [`largest rise +${num(up.by)}${when(up.at)}`] : []),
      ...(down ? [`largest fall ${num(down.by)}${when(down.at)}`] : []),
    ];
    return {
      text: `${COMPUTED} ${plural(stats.count, 'point')}: first ${num(summary.first)}, last ${num(summary.last)}, min ${num(stats.min)}${when(minAt)}, max ${num(stats.max)}${when(maxAt)}, mean ${approx(stats.mean)}${steps.length ? `, ${steps.join(', ')}` : ''}${textNote}${left} ${sparkline(nums, 24)}`,
      summary,
    };
  }
  const first = values[0];
  const last = values.at(-1);
  const numeric = stats?.count ?? 0;
  const show = (v: unknown) => (typeof v === 'string' ? quote(v, 40) : num(v));
  return {
    text: `${plural(values.length, 'value')}, ${numeric ? `only ${num(numeric)}` : 'none'} numeric: first ${show(first)}, last ${show(last)}`,
    summary: {
      count: values.length,
      numeric,
      first: typeof first === 'string' ? clean(first, 60) : first,
      last: typeof last === 'string' ? clean(last, 60) : last,
    },
  };
}

/** The time column of a series: how many points, from when to when. */
function timeSpan(times: string[]): { text: string; summary: SeriesSummary } {
  return {
    text: `${num(times.length)} points, from ${times[0]} to ${times.at(-1)}`,
    summary: { count: times.length, first: times[0], last: times.at(-1) },
  };
}

/** A time as the text shows it: a date-time string as the upstream sent it (cleaned), epoch numbers (or their digits) in ISO 8601. */
const timeText = (v: unknown) => {
  const n = numberOf(v);
  return n === undefined ? clean(v, 40) : isoTime(asTime(n) as number);
};

/**
 * A number as the text shows it, by what its field reads as: a year as its digits (2025, never 2,025); an
 * epoch time in a field named as a time as its digits with its ISO time beside it; any other number
 * grouped (`exact` in detailed mode: every decimal as sent).
 */
function numberText(name: string, v: number, full: boolean): string {
  if (Number.isInteger(v) && v > 0 && v < 10_000 && yearNamed(name)) return String(v);
  // The value first (most numbers are not in the epoch range), the name only then.
  const t = asTime(v);
  if (t !== undefined && timeNamed(name)) return `${String(v)} (${isoTime(t)})`;
  return full ? exactNum(v) : num(v);
}

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

/** The field a time-keyed record's scalar points are read under (its values, not an upstream name). */
const VALUES = '(values)';

/** Lists of records up to this long are shown as records, one per entry; longer ones as series. */
const SHORT_LIST = 10;

/** A number written exactly (detailed mode): integers grouped, others as the upstream sent them. */
const exactNum = (v: number) => (Number.isInteger(v) ? num(v) : String(v));

/**
 * Flattens an object into dotted fields. Concise: scalars stay; short scalar lists are joined; short
 * lists of records are records, one entry each with its fields together; long lists, and records keyed by
 * time (`{"1746097200": {…}}`), become per-key series summaries (count, first, last, min, max, mean,
 * largest steps, sparkline), shown after the other fields; at most 40 fields. Full (`detailed`): every
 * field (null and empty ones too), every list entry and every number exactly, nothing summarised. Upstream
 * nulls stay null in detailed and are left out of concise.
 */
export function describeObject(
  value: Record<string, unknown>,
  skip: readonly string[] = [],
  full = false,
  /** Lists of records are series at any length (time series: every point counts, none shown alone). */
  series = false,
  /** The element's own id (a batch element's): concise leaves out nested fields that only repeat it. */
  ownId?: string,
): Described {
  const repeatsId = (v: unknown) => !full && ownId !== undefined && v === ownId;
  const entries: Array<{ key: string; text: string; structured: unknown; late: boolean }> = [];
  const add = (key: string, text: string, structured: unknown, late = false) =>
    entries.push({ key, text, structured, late });
  const scalarText = (v: unknown, name: string) =>
    typeof v === 'string'
      ? quote(v, full ? 500 : 80)
      : typeof v === 'number'
        ? numberText(name, v, full)
        : String(v);
  const scalarJson = (v: unknown) => (typeof v === 'string' ? clean(v, full ? 500 : 200) : v);
  /** One record of a list: its scalar fields together (nested values as a field count, or whole when full). */
  const record = (item: Record<string, unknown>) => {
    const inner = full ? describeObject(item, [], true) : undefined;
    if (inner) return { text: `{${inner.parts.join(', ')}}`, json: inner.fields };
    const text: string[] = [];
    const json = dict<unknown>();
    for (const [k, v] of Object.entries(item)) {
      if (v === null || v === undefined || repeatsId(v)) continue;
      const key = clean(k, 40);
      const nested = typeof v === 'object' ? `{${plural(Object.keys(v).length, 'field')}}` : undefined;
      text.push(`${key}=${nested ?? scalarText(v, k)}`);
      json[key] = nested ?? scalarJson(v);
    }
    return { text: `{${text.join(', ')}}`, json };
  };
  const walk = (obj: Record<string, unknown>, prefix: string, depth: number) => {
    // Parallel lists (`{timestamps: […], viewers: […]}`): one series, each index a point, each list
    // under its own name, after the record's other fields.
    const parallel = full ? undefined : parallelSeries(obj);
    for (const [rawKey, v] of Object.entries(obj)) {
      const key = prefix + clean(rawKey, 40);
      if (depth === 0 && skip.includes(rawKey)) continue;
      if (parallel?.fields.includes(rawKey)) continue;
      if (v === undefined || (depth > 0 && repeatsId(v))) continue;
      if (v === null) {
        if (full) add(key, 'null', null);
      } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        add(key, scalarText(v, rawKey), scalarJson(v));
      else if (Array.isArray(v)) walkArray(key, v, depth);
      else if (isRecord(v) && Object.keys(v).length === 0) add(key, '{}', {});
      else if (isRecord(v)) {
        // A record keyed by time is read once: summarised as a series, or (detailed) every point in order.
        const keyed = timeKeyed(v, VALUES);
        if (keyed && !full) walkArray(key, keyed, depth, 'keyed');
        else if (keyed) {
          // Every point, in time order, each under its key as sent.
          const points = Object.entries(v).sort(
            ([a], [b]) => (asTime(numberOf(a) ?? a) ?? 0) - (asTime(numberOf(b) ?? b) ?? 0),
          );
          add(
            key,
            points
              .map(([k, p]) => `${clean(k, 40)}: ${isRecord(p) ? record(p).text : scalarText(p, rawKey)}`)
              .join('; '),
            cleanDeep(v),
          );
        } else if (full || depth < MAX_DEPTH) walk(v, `${key}.`, depth + 1);
        else
          add(
            key,
            `{${plural(Object.keys(v).length, 'field')}}`,
            `{${plural(Object.keys(v).length, 'field')}}`,
          );
      }
    }
    if (parallel) walkArray(prefix.slice(0, -1), parallel.points, depth, 'parallel');
  };

  /**
   * How a series' points came: a list of records, a time-keyed record, a list of [time, value] tuples, or
   * a record of parallel lists.
   */
  const walkArray = (
    key: string,
    list: unknown[],
    depth: number,
    shape: 'list' | 'keyed' | 'tuples' | 'parallel' = 'list',
  ) => {
    if (list.length === 0) {
      add(key, '[]', []);
      return;
    }
    const tuples = shape === 'list' && !full ? timeTuples(list) : undefined;
    if (tuples) return walkArray(key, tuples, depth, 'tuples');
    if (shape === 'list' && list.every(isRecord) && (full || (list.length <= SHORT_LIST && !series))) {
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
      const read = readSeries(list);
      const tk = read.time;
      const label = (k: string) =>
        shape === 'keyed'
          ? k === KEY_TIME
            ? `${key}{}`
            : `${key}{}.${clean(k, 40)}`
          : shape === 'tuples'
            ? `${key}[]${k === KEY_TIME ? '[0]' : k}`
            : shape === 'parallel'
              ? `${key ? `${key}.` : ''}${clean(k, 40)}`
              : `${key}[].${clean(k, 40)}`;
      // Each field's values and their points' times, gathered in one pass (first-seen order): linear in
      // the series' size, however many distinct fields its points have.
      const times = tk === undefined ? undefined : read.records.map((item) => timeText(item[tk]));
      const columns = new Map<
        string,
        { values: unknown[]; at: Array<string | undefined>; nested: boolean }
      >();
      read.records.forEach((item, i) => {
        for (const [k, v] of Object.entries(item)) {
          let column = columns.get(k);
          if (!column) {
            column = { values: [], at: [], nested: false };
            columns.set(k, column);
          }
          if (v === undefined || v === null) continue;
          if (typeof v === 'object') column.nested = true;
          column.values.push(v);
          column.at.push(times?.[i]);
        }
      });
      for (const [k, { values, at, nested }] of columns) {
        if (values.length === 0 || nested) continue;
        const s = k === tk ? timeSpan(values.map(timeText)) : summariseSeries(values, times ? at : undefined);
        add(label(k), s.text, s.summary, true);
      }
      return;
    }
    const scalars = list.every((x) => typeof x !== 'object' || x === null);
    if (scalars && (full || list.length <= 8)) {
      add(key, list.map((x) => scalarText(x, key)).join(', '), list.map(scalarJson));
    } else if (scalars) {
      const s = summariseSeries(list.filter((x) => x !== null && x !== undefined));
      add(key, s.text, s.summary, true);
    } else if (full) {
      list.forEach((item, i) => {
        if (isRecord(item)) walk(item, `${key}[${i}].`, depth + 1);
        else if (Array.isArray(item)) walkArray(`${key}[${i}]`, item, depth + 1);
        else if (item === null) add(`${key}[${i}]`, 'null', null);
        else if (item !== undefined) add(`${key}[${i}]`, scalarText(item, key), scalarJson(item));
      });
    } else if (depth < MAX_DEPTH) {
      add(key, `${list.length} mixed items`, `${list.length} mixed items`);
    }
  };
  walk(value, '', 0);
  // Concise: the element's own fields first, series summaries after; at most 40.
  const ordered = full ? entries : [...entries.filter((e) => !e.late), ...entries.filter((e) => e.late)];
  const shown = full ? ordered : ordered.slice(0, MAX_FIELDS);
  const parts = shown.map((e) => `${e.key}=${e.text}`);
  const fields = dict<unknown>();
  for (const e of shown) fields[e.key] = e.structured;
  const omitted = ordered.length - shown.length;
  if (omitted) parts.push(`(+${omitted} more fields; response_format "detailed" has them all)`);
  return { parts, fields };
}
