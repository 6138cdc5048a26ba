// Line charts (uPlot): every series on one chart, one field at a time, in the theme's colours resolved
// for the canvas (again when it changes); values in the text channel's format, times in UTC.
import uPlot from 'uplot';
import type { SeriesData as Series } from '../src/report/view-types.js';
import { el, n, onTheme, resolveColor, time } from './dom.js';

/** Each series' label: its symbol, else name, else short id; with an id's start when two share it. */
function seriesLabels(series: readonly Series[]) {
  const base = series.map((s) => s.symbol ?? s.name ?? `${s.mintId.slice(0, 4)}…${s.mintId.slice(-4)}`);
  return base.map((l, i) =>
    base.indexOf(l) !== base.lastIndexOf(l) ? `${l} ${series[i]?.mintId.slice(0, 4)}…` : l,
  );
}

// Distinct hues in the Okabe-Ito / Tableau 10 order, each at 3:1 or more on its theme's surface.
const LIGHT = ['#0072b2', '#d55e00', '#008060', '#cc3d8f', '#7a5c00', '#5b4ab8', '#9c4a1a', '#4d6a00'];
const DARK = ['#56b4e9', '#e69f00', '#2fd1a1', '#f08cc7', '#f0e442', '#b3a4ff', '#ff8f66', '#a6d96a'];
/** The second, third and fourth round of the palette: dashed, dotted, dash-dot. */
const DASHES = [
  [8, 4],
  [2, 3],
  [10, 3, 2, 3],
];
const MARKER_DASH = ['solid', 'dashed', 'dotted', 'double'];
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

const widthOf = (box: HTMLElement) => {
  const { paddingLeft: left, paddingRight: right } = getComputedStyle(box);
  return Math.max(240, Math.floor(box.clientWidth - parseFloat(left || '0') - parseFloat(right || '0')));
};

/** Time tick labels, centred on their ticks: one whose half would pass the canvas's edge is left out. */
function xLabels(self: uPlot, splits: number[]): string[] {
  const axis = self.axes[0] as uPlot.Axis;
  self.ctx.font = (axis.font as unknown as [string])?.[0] ?? '12px system-ui';
  const left = self.bbox.left / devicePixelRatio;
  return splits.map((v) => {
    const label = time(v * 1000, true);
    const half = self.ctx.measureText(label).width / devicePixelRatio / 2;
    const x = left + self.valToPos(v, 'x');
    return x - half < 0 || x + half > self.width ? '' : label;
  });
}

/** A value held over a span of time (ms), drawn as a dashed level line: a session's peak over the session. */
export type Span = { from: number; to: number; value: number };

export function lineChart(
  box: HTMLElement,
  drawn: readonly Series[],
  field: string,
  height: number,
  spans?: { label: string; list: readonly Span[]; empty?: string },
): boolean {
  const times = [
    ...new Set([...drawn.flatMap((s) => s.t), ...(spans?.list ?? []).flatMap((s) => [s.from, s.to])]),
  ].sort((a, b) => a - b);
  const empty = (cls: string, text: string) => {
    box.append(el('p', { class: cls }, spans?.empty ?? text));
    return false;
  };
  if (!times.length) return empty('muted', 'No data points in this period.');
  // Nothing but zeros and gaps: said in words, not drawn as a flat line on an axis of its own making.
  const some = (v: number | null | undefined) => typeof v === 'number' && v !== 0;
  const isFlat = (s: Series) => !(s.values[field] ?? []).some(some);
  if (drawn.every(isFlat) && !spans?.list.some((x) => some(x.value)))
    return empty('muted empty-chart', `No ${field} other than 0 in this period.`);
  // Series 0 (or missing) throughout would hide at the baseline: named under the chart, not drawn.
  const allLabels = seriesLabels(drawn);
  const series = drawn.filter((s) => !isFlat(s));
  const labels = allLabels.filter((_l, i) => !isFlat(drawn[i] as Series));
  const flat = drawn.flatMap((s, i) => (isFlat(s) ? [{ s, label: allLabels[i] as string }] : []));
  const index = new Map(times.map((t, i) => [t, i]));
  const columns = series.map((s) => {
    const values = new Map(s.t.map((t, i) => [t, s.values[field]?.[i] ?? null]));
    return times.map((t) => values.get(t) ?? null);
  });
  if (spans?.list.length)
    columns.push(
      times.map((t) => {
        const values = spans.list.filter((s) => t >= s.from && t <= s.to).map((s) => s.value);
        return values.length ? Math.max(...values) : null;
      }),
    );
  const data = [times.map((t) => t / 1000), ...columns] as uPlot.AlignedData;
  const last = times[times.length - 1] as number;
  // With nothing hovered, each legend entry shows its series' latest value (and when), not a dash.
  const latest = columns.map((col) => col.findLastIndex((v) => v != null));
  const legendValue = (_u: uPlot, v: number | null, si: number, idx: number | null) => {
    if (idx != null) return n(v);
    const at = latest[si - 1] ?? -1;
    return at < 0 ? '—' : `${n(columns[si - 1]?.[at] ?? null)} (latest)`;
  };
  // Room past the last point (and, with session peaks, before the first): no edge cuts a line or dot.
  const range: uPlot.Range.Function = (_u, min, max) => [
    spans?.list.length ? min - Math.max((max - min) * 0.02, 30) : min,
    max + Math.max((max - min) * 0.04, 60),
  ];
  let plot: uPlot | undefined;
  const draw = () => {
    plot?.destroy();
    const fg = resolveColor('var(--fg)');
    const muted = resolveColor('var(--muted)');
    const grid = resolveColor('var(--grid)');
    const palette = dark() ? DARK : LIGHT;
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: muted, width: 1 } };
    // A dot where each span starts: a short session is a dot, never lost between two pixels.
    const starts = spans?.list.map((x) => index.get(x.from) as number);
    const points = { show: true, size: 7, fill: fg, stroke: fg, filter: starts };
    const dashed = { stroke: fg, width: 2, dash: [5, 3], spanGaps: false, points, value: legendValue };
    const peaks = spans?.list.length ? [{ ...dashed, label: spans.label }] : [];
    // Where the last point and the plot end (CSS px): the browser tests read them.
    const measured = (u: uPlot) => {
      box.dataset.lastPointX = String(Math.round(u.valToPos(last / 1000, 'x')));
      box.dataset.plotWidth = String(Math.round(u.bbox.width / devicePixelRatio));
    };
    plot = new uPlot(
      {
        width: widthOf(box),
        height,
        // The plot runs to the panel's edge; a time label that would not fit there is left out (xLabels).
        padding: [12, 8, 0, 0],
        // Ticks on UTC hours and days, as they are labelled (not the browser's zone).
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true, range } },
        series: [
          {
            label: 'time (UTC)',
            value: (_u, v, _si, idx) => (idx == null ? `${time(last)} (last)` : time(v * 1000)),
          },
          ...series.map((_s, i) => ({
            label: labels[i] as string,
            stroke: palette[i % palette.length] as string,
            width: 1.5,
            // Past the palette, each round of colours gets its own dash: no two series look alike.
            ...(i >= palette.length ? { dash: DASHES[Math.floor(i / palette.length) - 1] ?? [2, 2] } : {}),
            spanGaps: true,
            value: legendValue,
          })),
          ...peaks,
        ],
        axes: [
          { ...axis, values: xLabels, space: 90 },
          { ...axis, size: axisSize, values: (_u, splits) => splits.map((v) => n(v)) },
        ],
        hooks: { draw: [measured] },
        legend: {
          live: true,
          // Each legend marker drawn as its line is: solid, then dashed, dotted, double past the palette.
          markers: {
            // (A double border needs three pixels to show as two lines.)
            width: (_u, i) => (i <= series.length && i > 3 * palette.length ? 3 : 2),
            dash: (_u, i) =>
              i > series.length ? 'dashed' : (MARKER_DASH[Math.floor((i - 1) / palette.length)] ?? 'double'),
          },
        },
      },
      data,
      box,
    );
    // The session peaks are dots on the chart: a filled dot in the legend too.
    const peak = spans?.list.length
      ? plot.root.querySelector<HTMLElement>('.u-legend .u-series:last-child .u-marker')
      : null;
    if (peak) Object.assign(peak.style, { borderRadius: '50%', borderStyle: 'solid', background: fg });
    plot.root.querySelectorAll('.u-legend .u-series').forEach((row, i) => {
      const s = series[i - 1];
      if (s) row.setAttribute('title', s.mintId);
    });
  };
  draw();
  const named = flat.flatMap(({ s, label }, i) => [i ? ', ' : '', el('span', { title: s.mintId }, label)]);
  if (flat.length)
    box.append(el('p', { class: 'muted flat-series' }, `${field} 0 throughout, not drawn: `, ...named));
  onTheme(() => box.isConnected && draw());
  new ResizeObserver(() => {
    if (plot && plot.width !== widthOf(box)) plot.setSize({ width: widthOf(box), height });
  }).observe(box);
  return true;
}
