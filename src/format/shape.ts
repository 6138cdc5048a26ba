// One reading of the shapes the interface document leaves unstated (the elements of batch analytics and
// complete results, liveMetrics, error bodies): read by what the values are, never by what our simulator
// calls them. Used by the text channel and structuredContent (src/format/generic.ts, batch.ts) and by the
// views' data (src/view-data.ts), so that all of them read the same points.
//
// The rules:
// - a series is any list of records (objects), a record whose keys are all times (epoch seconds or
//   milliseconds as digits, or date-times: `{"1746097200": {viewers: 772}, …}`), each key the time of its
//   value, or a record of parallel lists, one of them times in order and others of its length
//   (`{timestamps: [t0, …], viewers: [v0, …]}`), each index a point (see seriesList);
// - its time is the field whose values all parse as times: date-time strings ("2026-11-20T12:00:00Z",
//   "2026-11-20 12:00:00": a time without a zone is ordered as if UTC but never shown as UTC), or numbers
//   that are epoch seconds or epoch milliseconds between 2000-01-01 and 2100-01-01 and that run in order (a
//   number field is a time only when it never goes back: a market cap of two billion is not a date); a
//   string field is preferred to a number field, then the first in field order;
//   a field qualifies when it is present in at least half the records;
// - its values are its numeric fields (the time field excepted): numbers, or numbers sent as decimal text
//   ("772", "1316.5") where every value of the field is a number or such text (numericColumn);
// - an element's id is the string field whose value is one of the ids asked for, whatever its name, at any
//   depth up to 4 (nearest first: `{token: {mint_address: …}}`), reading at most 200 records.

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
  // A time without a zone is read as if UTC, so that order and steps never depend on this machine's zone;
  // the text shows it as sent, never as UTC (timeText in generic.ts).
  const s = v.trim().replace(' ', 'T');
  const t = Date.parse(/T[^Z+-]*$/.test(s) ? `${s}Z` : s);
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
  // The candidates: the first 64 fields of the first 50 records (a time field is one every record has).
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
      .map((r) => ({ r, t: asTime(numberOf(r[time]) ?? r[time]) }))
      .filter((x): x is { r: Record<string, unknown>; t: number } => x.t !== undefined);
    // A stable sort: records at the same time keep the order they came in.
    timed.sort((a, b) => a.t - b.t);
    ordered = timed.map((x) => x.r);
    t = timed.map((x) => x.t);
  }
  // Each field's values present, gathered in one pass (first-seen order): linear in the answer's size,
  // however many distinct fields its records have.
  const columns = new Map<string, unknown[]>();
  for (const r of ordered)
    for (const [k, v] of Object.entries(r)) {
      if (k === time) continue;
      let column = columns.get(k);
      if (!column) {
        column = [];
        columns.set(k, column);
      }
      if (v !== undefined && v !== null) column.push(v);
    }
  const fields: string[] = [];
  for (const [k, present] of columns) {
    if (fields.length >= maxFields) break;
    if (present.some((v) => typeof v === 'number' && Number.isFinite(v)) || numericColumn(present))
      fields.push(k);
  }
  return { time, records: ordered, t, fields };
}

/** Decimal text as the upstream may send a number: "772", "-1316.5", "1250000.50" (no exponent, no sign +). */
const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** A string of decimal text as the number it writes, when the number holds it exactly; else undefined. */
export function numericText(v: string): number | undefined {
  if (v.length > 40 || !DECIMAL.test(v)) return undefined;
  const n = Number(v);
  const canonical = v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
  return Number.isFinite(n) && String(n) === (canonical === '-0' ? '0' : canonical) ? n : undefined;
}

/** A value as a number: a finite number, or decimal text (numericText). */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  return typeof v === 'string' ? numericText(v) : undefined;
}

/**
 * The values of one field as numbers, when every one is a finite number or decimal text (a field sent as
 * text is read only whole: "772" beside "n/a" is not a number field); undefined otherwise or when empty.
 */
export function numericColumn(values: readonly unknown[]): number[] | undefined {
  if (values.length === 0) return undefined;
  const out: number[] = [];
  for (const v of values) {
    const n = numberOf(v);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

/** A record key as a time (ms): a date-time, or epoch seconds or milliseconds written in digits. */
function keyTime(k: string): number | undefined {
  if (/^\d{9,13}$/.test(k)) return numberTime(Number(k));
  return stringTime(k);
}

/** The field a time-keyed record's points carry their key in (not an upstream name: the key itself). */
export const KEY_TIME = '(key)';

/**
 * A record whose keys are all times (at least one): its points as a list of records, earliest first, each
 * with its key's time (ms) under KEY_TIME; a point that is not a record is `{[KEY_TIME], [name]: value}`.
 * Undefined for any other value.
 */
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

/**
 * A list of tuples whose first element is a time (`[[1746097200000, 772], …]`, epoch s or ms, or a
 * date-time; in order, as a clock reads): its points as records, earliest first, each tuple's time (ms)
 * under KEY_TIME and its other elements under `[1]`, `[2]`… (positions, not upstream names). Undefined
 * for any other value.
 */
export function timeTuples(value: unknown): Array<Record<string, unknown>> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const points: Array<Record<string, unknown>> = [];
  const times: number[] = [];
  for (const item of value) {
    if (!Array.isArray(item) || item.length < 2 || item.length > 16) return undefined;
    const t = asTime(numberOf(item[0]) ?? item[0]);
    if (t === undefined) return undefined;
    const point: Record<string, unknown> = { [KEY_TIME]: t };
    for (let i = 1; i < item.length; i++) point[`[${i}]`] = item[i];
    points.push(point);
    times.push(t);
  }
  if (!inOrder(times) && times.length > 1) return undefined;
  return points.sort((a, b) => (a[KEY_TIME] as number) - (b[KEY_TIME] as number));
}

/** Whether a list's values are all times (epoch s or ms, as numbers or digits, or date-times) read in order. */
function timeList(list: readonly unknown[]): boolean {
  const times: number[] = [];
  for (const v of list) {
    const t = asTime(numberOf(v) ?? v);
    if (t === undefined) return false;
    times.push(t);
  }
  return times.length > 0 && inOrder(times);
}

/** Parallel lists are read only up to this many fields (the time list and its value lists). */
const PARALLEL_FIELDS = 64;

/**
 * A record sent as parallel lists (`{timestamps: [t0, t1, …], viewers: [v0, v1, …], market_cap: […]}`):
 * one field a list of times in order, and other fields lists of scalars of the same length; each index a
 * point. Its points as records, one per index, each with every such field under its own name (the time
 * list's too, as sent: timeField finds it), and the fields read, in field order. Undefined for any other
 * value (no time list, or no other list of its length).
 */
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
  // The first time list that has at least one other list of its length sets the length.
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

/**
 * A value as a series' list of records: a list of records, a list of time tuples (timeTuples), a
 * time-keyed record (timeKeyed), or a record of parallel lists (parallelSeries).
 */
export function seriesList(value: unknown, name?: string): unknown[] | undefined {
  if (Array.isArray(value)) return timeTuples(value) ?? value;
  return timeKeyed(value, name) ?? parallelSeries(value)?.points;
}

/**
 * Field names that read as a point in time (`checked_at`, `from_ts`, `since_epoch`, `startTime`,
 * `updatedAt`): `Time` only after a word that names an event (start, end, update…), since `totalStreamingTime`
 * or `watch_time` is a duration.
 */
const TIME_NAME =
  /(^|[_\-. ])(ts|timestamp|epoch|at|date|since|until|when)$|[a-z0-9](At|Ts|Epoch|Date|Timestamp|Since|Until)$|(^|[_\-. ]|[a-z0-9])(start|end|begin|finish|create|created|update|updated|modified|seen|check|checked|sample|sampled|observed|event|last|first)[_\-. ]?time$/i;
/** Whether a field's name reads as a point in time (a number there may be shown as its ISO time). */
export const timeNamed = (name: string) => TIME_NAME.test(name);
/** Field names that read as a year (`year`, `calendarYear`, `start_year`). */
export const yearNamed = (name: string) => /(^|[_\-. ])year$|[a-z0-9]Year$|^year$/i.test(name);

/**
 * The series of a record whose fields are not documented: the list of records with a time field holding
 * the most records, searched to a depth of 3 (an element of an analytics answer); undefined when it has none.
 */
export function mainSeries(value: unknown): unknown[] | undefined {
  let best: unknown[] | undefined;
  const visit = (v: unknown, depth: number, name: string) => {
    const list = seriesList(v, name);
    if (list) {
      if (
        list.length &&
        list.every(isRecord) &&
        (!best || list.length > best.length) &&
        timeField(list) !== undefined
      )
        best = list;
      if (Array.isArray(v)) return;
      if (list.length) return;
    }
    if (!isRecord(v) || depth > 3) return;
    for (const [k, x] of Object.entries(v)) visit(x, depth + 1, k);
  };
  visit(value, 0, 'value');
  return best;
}

/** Field names an element of a batch answer may use for its id, tried when no requested id is given. */
const ID_KEYS = ['mintId', 'mint', 'tokenAddress', 'address', 'id'];

/** How deep, and through how many records, an element is searched for a requested id. */
const ID_DEPTH = 4;
const ID_RECORDS = 200;

/**
 * The id an element of a batch answer is known by: the string field whose value is one of the ids asked
 * for, whatever its name, nearest the top first (breadth first through nested records, not lists, to a
 * depth of 4 and at most 200 records); failing that, a top-level field of the usual names.
 */
export function idOf(item: unknown, requested?: ReadonlySet<string>): string | undefined {
  if (!isRecord(item)) return undefined;
  if (requested?.size) {
    let level: Array<Record<string, unknown>> = [item];
    let read = 0;
    for (let depth = 0; depth <= ID_DEPTH && level.length; depth++) {
      const next: Array<Record<string, unknown>> = [];
      for (const r of level) {
        if (++read > ID_RECORDS) return fallbackId(item);
        for (const key of ID_KEYS) {
          const v = r[key];
          if (typeof v === 'string' && requested.has(v)) return v;
        }
        for (const v of Object.values(r)) {
          if (typeof v === 'string' && requested.has(v)) return v;
          if (isRecord(v)) next.push(v);
        }
      }
      level = next;
    }
  }
  return fallbackId(item);
}

function fallbackId(item: Record<string, unknown>): string | undefined {
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
