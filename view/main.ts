// The MCP Apps view (one page, three views): the investigation board, the analytics chart and the activity
// heatmap, drawn from the data a result carries in `_meta` (src/views.ts). Upstream strings are data: every
// one goes in with textContent or as an attribute value, never as HTML.
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
} from '@modelcontextprotocol/ext-apps';
import uPlot from 'uplot';
import { hourlyGrid } from '../src/format/heatmap.js';
import { VIEW_DATA_KEY } from '../src/view-data.js';

type Json = Record<string, unknown>;
const asRecord = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const fmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? fmt.format(v) : '—');

/** An element with text (never HTML) and attributes. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

const root = document.getElementById('root') as HTMLElement;
const app = new App({ name: 'streamer-analytics-views', version: '1.0.0' });

function applyContext(ctx: ReturnType<App['getHostContext']>) {
  if (ctx?.theme) applyDocumentTheme(ctx.theme);
  if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx?.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
}
app.onhostcontextchanged = (ctx) => applyContext({ ...app.getHostContext(), ...ctx });
app.ontoolresult = (result) => show(asRecord(asRecord(result._meta)[VIEW_DATA_KEY]));

function show(data: Json) {
  const started = performance.now();
  root.replaceChildren();
  if (data.simulated === true)
    root.append(
      el('p', { class: 'banner', role: 'note' }, 'Simulated data (demo mode): not the real service.'),
    );
  if (data.kind === 'board') board(data);
  else if (data.kind === 'series') seriesView(data);
  else if (data.kind === 'heatmap') heatmap(data);
  else root.append(el('p', {}, 'Nothing to show for this result.'));
  document.body.dataset.ready = String(data.kind ?? 'none');
  // When the result was drawn and painted (the bench reads it: result handed over → painted).
  document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      document.body.dataset.paintedAt = String(performance.timeOrigin + performance.now());
    }),
  );
}

// ── Investigation board ─────────────────────────────────────────────────────────────────────────────
interface Row {
  mintId: string;
  level: string;
  confidence: number | null;
  score: number | null;
  reasons: string[];
  name: string | null;
  symbol: string | null;
  live: boolean | null;
  viewers: number | null;
  marketCap: number | null;
}
const LEVEL_ORDER = ['HIGH', 'MEDIUM', 'LOW'];
const levelRank = (l: string) => {
  const i = LEVEL_ORDER.indexOf(l.toUpperCase());
  return i < 0 ? LEVEL_ORDER.length : i;
};

function board(data: Json) {
  const rows = asArray(data.rows) as Row[];
  const scope = asRecord(data.scope);
  const state = { sort: 'level' as keyof Row, desc: false, level: '', live: false, q: '' };
  const levels = [...new Set(rows.map((r) => r.level))].sort((a, b) => levelRank(a) - levelRank(b));

  const counts = el('ul', { class: 'chips', 'aria-label': 'Tokens per level' });
  for (const l of levels)
    counts.append(
      el(
        'li',
        { class: `level level-${l.toLowerCase()}` },
        `${l}: ${rows.filter((r) => r.level === l).length}`,
      ),
    );
  const reasons = new Map<string, number>();
  for (const r of rows) for (const why of r.reasons) reasons.set(why, (reasons.get(why) ?? 0) + 1);
  const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 5);

  const search = el('input', {
    type: 'search',
    placeholder: 'Name, symbol or id',
    'aria-label': 'Search tokens',
  });
  const levelSelect = el('select', { 'aria-label': 'Level' }, el('option', { value: '' }, 'All levels'));
  for (const l of levels) levelSelect.append(el('option', { value: l }, l));
  const liveBox = el('input', { type: 'checkbox', id: 'live-only' });
  const tbody = el('tbody');
  const shown = el('p', { class: 'muted', 'aria-live': 'polite' });
  const evidence = el('section', { class: 'evidence', 'aria-label': 'Evidence' });

  const columns: Array<[keyof Row | null, string]> = [
    [null, 'Token'],
    ['level', 'Level'],
    ['score', 'Score'],
    ['confidence', 'Confidence'],
    ['viewers', 'Viewers'],
    ['marketCap', 'Market cap'],
    [null, 'Live'],
    [null, 'Reasons'],
  ];
  const head = el('tr');
  for (const [key, label] of columns) {
    if (!key) {
      head.append(el('th', { scope: 'col' }, label));
      continue;
    }
    const button = el('button', { type: 'button', 'data-sort': key }, label);
    button.addEventListener('click', () => {
      state.desc = state.sort === key ? !state.desc : key !== 'level';
      state.sort = key;
      draw();
    });
    head.append(el('th', { scope: 'col', 'aria-sort': 'none' }, button));
  }

  const compare = (a: Row, b: Row) => {
    const k = state.sort;
    const va = k === 'level' ? levelRank(a.level) : (a[k] as number | null);
    const vb = k === 'level' ? levelRank(b.level) : (b[k] as number | null);
    if (va === null && vb === null) return 0;
    if (va === null) return 1;
    if (vb === null) return -1;
    return state.desc ? (vb as number) - (va as number) : (va as number) - (vb as number);
  };
  function draw() {
    const q = state.q.trim().toLowerCase();
    const visible = rows
      .filter((r) => !state.level || r.level === state.level)
      .filter((r) => !state.live || r.live === true)
      .filter((r) => !q || [r.name, r.symbol, r.mintId].some((s) => s?.toLowerCase().includes(q)))
      .sort(compare);
    for (const th of head.querySelectorAll('th')) {
      const key = th.querySelector('button')?.dataset.sort;
      th.setAttribute('aria-sort', key === state.sort ? (state.desc ? 'descending' : 'ascending') : 'none');
    }
    tbody.replaceChildren(
      ...visible.map((r) => {
        const open = el('button', {
          type: 'button',
          class: 'token',
          'aria-label': `Evidence for ${r.name ?? r.mintId}`,
        });
        open.append(
          el('span', {}, r.name ?? r.mintId.slice(0, 8)),
          ' ',
          el('span', { class: 'muted' }, r.symbol ?? ''),
        );
        open.addEventListener('click', () => openEvidence(r));
        return el(
          'tr',
          { 'data-mint': r.mintId },
          el('td', {}, open),
          el('td', {}, el('span', { class: `level level-${r.level.toLowerCase()}` }, r.level)),
          el('td', { class: 'num' }, n(r.score)),
          el('td', { class: 'num' }, n(r.confidence)),
          el('td', { class: 'num' }, n(r.viewers)),
          el('td', { class: 'num' }, n(r.marketCap)),
          el('td', {}, r.live === null ? '—' : r.live ? 'live' : ''),
          el('td', { class: 'reasons' }, r.reasons.join('; ')),
        );
      }),
    );
    shown.textContent = `${visible.length} of ${rows.length} tokens shown`;
  }
  search.addEventListener('input', () => {
    state.q = search.value;
    draw();
  });
  levelSelect.addEventListener('change', () => {
    state.level = levelSelect.value;
    draw();
  });
  liveBox.addEventListener('change', () => {
    state.live = liveBox.checked;
    draw();
  });

  async function openEvidence(r: Row, period = '1d') {
    evidence.replaceChildren(
      el('h2', {}, `Evidence: ${r.name ?? r.mintId}`),
      el('p', { class: 'muted' }, 'Loading…'),
    );
    try {
      const result = await app.callServerTool({
        name: 'get_token_evidence',
        arguments: {
          mint: r.mintId,
          period,
          chain: String(scope.chain ?? 'chain_a'),
          platform: String(scope.platform ?? 'platform_a'),
        },
      });
      const data = asRecord(asRecord(result._meta)[VIEW_DATA_KEY]);
      if (result.isError || data.kind !== 'evidence') {
        const text = asArray(result.content)
          .map((c) => String(asRecord(c).text ?? ''))
          .join('\n');
        throw new Error(text || 'no evidence returned');
      }
      drawEvidence(r, data, period);
    } catch (error) {
      evidence.replaceChildren(
        el('h2', {}, `Evidence: ${r.name ?? r.mintId}`),
        el(
          'p',
          { class: 'error', role: 'alert' },
          `Could not load the evidence: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }
  function drawEvidence(r: Row, data: Json, period: string) {
    const series = asRecord(data.series);
    const sessions = data.sessions;
    const botting = asRecord(data.botting);
    const chart = el('div', { class: 'chart', role: 'img', 'aria-label': 'Viewer curve' });
    const periods = el('select', { 'aria-label': 'Period' });
    for (const p of ['1h', '6h', '12h', '1d', '7d', '30d']) {
      const option = el('option', { value: p }, p);
      option.selected = p === period;
      periods.append(option);
    }
    periods.addEventListener('change', () => openEvidence(r, periods.value));
    evidence.replaceChildren(
      el('h2', {}, `Evidence: ${r.name ?? r.mintId}`),
      el('div', { class: 'controls' }, el('label', {}, 'Period ', periods)),
    );
    const reasonsList = el('ul', { class: 'reasons' });
    for (const why of asArray(botting.reasons)) reasonsList.append(el('li', {}, String(why)));
    evidence.append(
      el(
        'div',
        { class: 'split' },
        chart,
        el('div', {}, el('h3', {}, `Botting: ${String(botting.level ?? r.level)}`), reasonsList),
      ),
    );
    if (series.error)
      chart.append(el('p', { class: 'error', role: 'alert' }, `Curve unavailable: ${String(series.error)}`));
    else lineChart(chart, seriesOf(series), 'viewers', 260);
    const sessionsBox = el('div');
    if (!Array.isArray(sessions))
      sessionsBox.append(
        el(
          'p',
          { class: 'error', role: 'alert' },
          `Sessions unavailable: ${String(asRecord(sessions).error ?? 'no data')}`,
        ),
      );
    else sessionsBox.append(recordsTable('Recent sessions', sessions.map(asRecord)));
    evidence.append(sessionsBox);
    evidence.scrollIntoView?.({ block: 'nearest' });
  }

  const failures = new Map<string, string[]>();
  for (const f of asArray(data.failures).map(asRecord)) {
    const key = String(f.error);
    failures.set(key, [...(failures.get(key) ?? []), String(f.id)]);
  }
  const failed = el('details', {}, el('summary', {}, `${asArray(data.failures).length} failed`));
  for (const [why, ids] of failures)
    failed.append(el('p', {}, `${why} (${ids.length}): `, el('span', { class: 'ids' }, ids.join(', '))));

  root.append(
    ...[
      el('h1', {}, `Botting investigation: ${rows.length} tokens analysed`),
      el(
        'p',
        { class: 'muted' },
        `${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}, last ${String(scope.hours ?? '')} h`,
      ),
      counts,
      top.length
        ? el(
            'p',
            { class: 'muted' },
            `Most frequent reasons: ${top.map(([why, c]) => `${why} (${c})`).join('; ')}`,
          )
        : null,
      el(
        'div',
        { class: 'controls' },
        search,
        levelSelect,
        el('label', { for: 'live-only' }, liveBox, ' Live now'),
      ),
      shown,
      el('div', { class: 'scroll' }, el('table', { class: 'board' }, el('thead', {}, head), tbody)),
      failures.size ? failed : null,
      evidence,
    ].filter((x): x is HTMLElement => x !== null),
  );
  draw();
}

function recordsTable(title: string, records: Json[]) {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))].filter((k) => k !== 'mintId');
  const table = el('table', {}, el('caption', {}, title));
  table.append(el('thead', {}, el('tr', {}, ...keys.map((k) => el('th', { scope: 'col' }, k)))));
  table.append(
    el(
      'tbody',
      {},
      ...records.map((r) =>
        el(
          'tr',
          {},
          ...keys.map((k) => el('td', {}, typeof r[k] === 'number' ? n(r[k]) : String(r[k] ?? '—'))),
        ),
      ),
    ),
  );
  return el('div', { class: 'scroll' }, table);
}

// ── Series ──────────────────────────────────────────────────────────────────────────────────────────
interface Series {
  id: string;
  /** Time (s) → values by field. */
  points: Array<{ t: number; values: Json }>;
}
/** The series an analytics answer holds: each result's points with a parseable timestamp. */
function seriesOf(data: Json): Series[] {
  return asArray(data.results).map((raw) => {
    const r = asRecord(raw);
    const list = asArray(r.dataPoints ?? r.points ?? r.data);
    const points = list
      .map(asRecord)
      .map((p) => ({ t: Date.parse(String(p.timestamp ?? p.time ?? '')) / 1000, values: p }))
      .filter((p) => Number.isFinite(p.t))
      .sort((a, b) => a.t - b.t);
    return { id: String(r.mintId ?? r.tokenAddress ?? '?'), points };
  });
}
const numericFields = (series: Series[]) => [
  ...new Set(
    series.flatMap((s) =>
      s.points.flatMap((p) => Object.keys(p.values).filter((k) => typeof p.values[k] === 'number')),
    ),
  ),
];

const PALETTE = [
  '#2f6fde',
  '#d9480f',
  '#2b8a3e',
  '#ae3ec9',
  '#e67700',
  '#0c8599',
  '#c2255c',
  '#5c940d',
  '#6741d9',
  '#868e96',
];

/** All series on one chart, one field at a time; the legend toggles series and shows values at the cursor. */
function lineChart(box: HTMLElement, series: Series[], field: string, height: number) {
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => p.t)))].sort((a, b) => a - b);
  if (!times.length) {
    box.append(el('p', { class: 'muted' }, 'No data points in this period.'));
    return;
  }
  const index = new Map(times.map((t, i) => [t, i]));
  const columns = series.map((s) => {
    const col: Array<number | null> = new Array(times.length).fill(null);
    for (const p of s.points) {
      const v = p.values[field];
      col[index.get(p.t) as number] = typeof v === 'number' ? v : null;
    }
    return col;
  });
  const opts: uPlot.Options = {
    width: Math.max(280, box.clientWidth || root.clientWidth || 600),
    height,
    series: [
      {
        label: 'time',
        value: (_u, v) => (v == null ? '—' : new Date(v * 1000).toISOString().replace('T', ' ').slice(0, 16)),
      },
      ...series.map((s, i) => ({
        label: s.id.slice(0, 10),
        stroke: PALETTE[i % PALETTE.length] as string,
        width: 1.5,
        spanGaps: true,
      })),
    ],
    axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor', label: field }],
    legend: { live: true },
  };
  const plot = new uPlot(opts, [times, ...columns] as uPlot.AlignedData, box);
  new ResizeObserver(() => plot.setSize({ width: Math.max(280, box.clientWidth), height })).observe(box);
}

function seriesView(data: Json) {
  const scope = asRecord(data.scope);
  const series = seriesOf(asRecord(data.data));
  const fields = numericFields(series);
  const field = el('select', { 'aria-label': 'Field' });
  for (const f of fields) field.append(el('option', { value: f }, f));
  const chart = el('div', { class: 'chart' });
  const draw = () => {
    chart.replaceChildren();
    lineChart(chart, series, field.value, 320);
  };
  field.addEventListener('change', draw);
  root.append(
    el('h1', {}, `Streamer analytics: ${series.length} tokens`),
    el(
      'p',
      { class: 'muted' },
      `${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}, period ${String(scope.period ?? '')}; values as the API gives them (no unit stated)`,
    ),
    el('div', { class: 'controls' }, el('label', {}, 'Field ', field)),
    chart,
  );
  if (fields.length) draw();
  else chart.append(el('p', { class: 'muted' }, 'No numeric series in this answer.'));
}

// ── Heatmap ─────────────────────────────────────────────────────────────────────────────────────────
function heatmap(data: Json) {
  const scope = asRecord(data.scope);
  root.append(
    el('h1', {}, 'Activity heatmap'),
    el('p', { class: 'muted' }, `${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}`),
  );
  let drawn = 0;
  // Every "a-b" keyed grid in the answer, wherever it is: the key parts' meaning is not documented.
  const visit = (value: unknown, path: string[]) => {
    const rec = asRecord(value);
    const keys = Object.keys(rec);
    if (keys.length && keys.every((k) => /^-?\d+-(-?\d+)$/.test(k))) {
      const grid = hourlyGrid(rec);
      if (grid) {
        grid_(path.join('.'), grid);
        drawn++;
      }
      return;
    }
    for (const k of keys)
      if (rec[k] && typeof rec[k] === 'object' && !Array.isArray(rec[k])) visit(rec[k], [...path, k]);
  };
  visit(data.data, []);
  if (!drawn) root.append(el('p', { class: 'muted' }, 'No grid in this answer.'));
}

function grid_(title: string, g: NonNullable<ReturnType<typeof hourlyGrid>>) {
  const table = el('table', {
    class: 'heat',
    'data-cells': String(g.rows.length * (g.rows[0]?.length ?? 0)),
  });
  table.append(
    el(
      'caption',
      {},
      `${title}: key "a-b", a = ${g.a[0]}…${g.a[1]}, b = ${g.b[0]}…${g.b[1]} (as the API returns them)`,
    ),
  );
  const head = el('tr', {}, el('th', { scope: 'col' }, 'a \\ b'));
  for (let b = g.b[0]; b <= g.b[1]; b++) head.append(el('th', { scope: 'col' }, String(b)));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  g.rows.forEach((row, i) => {
    const a = g.a[0] + i;
    const tr = el('tr', {}, el('th', { scope: 'row' }, String(a)));
    row.forEach((v, j) => {
      const label = `a=${a}, b=${g.b[0] + j}: ${n(v)}`;
      const td = el('td', { title: label, 'aria-label': label, tabindex: '-1' });
      td.style.setProperty('--v', String(g.max > 0 ? v / g.max : 0));
      tr.append(td);
    });
    body.append(tr);
  });
  table.append(body);
  const legend = el(
    'div',
    { class: 'scale', 'aria-label': 'Colour scale' },
    el('span', {}, '0'),
    el('span', { class: 'ramp' }),
    el('span', {}, n(g.max)),
  );
  root.append(el('section', {}, el('div', { class: 'scroll' }, table), legend));
}

await app.connect();
applyContext(app.getHostContext());
