// One reading of the shapes the interface document leaves unstated (the elements of batch analytics and
// complete results, liveMetrics, error bodies): read by what the values are, never by what our simulator
// calls them. Used by the text channel and structuredContent (src/format/generic.ts, batch.ts) and by the
// views' data (src/view-data.ts), so that all of them read the same points.
//
// The rules:
// - a series is any list of records (objects);
// - its time is the field whose values all parse as times: date-time strings ("2026-11-20T12:00:00Z",
//   "2026-11-20 12:00"), or numbers that are epoch seconds or epoch milliseconds between 2000-01-01 and
//   2100-01-01 and that run in order (a number field is a time only when it never goes back: a market cap of
//   two billion is not a date); a string field is preferred to a number field, then the first in field order;
//   a field qualifies when it is present in at least half the records;
// - its values are its numeric fields (the time field excepted);
// - an element's id is the string field whose value is one of the ids asked for, whatever its name.

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** 2000-01-01 and 2100-01-01, in ms: the range of plausible times. */
const EARLIEST = 946_684_800_000;
const LATEST = 4_102_444_800_000;
/** A date-time string: a date, optionally a time. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A string as a time (ms since the epoch), when it is a date-time in the plausible range. */
function stringTime(v: string): number | undefined {
  if (v.length > 40 || !DATE_TIME.test(v.trim())) return undefined;
  const t = Date.parse(v.trim().replace(' ', 'T'));
  return Number.isFinite(t) && t >= EARLIEST && t < LATEST ? t : undefined;
}

/** A number as a time (ms): epoch milliseconds, or epoch seconds, in the plausible range. */
function numberTime(v: number): number | undefined {
  if (!Number.isFinite(v)) return undefined;
  if (v >= EARLIEST && v < LATEST) return v;
  if (v * 1000 >= EARLIEST && v * 1000 < LATEST) return v * 1000;
  return undefined;
}

/** Any value as a time (ms since the epoch), or undefined. */
export function asTime(v: unknown): number | undefined {
  if (typeof v === 'string') return stringTime(v);
  if (typeof v === 'number') return numberTime(v);
  return undefined;
}

/** A time as the text channel writes it: ISO 8601 in UTC. */
export const isoTime = (ms: number) => new Date(ms).toISOString();

/** The field of a list of records that holds each record's time, if any (see the rules above). */
export function timeField(list: readonly unknown[]): string | undefined {
  const records = list.filter(isRecord);
  if (records.length === 0) return undefined;
  const keys: string[] = [];
  for (const r of records.slice(0, 50)) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  let numeric: string | undefined;
  for (const k of keys) {
    const present = records.map((r) => r[k]).filter((v) => v !== undefined && v !== null);
    if (present.length * 2 < records.length) continue;
    if (present.every((v) => typeof v === 'string' && stringTime(v) !== undefined)) return k;
    if (numeric === undefined && present.every((v) => typeof v === 'number')) {
      const times = present.map((v) => numberTime(v as number));
      if (times.every((t) => t !== undefined) && inOrder(times as number[])) numeric = k;
    }
  }
  return numeric;
}

/** Whether the values never go back (or never go forward): a clock read in one direction. */
function inOrder(values: readonly number[]): boolean {
  let up = true;
  let down = true;
  for (let i = 1; i < values.length; i++) {
    const a = values[i - 1] as number;
    const b = values[i] as number;
    if (b < a) up = false;
    if (b > a) down = false;
  }
  return (up || down) && (values.length < 2 || values[0] !== values.at(-1));
}

/** A list of records read as a series: its time field, and its records in time order (earliest first). */
export interface Series {
  time: string | undefined;
  /** The records with a readable time, earliest first (all records, as sent, when there is no time field). */
  records: Array<Record<string, unknown>>;
  /** Each record's time in ms, parallel to `records` (empty without a time field). */
  t: number[];
  /** The numeric fields (the time field excepted), in first-seen order. */
  fields: string[];
}

export function readSeries(list: readonly unknown[], maxFields = Infinity): Series {
  const records = list.filter(isRecord);
  const time = timeField(records);
  let ordered = records;
  let t: number[] = [];
  if (time !== undefined) {
    const timed = records
      .map((r) => ({ r, t: asTime(r[time]) }))
      .filter((x): x is { r: Record<string, unknown>; t: number } => x.t !== undefined);
    // A stable sort: records at the same time keep the order they came in.
    timed.sort((a, b) => a.t - b.t);
    ordered = timed.map((x) => x.r);
    t = timed.map((x) => x.t);
  }
  const fields: string[] = [];
  for (const r of ordered)
    for (const [k, v] of Object.entries(r))
      if (k !== time && typeof v === 'number' && Number.isFinite(v) && !fields.includes(k)) {
        if (fields.length >= maxFields) break;
        fields.push(k);
      }
  return { time, records: ordered, t, fields };
}

/**
 * The series of a record whose fields are not documented: the list of records with a time field holding
 * the most records, searched to a depth of 3 (an element of an analytics answer); undefined when it has none.
 */
export function mainSeries(value: unknown): unknown[] | undefined {
  let best: unknown[] | undefined;
  const visit = (v: unknown, depth: number) => {
    if (Array.isArray(v)) {
      if (v.length && v.every(isRecord) && (!best || v.length > best.length) && timeField(v) !== undefined)
        best = v;
      return;
    }
    if (!isRecord(v) || depth > 3) return;
    for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(value, 0);
  return best;
}

/** Field names an element of a batch answer may use for its id, tried when no requested id is given. */
const ID_KEYS = ['mintId', 'mint', 'tokenAddress', 'address', 'id'];

/**
 * The id an element of a batch answer is known by: the top-level string field whose value is one of the ids
 * asked for, whatever its name; failing that, the usual names.
 */
export function idOf(item: unknown, requested?: ReadonlySet<string>): string | undefined {
  if (!isRecord(item)) return undefined;
  if (requested?.size) {
    for (const key of ID_KEYS) {
      const v = item[key];
      if (typeof v === 'string' && requested.has(v)) return v;
    }
    for (const v of Object.values(item)) if (typeof v === 'string' && requested.has(v)) return v;
  }
  for (const key of ID_KEYS) if (typeof item[key] === 'string') return item[key];
  return undefined;
}

/** Field names a message may have, tried first; then any string, breadth first. */
const MESSAGE_KEYS = ['error', 'message', 'msg', 'detail', 'reason', 'title', 'description'];
/** Fields that are not a message even when they are strings (a status word, a code, a time, an id). */
const NOT_MESSAGE = /^(success|status|code|type|kind|timestamp|time|at)$|id$|address$/i;

/**
 * The message of an error (a failed request's body, an element of `errors`): the first usual message field,
 * at any depth up to 3; else the longest string that is not a status, code, time or id. Undefined when none.
 */
export function messageOf(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value.trim() ? value : undefined;
  if (!isRecord(value) || depth > 3) return undefined;
  for (const key of MESSAGE_KEYS) {
    const v = value[key];
    if (typeof v === 'string' && v.trim()) return v;
  }
  for (const key of MESSAGE_KEYS) {
    const nested = isRecord(value[key]) ? messageOf(value[key], depth + 1) : undefined;
    if (nested) return nested;
  }
  let longest: string | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && v.trim() && !NOT_MESSAGE.test(k) && asTime(v) === undefined)
      if (!longest || v.length > longest.length) longest = v;
  }
  if (longest) return longest;
  for (const v of Object.values(value)) {
    const nested = isRecord(v) ? messageOf(v, depth + 1) : undefined;
    if (nested) return nested;
  }
  return undefined;
}
