// Text primitives shared by every result: cleaning untrusted strings, numbers, tables, sparklines.
// (biome.json allows control characters in this file's regular expressions: removing them is the point.)
import { plainDecimal } from './decimal.js';
import { numberOf } from './shape.js';

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// C0/C1 controls, zero-width characters, bidirectional overrides and isolates, BOM, interlinear annotations,
// variation selectors (U+FE00–FE0F; U+E0100–E01EF) and tag characters (U+E0000–E007F): the last two are
// astral, written as their surrogate pairs (high \udb40).
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|[\ufe00-\ufe0f]|\udb40[\udc00-\udc7f\udd00-\uddef]/g;
/** Printable ASCII, single spaces between words, none at either end: already clean. */
const PLAIN = /^(?:[!-~]+(?: [!-~]+)*)?$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Makes a string that came from the upstream (and so perhaps from a token's creator) safe to show:
 * no control, invisible or direction-changing characters, no line breaks, whitespace folded,
 * invalid UTF-16 replaced, at most `max` characters.
 */
export function clean(value: unknown, max = 120): string {
  const raw = String(value ?? '');
  // Most values are plain printable ASCII with single spaces: nothing to remove.
  if (raw.length <= max && PLAIN.test(raw)) return raw;
  let text = fold(raw).replace(LONE_SURROGATE, '\ufffd').trim();
  if (text.length > max) text = `${text.slice(0, max - 1).replace(LONE_SURROGATE, '')}…`;
  return text;
}

/** Anything `clean` removes or folds: escape sequences, controls, invisible and direction characters. */
// (Line and paragraph separators are whitespace other than a space: the last alternative.)
const DISGUISE = new RegExp(`${INVISIBLE.source}|\\s\\s|[^\\S ]`);

/**
 * What `clean` keeps of a string, before it cuts it: escape sequences, controls, invisible and direction
 * characters removed, line breaks and whitespace runs folded to one space. Secrets are looked for in this
 * form too, so that no cleaning can rebuild one that was disguised (src/redact.ts).
 */
export function fold(raw: string): string {
  if (!DISGUISE.test(raw)) return raw;
  return raw.replace(ANSI, '').replace(BREAKS, ' ').replace(INVISIBLE, '').replace(/\s+/g, ' ');
}

const ANSI_HERE = new RegExp(ANSI.source, 'y');
const VISIBLE_ASCII_RUN = /[!-~]+/y;
const INVISIBLE_ONE = new RegExp(`^(?:${INVISIBLE.source})$`);
const BREAK_ONE = new RegExp(`^${BREAKS.source}$`);

/**
 * What a reader may take a string for: `fold`'s form, each remaining character in its NFKC compatibility
 * form (fullwidth `ｖ` → `v`, `ﬁ` → `fi`), with where each of its characters came from in `raw`
 * (`from[i]` to `to[i]`, end excluded). Secrets are looked for in this view and removed from those spans of
 * the original (src/redact.ts).
 */
export function readerView(raw: string): { text: string; from: number[]; to: number[] } {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  while (i < raw.length) {
    // A run of printable ASCII other than the space reads as it stands (no escape, control, invisible or
    // compatibility character is among them): taken whole, not a character at a time.
    VISIBLE_ASCII_RUN.lastIndex = i;
    if (VISIBLE_ASCII_RUN.test(raw)) {
      const end = VISIBLE_ASCII_RUN.lastIndex;
      text += raw.slice(i, end);
      for (let k = i; k < end; k++) {
        from.push(k);
        to.push(k + 1);
      }
      i = end;
      continue;
    }
    ANSI_HERE.lastIndex = i;
    if (ANSI_HERE.test(raw)) {
      i = ANSI_HERE.lastIndex;
      continue;
    }
    const char = String.fromCodePoint(raw.codePointAt(i) as number);
    const end = i + char.length;
    if (BREAK_ONE.test(char) || (!INVISIBLE_ONE.test(char) && /^\s$/.test(char))) {
      // A run of whitespace (breaks included, invisible characters within it ignored) is one space.
      if (text.endsWith(' ')) to[to.length - 1] = end;
      else {
        text += ' ';
        from.push(i);
        to.push(end);
      }
    } else if (!INVISIBLE_ONE.test(char)) {
      const shown = char.normalize('NFKC');
      for (let k = 0; k < shown.length; k++) {
        from.push(i);
        to.push(end);
      }
      text += shown;
    }
    i = end;
  }
  return { text, from, to };
}

const BINARY = /[\u0000-\u0008\u000e-\u001f\ufffd]/g;

/** NUL, replacement characters (bytes that were not UTF-8) or many controls: data that is not text. */
export function looksBinary(text: string): boolean {
  return text.includes('\u0000') || (text.match(BINARY) ?? []).length > text.length / 20;
}

/** An upstream string shown in text: cleaned and quoted, so it reads as data, never as the server's words. */
export const quote = (value: unknown, max = 120): string => JSON.stringify(clean(value, max));

/**
 * A caller's own value echoed back in an error: shown exactly, as a JSON string literal, with
 * invisible and direction-changing characters escaped (`\u202e`) rather than removed.
 */
export function literal(value: string, max = 48): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  // Each UTF-16 unit escaped (an astral character is two).
  return JSON.stringify(cut.replace(LONE_SURROGATE, '\ufffd')).replace(INVISIBLE, (c) =>
    c.replace(/[\s\S]/g, (u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/**
 * A record for keys that come from the upstream: no prototype, so `"__proto__"` and `"constructor"` are
 * keys like any other, never inherited values.
 */
export const dict = <T>(): Record<string, T> => Object.create(null);

/** Cleans every string inside a JSON value (keys too); used where upstream objects pass through whole. */
export function cleanDeep(value: unknown, max = 500): unknown {
  if (typeof value === 'string') return clean(value, max);
  if (Array.isArray(value)) return value.map((v) => cleanDeep(v, max));
  if (value && typeof value === 'object') {
    const out = dict<unknown>();
    for (const [k, v] of Object.entries(value)) out[clean(k, 80)] = cleanDeep(v, max);
    return out;
  }
  return value;
}

/**
 * A number for reading, exactly as the upstream sent it: integers grouped (1,234,567), other numbers with
 * every decimal they have (2,693.9, 43,421.8234, 0.0000123), never rounded, so no rounded figure reads as
 * exact ('≈' marks computed values that are rounded: `approx`). '–' for a missing value; anything else
 * that is not a finite number, as cleaned text.
 */
export function num(raw: unknown): string {
  // A number sent as decimal text ("3412") reads as the number it writes.
  const value = numberOf(raw) ?? raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return value == null ? '–' : clean(value, 24);
  if (Number.isInteger(value)) return grouped(value);
  if (Math.abs(value) >= 1e21) return String(value);
  return decimalText(plainDecimal(value));
}

/**
 * A fiat amount to the cent (43,421.80); integers as they are. Never rounded: digits below the cent that the
 * upstream sent are kept (43,421.8234), so that a printed total is the sum of the printed amounts.
 */
export function money(raw: unknown): string {
  const value = numberOf(raw) ?? raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || Number.isInteger(value)) return num(value);
  const [whole, fraction = ''] = plainDecimal(value).split('.');
  return `${groupedText(whole ?? '0')}.${fraction.padEnd(2, '0')}`;
}

/** A native-coin amount (or any amount whose digits matter): every decimal the upstream sent (867.273174). */
export function coin(raw: unknown): string {
  const value = numberOf(raw) ?? raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return num(value);
  return decimalText(plainDecimal(value));
}

/** Exact decimal text ("18199.65", from decimalSum) grouped for reading (18,199.65). */
export function decimalText(text: string): string {
  const [whole = '0', fraction] = text.split('.');
  return fraction === undefined ? groupedText(whole) : `${groupedText(whole)}.${fraction}`;
}

const groupedText = (whole: string) => whole.replace(/\B(?=(\d{3})+$)/g, ',');

const SUFFIXES: Array<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/**
 * A large magnitude shortened with a visible suffix (12.3M, 845k) where exactness is not the point (a
 * market cap in a ranked table); below 10,000 the number as `num` writes it. The suffix says it is rounded.
 */
export function abbrev(raw: unknown): string {
  const value = numberOf(raw) ?? raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) < 10_000) return num(value);
  const abs = Math.abs(value);
  for (const [size, suffix] of SUFFIXES) {
    if (abs >= size || suffix === 'k') {
      const scaled = abs / size;
      const digits = scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2;
      const text = trimZeros(scaled.toFixed(digits));
      return `${value < 0 ? '-' : ''}${text}${suffix}`;
    }
  }
  return num(value);
}

/**
 * A computed value (a mean) rounded to `decimals` for reading, marked "≈" when rounding changed it, so a
 * rounded figure never reads as exact; structuredContent carries the value itself.
 */
export function approx(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const rounded = Number(value.toFixed(decimals));
  const text = Number.isInteger(rounded) ? grouped(rounded) : decimalText(plainDecimal(rounded));
  return rounded === value ? text : `≈${text}`;
}

/** The smallest and largest of `values` by a loop (a spread over an upstream-sized list overflows the stack). */
export function extent(values: Iterable<number>): { min: number; max: number } | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? { min, max } : undefined;
}

/** An integer with thousands separators (1,234,567); toLocaleString cost ~10 µs a call in a server that idles between calls. */
export const grouped = (value: number) => String(value).replace(/\B(?=(\d{3})+$)/g, ',');

const trimZeros = (text: string) =>
  text.includes('e') ? text : text.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/**
 * A number for compact JSON: exact, as the upstream sent it (a finite number, or decimal text that writes a
 * number exactly: "3412", "123.45"), else null. The one reading of a documented number, whatever its type.
 */
export const exact = (value: unknown) => numberOf(value) ?? null;

const ZONED = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)$/i;

/**
 * A date-time that states its zone (`Z` or an offset such as `-05:00`) as UTC ISO text: `Z` kept as sent,
 * an offset converted (`2025-05-01T06:00:00-05:00` → `2025-05-01T11:00:00Z`). Undefined for anything else:
 * a time without a zone names no instant, so it is never called UTC.
 */
export function utcIso(value: unknown): string | undefined {
  if (typeof value !== 'string' || !ZONED.test(value)) return undefined;
  if (/z$/i.test(value)) return value.toUpperCase();
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const iso = new Date(at).toISOString();
  return ZONED.exec(value)?.[1] ? iso : iso.replace('.000Z', 'Z');
}

/** A date-time for a table: UTC to the minute (`2025-05-01 11:00Z`) where it states its zone; else as sent. */
export function utcMinute(value: unknown): { text: string; utc: boolean } {
  const iso = utcIso(value);
  if (iso) return { text: `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`, utc: true };
  return { text: clean(value, 40) || '–', utc: false };
}

/** A ratio (0.345) as a percentage (34.5%). */
export const pct = (ratio: number) => `${trimZeros((ratio * 100).toFixed(1))}%`;

/** A long id shortened for a table column (`7xKXtg…`); only where the full id stands elsewhere. */
export const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 6)}…` : id);

/**
 * Shortens each of `ids` to its first characters, 6 or as many more as it takes for no two to read the
 * same (`7xKXtg…`), so that a shortened list still names every id.
 */
export function shortener(ids: readonly string[]): (id: string) => string {
  let length = 6;
  let longest = 0;
  for (const id of ids) if (id.length > longest) longest = id.length;
  const distinct = new Set(ids).size;
  while (length < longest && new Set(ids.map((id) => id.slice(0, length))).size < distinct) length++;
  return (id) => (id.length > length + 6 ? `${id.slice(0, length)}…` : id);
}

/** Tables of up to this many rows show every id whole. */
export const WHOLE_ID_ROWS = 25;
/** A ranked table's first rows show their ids whole, at any length: the ones an assistant acts on next. */
export const WHOLE_TOP_ROWS = 10;

/**
 * How a text table shows ids. Whole in a table of up to 25 rows, in the first 10 rows of a ranked table and
 * in the rows the headline or the next step points at (`pointed`): those are the ids an assistant passes to
 * the next tool, and no tool takes a prefix. The other rows of a longer table are shortened only where the
 * budget forces it (`shorten`: the caller's budget; by default any longer table, whose whole ids would cost
 * more tokens than the rows are worth); structuredContent has them whole. `note` says exactly which rows
 * were shortened (the same sentence in both channels: `idsShortened`); nothing when none was.
 */
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
    /** The id of the row at `index` (0-based, in the table shown). */
    show: (id: string, index: number) => (shortened(id, index) ? shortId(id) : id),
    /** For the rows shown (their ids in table order; `first`: the number of the first row): the note, if any. */
    note(ids: readonly string[], first = 1): string | undefined {
      const numbers = ids.flatMap((id, i) => (shortened(id, i) ? [first + i] : []));
      if (!numbers.length) return undefined;
      const whole = ids.length - numbers.length;
      return `${what === 'ids' ? 'Ids' : 'Addresses'} shortened to their first 6 characters in ${numbers.length === 1 ? 'row' : 'rows'} ${ranges(numbers)} (${plural(numbers.length, 'row')}${whole ? `; the other ${plural(whole, 'row')} whole` : ''}): the ${what} you passed have them whole.`;
    },
  };
}

/** Row numbers as runs: 11–12, 14, 17–20. */
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

/** A short label (a ticker symbol) bare when it is one plain word, quoted otherwise. */
export const label = (value: unknown, max = 12): string => {
  const text = clean(value, max);
  return /^[\p{L}\p{N}$._-]+$/u.test(text) ? text : JSON.stringify(text);
};

export const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

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

/**
 * A one-line sparkline of at most `width` cells (longer series are averaged into buckets). A null is a value
 * not known (a date the upstream did not send): drawn `·`, never as a low bar, and left out of the averages.
 */
export function sparkline(values: ReadonlyArray<number | null>, width = 40): string {
  if (values.length === 0) return '';
  const buckets: Array<number | null> = [];
  const size = Math.max(1, values.length / width);
  for (let start = 0; start < values.length; start += size) {
    const known = values
      .slice(Math.floor(start), Math.floor(start + size))
      .filter((v): v is number => v !== null);
    buckets.push(known.length ? known.reduce((a, b) => a + b, 0) / known.length : null);
  }
  const { min, max } = extent(buckets.filter((v): v is number => v !== null)) ?? { min: 0, max: 0 };
  const span = max - min;
  return buckets
    .map((v) => (v === null ? '·' : BARS[span === 0 ? 0 : Math.round(((v - min) / span) * 7)]))
    .join('');
}
