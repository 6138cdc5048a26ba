import { NAMES } from '../untrusted/names.js';
import { groupedText, numberOf, plainDecimal } from '../untrusted/numbers.js';
import { clean } from '../untrusted/text.js';
import { asTime, isoTime, utcIso } from '../untrusted/times.js';
import { extremes } from './aggregate.js';

/** A number exactly as sent: integers grouped (1,234,567), every decimal kept, never rounded. */
export function num(raw: unknown): string {
  const value = numberOf(raw) ?? raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return value == null ? '–' : clean(value, 24);
  return Math.abs(value) >= 1e21 ? String(value) : decimalText(plainDecimal(value));
}

/** A number by its field's name: a year as its digits, an epoch time with its ISO time, else `num`. */
export function namedNum(name: string, v: number, full = false): string {
  if (Number.isInteger(v) && v > 0 && v < 10_000 && NAMES.year(name)) return String(v);
  const t = asTime(v);
  if (t !== undefined && NAMES.time(name)) return `${String(v)} (${isoTime(t)})`;
  return full && !Number.isInteger(v) ? String(v) : num(v);
}

/** A fiat amount to the cent (43,421.80); integers as they are. */
export const money = (raw: unknown) =>
  numberOf(raw) === undefined ? num(raw) : num(raw).replace(/\.\d$/, (tenths) => `${tenths}0`);

/** A native-coin amount: every decimal the upstream sent (867.273174). */
export function coin(raw: unknown): string {
  const value = numberOf(raw);
  return value === undefined ? num(raw) : decimalText(plainDecimal(value));
}

/** Exact decimal text ("18199.65", from decimalSum) grouped for reading (18,199.65). */
export function decimalText(text: string): string {
  const [whole = '0', fraction] = text.split('.');
  return fraction === undefined ? groupedText(whole) : `${groupedText(whole)}.${fraction}`;
}

const SUFFIXES = Object.entries({ T: 1e12, B: 1e9, M: 1e6, k: 1e3 });

/** 10,000 or more shortened with a suffix that says it is rounded (12.3M, 845k); else `num`. */
export function abbrev(raw: unknown): string {
  const value = numberOf(raw) ?? raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) < 10_000) return num(value);
  const abs = Math.abs(value);
  const [suffix, size] = SUFFIXES.find(([, size]) => abs >= size) as [string, number];
  const scaled = abs / size;
  const text = trimZeros(scaled.toFixed(scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2));
  return `${value < 0 ? '-' : ''}${text}${suffix}`;
}

/** A computed value (a mean) rounded to `decimals`, marked "≈" when rounding changed it. */
export function approx(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const rounded = Number(value.toFixed(decimals));
  return rounded === value ? num(rounded) : `≈${num(rounded)}`;
}

const trimZeros = (text: string) =>
  text.includes('e') ? text : text.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/** A date-time that states its zone as UTC to the minute (`2025-05-01 11:00Z`); else as sent. */
export function utcMinute(value: unknown): { text: string; utc: boolean } {
  const iso = utcIso(value);
  if (iso) return { text: `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`, utc: true };
  return { text: clean(value, 40) || '–', utc: false };
}

export const pct = (ratio: number) => `${trimZeros((ratio * 100).toFixed(1))}%`;

/** A long id shortened for a table column (`7xKXtg…`); only where the full id stands elsewhere. */
export const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 6)}…` : id);

/** Shortens ids to their first 6 characters, or as many more as it takes for no two to read the same. */
export function shortener(ids: readonly string[]): (id: string) => string {
  let length = 6;
  const longest = ids.reduce((n, id) => Math.max(n, id.length), 0);
  const distinct = new Set(ids).size;
  while (length < longest && new Set(ids.map((id) => id.slice(0, length))).size < distinct) length++;
  return (id) => (id.length > length + 6 ? `${id.slice(0, length)}…` : id);
}

export const WHOLE_ID_ROWS = 25;
const WHOLE_TOP_ROWS = 10;

/** How a text table shows ids: past 25 rows shortened, except a ranking's first 10 and the `pointed` ones. */
export function idColumn(
  rows: number,
  what: 'ids' | 'addresses',
  options: { ranked?: boolean; pointed?: ReadonlySet<string>; shorten?: boolean } = {},
) {
  const short = (options.shorten ?? true) && rows > WHOLE_ID_ROWS;
  const top = options.ranked ? WHOLE_TOP_ROWS : 0;
  const shortened = (id: string, index: number) =>
    short && index >= top && !options.pointed?.has(id) && shortId(id) !== id;
  return {
    show: (id: string, index: number) => (shortened(id, index) ? shortId(id) : id),
    /** The note for the rows shown (`first`: the number of the first row), if any. */
    note(ids: readonly string[], first = 1): string | undefined {
      const numbers = ids.flatMap((id, i) => (shortened(id, i) ? [first + i] : []));
      if (!numbers.length) return undefined;
      const whole = ids.length - numbers.length;
      return `${what === 'ids' ? 'Ids' : 'Addresses'} shortened to their first 6 characters in ${numbers.length === 1 ? 'row' : 'rows'} ${ranges(numbers)} (${plural(numbers.length, 'row')}${whole ? `; the other ${plural(whole, 'row')} whole` : ''}): the ${what} you passed have them whole.`;
    },
  };
}

function ranges(numbers: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && (numbers[j + 1] as number) === (numbers[j] as number) + 1) j++;
    runs.push(j > i ? `${numbers[i]}–${numbers[j]}` : String(numbers[i]));
    i = j + 1;
  }
  return runs.join(', ');
}

/** A short label (a ticker symbol): bare when it is one plain word, quoted otherwise. */
export const label = (value: unknown, max = 12): string => {
  const text = clean(value, max);
  return /^[\p{L}\p{N}$._-]+$/u.test(text) ? text : JSON.stringify(text);
};

export const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

export type Column = { header: string; align?: 'left' | 'right' };

/** A plain-text table: space-aligned columns, numbers right-aligned, no trailing spaces. */
export function table(columns: Column[], rows: string[][]): string[] {
  const widths = columns.map((c) => c.header.length);
  for (const r of rows)
    for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i] ?? 0, (r[i] ?? '').length);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        columns[i]?.align === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...rows.map(line)];
}

const BARS = '▁▂▃▄▅▆▇█';

/** A sparkline of at most `width` cells (averaged into buckets), scaled to its own extent or to `range`. */
export function sparkline(
  values: ReadonlyArray<number | null>,
  width = 40,
  range?: { min: number; max: number },
): string {
  if (values.length === 0) return '';
  const buckets: Array<number | null> = [];
  const size = Math.max(1, values.length / width);
  for (let start = 0; start < values.length; start += size) {
    const known = values
      .slice(Math.floor(start), Math.floor(start + size))
      .filter((v): v is number => v !== null);
    buckets.push(known.length ? known.reduce((a, b) => a + b, 0) / known.length : null);
  }
  const drawn = buckets.filter((v): v is number => v !== null);
  const { low = 0, peak = 0 } = extremes(drawn, (v) => v);
  const { min, max } = range ?? { min: low, max: peak };
  const span = max - min;
  return buckets
    .map((v) => (v === null ? '·' : BARS[span === 0 ? 0 : Math.round(((v - min) / span) * 7)]))
    .join('');
}
