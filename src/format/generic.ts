// Rendering of objects whose fields the interface document does not show: every field, compactly.
import { decimalSum, numberOf, numericColumn } from '../untrusted/numbers.js';
import { type ListNode, type Node, RecordNode, type SeriesNode } from '../untrusted/reader.js';
import { KEY_TIME } from '../untrusted/series.js';
import { clean, cleanDeep, dict, quote } from '../untrusted/text.js';
import { asTime, isoTime } from '../untrusted/times.js';
import { numericStats } from './aggregate.js';
import { approx, namedNum, num, plural, sparkline } from './text.js';

const MAX_FIELDS = 40;
const MAX_DEPTH = 3;

/** A series in figures (min and max with their times, largest rise and fall); non-numbers left out. */
function summariseSeries(values: unknown[], times?: Array<string | undefined>) {
  const column = numericColumn(values);
  const sentAsText = column !== undefined && values.some((v) => typeof v === 'string');
  const read: unknown[] = column ?? values;
  const stats = numericStats(read);
  if (!stats || stats.count * 2 < values.length) {
    const [first, last] = [values[0], values.at(-1)];
    const numeric = stats?.count ?? 0;
    const show = (v: unknown) => (typeof v === 'string' ? quote(v, 40) : num(v));
    const kept = (v: unknown) => (typeof v === 'string' ? clean(v, 60) : v);
    return {
      text: `${plural(values.length, 'value')}, ${numeric ? `only ${num(numeric)}` : 'none'} numeric: first ${show(first)}, last ${show(last)}`,
      summary: { count: values.length, numeric, first: kept(first), last: kept(last) },
    };
  }
  const notes = {
    ...(sentAsText ? { sentAsText: true as const } : {}),
    ...(stats.ignored ? { ignored: stats.ignored } : {}),
  };
  const tail = `${sentAsText ? ' (numbers sent as text)' : ''}${stats.ignored ? ` (${stats.ignored} non-numeric left out)` : ''}`;
  const head = `${COMPUTED} ${plural(stats.count, 'point')}: `;
  if (stats.min === stats.max) {
    const are = `${plural(stats.count, 'point')} ${stats.count === 1 ? 'is' : 'are'}`;
    return {
      text: `${head}all ${are} ${num(stats.min)}${tail}`,
      summary: { count: stats.count, allEqual: stats.min, ...notes },
    };
  }
  const at = (i: number) => times?.[i] || undefined;
  const idx = read.flatMap((v, i) => (typeof v === 'number' && Number.isFinite(v) ? [i] : []));
  const nums = idx.map((i) => read[i] as number);
  // The largest step up (sign 1) or down (-1) at the later point's time, exact (1316.6 - 1316.5 is 0.1).
  const step = (sign: number) => {
    let best: { d: number; k: number } | undefined;
    for (let k = 1; k < nums.length; k++) {
      const d = sign * ((nums[k] as number) - (nums[k - 1] as number));
      if (d > 0 && (!best || d > best.d)) best = { d, k };
    }
    return (
      best && {
        by: Number(decimalSum([nums[best.k] as number, -(nums[best.k - 1] as number)])),
        at: at(idx[best.k] as number),
      }
    );
  };
  const [up, down] = [step(1), step(-1)];
  const [minAt, maxAt] = [at(read.indexOf(stats.min)), at(read.indexOf(stats.max))];
  const when = (t: string | undefined) => (t ? ` at ${t}` : '');
  const rise = up ? `, largest rise +${num(up.by)}${when(up.at)}` : '';
  const fall = down ? `, largest fall ${num(down.by)}${when(down.at)}` : '';
  return {
    text: `${head}first ${num(nums[0])}, last ${num(nums.at(-1))}, min ${num(stats.min)}${when(minAt)}, max ${num(stats.max)}${when(maxAt)}, mean ${approx(stats.mean)}${rise}${fall}${tail} ${sparkline(nums, 24)}`,
    summary: {
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
      ...notes,
    },
  };
}

/** A time for the text: a date-time string as sent (cleaned), an epoch number (or digits) in ISO 8601. */
const timeText = (v: unknown) => {
  const n = numberOf(v);
  return n === undefined ? clean(v, 40) : isoTime(asTime(n) as number);
};

export const COMPUTED = 'computed over';

/** Tells the server's figures from the upstream's own fields (the document names neither). */
export const SERIES_LEGEND =
  'Series figures ("computed over N points": count, first, last, min, max, mean) are this server\'s, over the points returned; every other field (a peak or an average the upstream gives, say) is the upstream\'s own, as sent.';

export function nothingMore(value: Record<string, unknown>, skip: readonly string[] = []): boolean {
  const node = new RecordNode(value);
  return describeObject(node, skip, true).parts.join('\n') === describeObject(node, skip).parts.join('\n');
}

/** A record the document does not detail: its parts, its JSON (detailed: as sent), `same`: nothing more. */
export function described(value: Record<string, unknown>, skip: readonly string[], detailed: boolean) {
  const d = describeObject(value, skip, detailed);
  return {
    parts: d.parts,
    json: detailed ? (cleanDeep(value) as Record<string, unknown>) : d.fields,
    same: detailed && nothingMore(value, skip),
  };
}

/** Detailed: one line with a record's fields that its table row does not show; none when all are shown. */
export function extraLine(id: string, record: Record<string, unknown>, shown: readonly string[]): string[] {
  const extra = describeObject(record, shown, true).parts;
  return extra.length ? [`  ${id}: ${extra.join('; ')}`] : [];
}

/** Lists of records up to this long are shown as records, one per entry; longer ones as series. */
const SHORT_LIST = 10;

/** Flattens an object into dotted fields: `key=value` parts for the text, the same facts as JSON `fields`. */
export function describeObject(
  object: Record<string, unknown> | RecordNode,
  skip: readonly string[] = [],
  full = false,
  /** Lists of records are series at any length (time series: every point counts, none shown alone). */
  series = false,
  /** A batch element's own id: concise leaves out nested fields that only repeat it. */
  ownId?: string,
): { parts: string[]; fields: Record<string, unknown> } {
  const value = object instanceof RecordNode ? object : new RecordNode(object);
  const repeatsId = (n: Node) => !full && ownId !== undefined && n.kind === 'scalar' && n.value === ownId;
  const entries: Array<{ key: string; text: string; structured: unknown; late: boolean }> = [];
  const add = (key: string, text: string, structured: unknown, late = false) =>
    entries.push({ key, text, structured, late });
  const scalarText = (v: unknown, name: string) =>
    typeof v === 'string'
      ? quote(v, full ? 500 : 80)
      : typeof v === 'number'
        ? namedNum(name, v, full)
        : String(v);
  const scalarJson = (v: unknown) => (typeof v === 'string' ? clean(v, full ? 500 : 200) : v);
  const fieldCount = (n: RecordNode | ListNode) => `{${plural(n.size, 'field')}}`;
  /** One record of a list on one line (nested values as a field count, or whole when full). */
  const record = (item: RecordNode) => {
    if (full) {
      const inner = describeObject(item, [], true);
      return { text: `{${inner.parts.join(', ')}}`, json: inner.fields };
    }
    const text: string[] = [];
    const json = dict<unknown>();
    for (const [k, n] of item.fields) {
      if ((n.kind === 'scalar' && n.value === null) || repeatsId(n)) continue;
      const key = clean(k, 40);
      const [shown, kept] =
        n.kind === 'scalar' ? [scalarText(n.value, k), scalarJson(n.value)] : [fieldCount(n), fieldCount(n)];
      text.push(`${key}=${shown}`);
      json[key] = kept;
    }
    return { text: `{${text.join(', ')}}`, json };
  };
  const walk = (obj: RecordNode, prefix: string, depth: number) => {
    // Parallel lists (`{timestamps: […], viewers: […]}`): one series, after the record's other fields.
    const parallel = full ? undefined : obj.parallel;
    for (const [rawKey, n] of obj.fields) {
      const key = prefix + clean(rawKey, 40);
      if (depth === 0 && skip.includes(rawKey)) continue;
      if (parallel?.lists.includes(rawKey)) continue;
      if (depth > 0 && repeatsId(n)) continue;
      if (n.kind === 'scalar') {
        if (n.value !== null) add(key, scalarText(n.value, rawKey), scalarJson(n.value));
        else if (full) add(key, 'null', null);
      } else if (n.kind === 'list') walkList(key, n, depth);
      else if (n.size === 0) add(key, '{}', {});
      else if (n.keyed && !full) summarise(key, n.keyed);
      else if (n.keyed) {
        // A record keyed by time, detailed: every point, in time order, each under its key as sent.
        const points = n.timeOrdered.map(
          ([k, p]) =>
            `${clean(k, 40)}: ${p.kind === 'record' ? record(p).text : scalarText(p.kind === 'scalar' ? p.value : p.raw, rawKey)}`,
        );
        add(key, points.join('; '), cleanDeep(n.raw));
      } else if (full || depth < MAX_DEPTH) walk(n, `${key}.`, depth + 1);
      else add(key, fieldCount(n), fieldCount(n));
    }
    if (parallel) summarise(prefix.slice(0, -1), parallel);
  };
  /** A series: one summary per value field, its time field as a span; after the other fields. */
  const summarise = (key: string, s: SeriesNode) => {
    const tk = s.series.time;
    const label = (k: string) => {
      if (s.shape === 'tuples') return `${key}[]${k === KEY_TIME ? '[0]' : k}`;
      if (s.shape === 'keyed') return k === KEY_TIME ? `${key}{}` : `${key}{}.${clean(k, 40)}`;
      return `${s.shape === 'parallel' ? (key ? `${key}.` : '') : `${key}[].`}${clean(k, 40)}`;
    };
    const times = tk === undefined ? undefined : s.series.records.map((item) => timeText(item[tk]));
    for (const [k, { values, at, nested }] of s.series.columns) {
      if (values.length === 0 || nested) continue;
      if (k === tk) {
        const t = values.map(timeText);
        const span = { count: t.length, first: t[0], last: t.at(-1) };
        add(label(k), `${num(t.length)} points, from ${span.first} to ${span.last}`, span, true);
      } else {
        const summary = summariseSeries(values, times ? at.map((i) => times[i]) : undefined);
        add(label(k), summary.text, summary.summary, true);
      }
    }
  };
  const walkList = (key: string, list: ListNode, depth: number) => {
    if (list.size === 0) return add(key, '[]', []);
    const tuples = full ? undefined : list.tuples;
    if (tuples) return summarise(key, tuples);
    if (list.records) {
      if (full || (list.size <= SHORT_LIST && !series)) {
        const records = list.items.map((n) => record(n as RecordNode));
        add(
          key,
          records.map((r) => r.text).join('; '),
          records.map((r) => r.json),
        );
      } else summarise(key, list.series);
      return;
    }
    if (list.scalars && (full || list.size <= 8))
      add(key, list.raw.map((x) => scalarText(x, key)).join(', '), list.raw.map(scalarJson));
    else if (list.scalars) {
      const s = summariseSeries(list.raw.filter((x) => x !== null && x !== undefined));
      add(key, s.text, s.summary, true);
    } else if (full) {
      list.items.forEach((n, i) => {
        if (n.kind === 'record') walk(n, `${key}[${i}].`, depth + 1);
        else if (n.kind === 'list') walkList(`${key}[${i}]`, n, depth + 1);
        else if (n.value === null) add(`${key}[${i}]`, 'null', null);
        else if (n.value !== (undefined as unknown))
          add(`${key}[${i}]`, scalarText(n.value, key), scalarJson(n.value));
      });
    } else if (depth < MAX_DEPTH) add(key, `${list.size} mixed items`, `${list.size} mixed items`);
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
