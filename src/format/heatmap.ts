// The activity heatmap: an hourly grid keyed "a-b" (meaning not documented) and daily series.
import { numberOf } from '../untrusted/numbers.js';
import { extremes } from './aggregate.js';
import { num, plural, sparkline } from './text.js';

/** Reads `{"a-b": n}` keys into a grid over the ranges the data shows. */
export function hourlyGrid(hourly: Record<string, unknown>) {
  const cells: Array<[number, number, number]> = [];
  let ignoredKeys = 0;
  for (const [key, value] of Object.entries(hourly)) {
    const m = /^(-?\d+)-(-?\d+)$/.exec(key);
    const n = numberOf(value);
    if (!m || n === undefined) ignoredKeys++;
    else cells.push([Number(m[1]), Number(m[2]), n]);
  }
  if (cells.length === 0) return undefined;
  const span = (i: 0 | 1): [number, number] => {
    const e = extremes(cells, (c) => c[i]);
    return [e.low?.[i] ?? 0, e.peak?.[i] ?? 0];
  };
  const [a, b] = [span(0), span(1)];
  // A larger grid would not be scannable: such data is summarised only.
  if (a[1] - a[0] > 31 || b[1] - b[0] > 59) return undefined;
  // rows[a - a0][b - b0]; a cell the upstream left out is 0 there, and not counted as the quietest.
  const rows = Array.from({ length: a[1] - a[0] + 1 }, () => new Array<number>(b[1] - b[0] + 1).fill(0));
  const seen = new Set<string>();
  // In reading order, so that ties go to the grid's first cell whatever the key order.
  const ordered = [...cells].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  for (const [x, y, v] of ordered) {
    (rows[x - a[0]] as number[])[y - b[0]] = v;
    seen.add(`${x}-${y}`);
  }
  const high = extremes(ordered, (c) => c[2]);
  const cell = (c: [number, number, number]) => ({ a: c[0], b: c[1], value: c[2] });
  return {
    a,
    b,
    max: Math.max(0, high.peak?.[2] ?? 0),
    peak: high.peak ? cell(high.peak) : null,
    quietest: high.low ? { ...cell(high.low), ...(high.lowTies > 1 ? { cells: high.lowTies } : {}) } : null,
    rows,
    returned: seen.size,
    cells: rows.length * (b[1] - b[0] + 1),
    ignoredKeys,
  };
}

export type HourlyGrid = NonNullable<ReturnType<typeof hourlyGrid>>;

/** A grid cell for reading: `a=3, b=14 (412)`, with how many cells share the value. */
export const cellText = (c: { a: number; b: number; value: number; cells?: number }) =>
  `a=${c.a}, b=${c.b} (${num(c.value)}${c.cells ? `; ${c.cells} cells share it` : ''})`;

const SHADES = ['·', '░', '▒', '▓', '█'];
const shade = (v: number, max: number) =>
  v <= 0 || max <= 0 ? SHADES[0] : SHADES[Math.min(4, Math.ceil((v / max) * 4))];

export function gridLines(g: HourlyGrid): string[] {
  const label = (a: number) => `a=${a}`.padEnd(`a=${g.a[1]}`.length + 2);
  const width = g.b[1] - g.b[0] + 1;
  const ticks = new Array<string>(width).fill(' ');
  for (let b = g.b[0]; b <= g.b[1]; b += 4) {
    const text = String(b);
    if (b - g.b[0] + text.length <= width) ticks.splice(b - g.b[0], text.length, ...text);
  }
  return [
    `${'b:'.padEnd(label(g.a[1]).length)}${ticks.join('').trimEnd()}`,
    ...g.rows.map((row, i) => `${label(g.a[0] + i)}${row.map((v) => shade(v, g.max)).join('')}`),
  ];
}

/** Series spanning more days than this keep only their dates with values (no calendar of blanks). */
const MAX_SPAN_DAYS = 1000;
const DAY = 86_400_000;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY;

/** A `{ "YYYY-MM-DD": n }` map as an ordered series over its calendar span, absent dates kept apart from 0. */
export function dailySeries(days: Record<string, unknown>) {
  const entries = Object.entries(days)
    .filter(([date]) => /^\d{4}-\d\d-\d\d$/.test(date) && !Number.isNaN(dayNumber(date)))
    .map(([date, v]): [string, number | undefined] => [date, numberOf(v)])
    .filter((e): e is [string, number] => e[1] !== undefined)
    .sort((x, y) => (x[0] < y[0] ? -1 : 1));
  const first = entries[0];
  const last = entries.at(-1);
  if (!first || !last) return undefined;
  const high = extremes(entries, (e) => e[1]);
  const day = ([date, value]: [string, number]) => ({ date, value });
  const start = dayNumber(first[0]);
  const span = Math.round(dayNumber(last[0]) - start) + 1;
  // One value per calendar day (null: not sent); past MAX_SPAN_DAYS none (`entries` has the dates).
  let values: Array<number | null> | undefined;
  if (span <= MAX_SPAN_DAYS) {
    values = new Array<number | null>(span).fill(null);
    for (const [date, value] of entries) values[Math.round(dayNumber(date) - start)] = value;
  }
  return {
    from: first[0],
    to: last[0],
    days: span,
    dated: entries.length,
    values,
    entries,
    max: high.peak?.[1] ?? 0,
    peak: high.peak ? day(high.peak) : null,
    quietest: high.low ? { ...day(high.low), ...(high.lowTies > 1 ? { dates: high.lowTies } : {}) } : null,
    active: entries.filter((e) => e[1] > 0).length,
    total: entries.reduce((n, e) => n + e[1], 0),
  };
}

export type DailySeries = NonNullable<ReturnType<typeof dailySeries>>;

/** A series for reading: a sparkline over its calendar days (`·`: not sent), its span, highest and lowest. */
export function seriesLine(s: DailySeries, width = 31): string {
  const line = s.values
    ? sparkline(s.values, width)
    : `${s.entries
        .slice(0, 10)
        .map(([date, value]) => `${date} ${num(value)}`)
        .join(', ')}${s.entries.length > 10 ? ', …' : ''}`;
  const gaps = s.dated < s.days ? `${s.dated} with a value (· = no value sent for that date), ` : '';
  const coverage = `${plural(s.days, 'day')} ${s.from} to ${s.to}, ${gaps}${s.active} active`;
  const low = s.quietest
    ? `, min ${num(s.quietest.value)} on ${s.quietest.date}${s.quietest.dates ? ` (and ${s.quietest.dates - 1} more ${s.quietest.dates === 2 ? 'date' : 'dates'})` : ''}`
    : '';
  return `${line ? `${line} ` : ''}(${coverage}, max ${num(s.max)}${s.peak ? ` on ${s.peak.date}` : ''}${low})`;
}
