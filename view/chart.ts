// Line charts (uPlot): every series on one chart, one field at a time. The canvas cannot read CSS, so axis,
// grid and tick colours come from the theme, resolved when drawn and again when the theme changes; the
// y axis is as wide as its widest tick label (never clipped), values in the text channel's format, times in UTC.
import uPlot from 'uplot';
import { el, n, onTheme, resolveColor, time } from './dom.js';

export interface Series {
  mintId: string;
  name: string | null;
  symbol: string | null;
  /** ms since the epoch, ascending. */
  t: number[];
  values: Record<string, Array<number | null>>;
}

/** What a person reads a series by: its symbol, else its name, else a short id (the full id on hover). */
export const seriesLabel = (s: Pick<Series, 'mintId' | 'name' | 'symbol'>) =>
  s.symbol ?? s.name ?? `${s.mintId.slice(0, 4)}…${s.mintId.slice(-4)}`;

const LIGHT = ['#1f5fcc', '#c2410c', '#15803d', '#9333ea', '#b45309', '#0e7490', '#be185d', '#4d7c0f'];
const DARK = ['#7fb0ff', '#ff9e6b', '#5fd38a', '#d19cff', '#f5c04d', '#4fd1e6', '#ff8dc0', '#b4e05a'];
const dark = () => document.documentElement.dataset.theme === 'dark';

/** The widest of the tick labels, measured in the axis font: the axis is that wide, plus ticks and gap. */
function axisSize(self: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  const axis = self.axes[axisIdx] as uPlot.Axis & { _size?: number };
  if (cycleNum > 1 && axis._size) return axis._size;
  const widest = (values ?? []).reduce((a, v) => (v.length > a.length ? v : a), '');
  self.ctx.font = (axis.font as unknown as [string])?.[0] ?? '12px system-ui';
  const text = widest ? self.ctx.measureText(widest).width / devicePixelRatio : 0;
  return Math.ceil(text + (axis.ticks?.size ?? 6) + (axis.gap ?? 5) + 6);
}

export function lineChart(box: HTMLElement, series: readonly Series[], field: string, height: number) {
  const times = [...new Set(series.flatMap((s) => s.t))].sort((a, b) => a - b);
  if (!times.length) {
    box.append(el('p', { class: 'muted' }, 'No data points in this period.'));
    return;
  }
  const index = new Map(times.map((t, i) => [t, i]));
  const columns = series.map((s) => {
    const col: Array<number | null> = new Array(times.length).fill(null);
    const values = s.values[field] ?? [];
    s.t.forEach((t, i) => {
      col[index.get(t) as number] = values[i] ?? null;
    });
    return col;
  });
  const data = [times.map((t) => t / 1000), ...columns] as uPlot.AlignedData;
  let plot: uPlot | undefined;
  const draw = () => {
    plot?.destroy();
    const fg = resolveColor('var(--fg)');
    const muted = resolveColor('var(--muted)');
    const grid = resolveColor('var(--grid)');
    const palette = dark() ? DARK : LIGHT;
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: muted, width: 1 } };
    plot = new uPlot(
      {
        width: Math.max(240, box.clientWidth),
        height,
        // Room on the right for half of the last time label, which is centred on its tick.
        padding: [12, 40, 0, 0],
        // Ticks on UTC hours and days, as they are labelled (not the browser's zone).
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [
          { label: 'time (UTC)', value: (_u, v) => (v == null ? '—' : time(v * 1000)) },
          ...series.map((s, i) => ({
            label: seriesLabel(s),
            stroke: palette[i % palette.length] as string,
            width: 1.5,
            spanGaps: true,
            value: (_u: uPlot, v: number | null) => n(v),
          })),
        ],
        axes: [
          {
            ...axis,
            values: (_u, splits) => splits.map((v) => time(v * 1000, true)),
            space: 90,
          },
          {
            ...axis,
            size: axisSize,
            values: (_u, splits) => splits.map((v) => n(v)),
          },
        ],
        legend: { live: true },
      },
      data,
      box,
    );
    // The id of each series on hover over its legend entry.
    plot.root.querySelectorAll('.u-legend .u-series').forEach((row, i) => {
      const s = series[i - 1];
      if (s) row.setAttribute('title', s.mintId);
    });
  };
  draw();
  onTheme(() => box.isConnected && draw());
  new ResizeObserver(() => plot?.setSize({ width: Math.max(240, box.clientWidth), height })).observe(box);
}
