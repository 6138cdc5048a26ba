// Series in shapes the interface document leaves unstated, read by what the values are. A series is a list
// of records, a time-keyed record, [time, value] tuples or parallel lists; its time is the field present in
// at least half the records whose values all parse as times (date-time text preferred, else epoch s or ms
// in 2000–2100 that never go back); its values are its numeric fields (numbers, or decimal text).

import { numericColumn } from './numbers.js';
import { anyTime, inOrder, keyTime, numberTime, stringTime } from './times.js';

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field of a list of records that holds each record's time (candidates: 64 fields of 50 records). */
export function timeField(list: readonly unknown[]): string | undefined {
  const records = list.filter(isRecord);
  if (records.length === 0) return undefined;
  const keys = new Set<string>();
  for (const r of records.slice(0, 50)) for (const k of Object.keys(r)) if (keys.size < 64) keys.add(k);
  let numeric: string | undefined;
  for (const k of keys) {
    const present = records.map((r) => r[k]).filter((v) => v !== undefined && v !== null);
    if (present.length * 2 < records.length) continue;
    if (present.every((v) => typeof v === 'string' && stringTime(v) !== undefined)) return k;
    const numbers = numericColumn(present);
    if (numeric === undefined && numbers) {
      const times = numbers.map((v) => numberTime(v as number));
      if (times.every((t) => t !== undefined) && inOrder(times as number[])) numeric = k;
    }
  }
  return numeric;
}

/** A list of records as a series: those with a readable time, earliest first (no time field: all, as sent). */
export function readSeries(list: readonly unknown[], maxFields = Infinity) {
  const records = list.filter(isRecord);
  const time = timeField(records);
  let ordered = records;
  let t: number[] = [];
  if (time !== undefined) {
    const timed = records
      .map((r) => ({ r, t: anyTime(r[time]) }))
      .filter((x): x is { r: Record<string, unknown>; t: number } => x.t !== undefined);
    timed.sort((a, b) => a.t - b.t);
    ordered = timed.map((x) => x.r);
    t = timed.map((x) => x.t);
  }
  const fields: string[] = [];
  const columns = columnsOf(ordered);
  for (const [k, { values }] of columns) {
    if (fields.length >= maxFields) break;
    if (
      k !== time &&
      (values.some((v) => typeof v === 'number' && Number.isFinite(v)) || numericColumn(values))
    )
      fields.push(k);
  }
  return { time, records: ordered, t, fields, columns };
}
export type Series = ReturnType<typeof readSeries>;

/** One field's values present, each with the index of its record; `nested`: some is a list or a record. */
export type SeriesColumn = { values: unknown[]; at: number[]; nested: boolean };

function columnsOf(records: ReadonlyArray<Record<string, unknown>>): Map<string, SeriesColumn> {
  const columns = new Map<string, SeriesColumn>();
  records.forEach((item, i) => {
    for (const [k, v] of Object.entries(item)) {
      let column = columns.get(k);
      if (!column) {
        column = { values: [], at: [], nested: false };
        columns.set(k, column);
      }
      if (v === undefined || v === null) continue;
      if (typeof v === 'object') column.nested = true;
      column.values.push(v);
      column.at.push(i);
    }
  });
  return columns;
}

/** The field a time-keyed record's points carry their key's time in (not an upstream name). */
export const KEY_TIME = '(key)';

/** A record whose keys are all times: its points, earliest first, each with its key's time under KEY_TIME. */
export function timeKeyed(value: unknown, name = 'value'): Array<Record<string, unknown>> | undefined {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0) return undefined;
  const points: Array<Record<string, unknown>> = [];
  for (const k of keys) {
    const t = keyTime(k);
    if (t === undefined) return undefined;
    const v = value[k];
    points.push(isRecord(v) ? { [KEY_TIME]: t, ...v } : { [KEY_TIME]: t, [name]: v });
  }
  return points.sort((a, b) => (a[KEY_TIME] as number) - (b[KEY_TIME] as number));
}

/** [time, value…] tuples in clock order as points, earliest first: time under KEY_TIME, then `[1]`, `[2]`… */
export function timeTuples(value: unknown): Array<Record<string, unknown>> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const points: Array<Record<string, unknown>> = [];
  for (const item of value) {
    if (!Array.isArray(item) || item.length < 2 || item.length > 16) return undefined;
    const t = anyTime(item[0]);
    if (t === undefined) return undefined;
    const point: Record<string, unknown> = { [KEY_TIME]: t };
    for (let i = 1; i < item.length; i++) point[`[${i}]`] = item[i];
    points.push(point);
  }
  if (!inOrder(points.map((p) => p[KEY_TIME] as number))) return undefined;
  return points.sort((a, b) => (a[KEY_TIME] as number) - (b[KEY_TIME] as number));
}

function timeList(list: readonly unknown[]): boolean {
  const times = list.map(anyTime);
  return times.length > 0 && times.every((t) => t !== undefined) && inOrder(times as number[]);
}

const PARALLEL_FIELDS = 64;

/** Parallel lists (`{timestamps: [t0, …], viewers: [v0, …]}`): a time list and scalar lists of its length. */
export function parallelSeries(
  value: unknown,
): { points: Array<Record<string, unknown>>; fields: string[] } | undefined {
  if (!isRecord(value)) return undefined;
  const lists: Array<[string, unknown[]]> = [];
  for (const [k, v] of Object.entries(value)) {
    if (lists.length >= PARALLEL_FIELDS) break;
    if (Array.isArray(v) && v.length > 0 && v.every((x) => x === null || typeof x !== 'object'))
      lists.push([k, v]);
  }
  // The first time list that has another list of its length sets the length.
  for (const [, times] of lists) {
    if (!timeList(times)) continue;
    const same = lists.filter(([, v]) => v.length === times.length);
    if (same.length < 2) continue;
    const points = times.map((_, i) => Object.fromEntries(same.map(([k, v]) => [k, v[i]])));
    if (timeField(points) === undefined) continue;
    return { points, fields: same.map(([k]) => k) };
  }
  return undefined;
}

/** The series (records, tuples, time-keyed or parallel lists) holding the most records, to a depth of 3. */
export function mainSeries(value: unknown): unknown[] | undefined {
  let best: unknown[] | undefined;
  const visit = (v: unknown, depth: number, name: string) => {
    const list = Array.isArray(v) ? (timeTuples(v) ?? v) : (timeKeyed(v, name) ?? parallelSeries(v)?.points);
    if (list) {
      if (
        list.length &&
        list.every(isRecord) &&
        (!best || list.length > best.length) &&
        timeField(list) !== undefined
      )
        best = list;
      if (Array.isArray(v) || list.length) return;
    }
    if (!isRecord(v) || depth > 3) return;
    for (const [k, x] of Object.entries(v)) visit(x, depth + 1, k);
  };
  visit(value, 0, 'value');
  return best;
}
