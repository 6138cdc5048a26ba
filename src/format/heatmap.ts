// The activity heatmap: an hourly grid keyed "a-b" (meaning not documented) and daily series.
import { extent, num, sparkline } from './text.js';

export interface HourlyGrid {
  a: [number, number];
  b: [number, number];
  max: number;
  peak: { a: number; b: number; value: number } | null;
  /** rows[a - a0][b - b0]; missing cells are 0. */
  rows: number[][];
  ignoredKeys: number;
}

/** Reads `{"a-b": n}` keys into a grid over the ranges the data actually shows. */
export function hourlyGrid(hourly: Record<string, unknown>): HourlyGrid | undefined {
  const cells: Array<[number, number, number]> = [];
  let ignoredKeys = 0;
  for (const [key, value] of Object.entries(hourly)) {
    const m = /^(-?\d+)-(-?\d+)$/.exec(key);
    if (!m || typeof value !== 'number' || !Number.isFinite(value)) ignoredKeys++;
    else cells.push([Number(m[1]), Number(m[2]), value]);
  }
  if (cells.length === 0) return undefined;
  const ea = extent(cells.map((c) => c[0])) ?? { min: 0, max: 0 };
  const eb = extent(cells.map((c) => c[1])) ?? { min: 0, max: 0 };
  const a: [number, number] = [ea.min, ea.max];
  const b: [number, number] = [eb.min, eb.max];
  // A grid wider than a day's hours or taller than a week would not be scannable; such data is summarised only.
  if (a[1] - a[0] > 31 || b[1] - b[0] > 59) return undefined;
  const rows = Array.from({ length: a[1] - a[0] + 1 }, () => new Array<number>(b[1] - b[0] + 1).fill(0));
  let peak: HourlyGrid['peak'] = null;
  for (const [x, y, v] of cells) {
    (rows[x - a[0]] as number[])[y - b[0]] = v;
    if (!peak || v > peak.value) peak = { a: x, b: y, value: v };
  }
  return { a, b, max: Math.max(0, peak?.value ?? 0), peak, rows, ignoredKeys };
}

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

export interface DailySeries {
  from: string;
  to: string;
  values: number[];
  max: number;
  peak: { date: string; value: number } | null;
  active: number;
  total: number;
}

/** A `{ "YYYY-MM-DD": n }` map as an ordered series. */
export function dailySeries(days: Record<string, unknown>): DailySeries | undefined {
  const entries = Object.entries(days)
    .filter(
      (e): e is [string, number] =>
        /^\d{4}-\d\d-\d\d$/.test(e[0]) && typeof e[1] === 'number' && Number.isFinite(e[1]),
    )
    .sort((x, y) => (x[0] < y[0] ? -1 : 1));
  const first = entries[0];
  const last = entries.at(-1);
  if (!first || !last) return undefined;
  let peak: DailySeries['peak'] = null;
  for (const [date, value] of entries) if (!peak || value > peak.value) peak = { date, value };
  const values = entries.map((e) => e[1]);
  return {
    from: first[0],
    to: last[0],
    values,
    max: peak?.value ?? 0,
    peak,
    active: values.filter((v) => v > 0).length,
    total: values.reduce((s, v) => s + v, 0),
  };
}

export const seriesLine = (s: DailySeries, width = 31) =>
  `${sparkline(s.values, width)} (${s.values.length} days ${s.from} to ${s.to}, ${s.active} active, max ${num(s.max)}${s.peak ? ` on ${s.peak.date}` : ''})`;
