// The MCP Apps page: the board, the chart and the heatmap, drawn from a result's `_meta` view data.
// Upstream strings go in as text or attribute values, never HTML; colours follow the host's theme.
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
} from '@modelcontextprotocol/ext-apps';
import type { BoardData, FailureGroup, SeriesData as Series } from '../src/report/view-types.js';
import { VIEW_DATA_KEY } from '../src/view-data.js';
import { board } from './board.js';
import { lineChart } from './chart.js';
import {
  asArray,
  asRecord,
  clearTheme,
  DEMO_LINE,
  el,
  errorBox,
  type Json,
  plural,
  put,
  rethemed,
  textOf,
} from './dom.js';
import { failureList } from './failures.js';
import { heatmap } from './heatmap.js';

const root = document.getElementById('root') as HTMLElement;
const NO_UNIT = 'values as the API gives them (no unit stated)';
const DEMO_BANNER = 'Simulated data (demo mode): not the real service.';
const app = new App({ name: 'streamer-analytics-views', version: '1.0.0' });

function applyContext(ctx: ReturnType<App['getHostContext']>) {
  if (ctx?.theme) applyDocumentTheme(ctx.theme);
  if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx?.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
  rethemed();
}
app.onhostcontextchanged = (ctx) => applyContext({ ...app.getHostContext(), ...ctx });
app.ontoolresult = (result) =>
  show(asRecord(asRecord(result._meta)[VIEW_DATA_KEY]), result.isError ? textOf(result) : undefined);

/** Draws a result's view; a failed call shows what the server said (what was wrong, what to change). */
function show(data: Json, error?: string) {
  const started = performance.now();
  clearTheme();
  root.replaceChildren();
  // The demo marker once: a failed call carries it in its text (no view data), a result in its data.
  if (data.simulated === true || (error !== undefined && DEMO_LINE.test(error)))
    root.append(el('p', { class: 'banner', role: 'note' }, DEMO_BANNER));
  if (error !== undefined)
    root.append(errorBox('The call failed: nothing to show.', error || 'The server gave no reason.'));
  else if (data.kind === 'board') board(root, data as unknown as BoardData, app);
  else if (data.kind === 'series') seriesView(data);
  else if (data.kind === 'heatmap') heatmap(root, data);
  else root.append(el('p', {}, 'Nothing to show for this result.'));
  document.body.dataset.ready = error !== undefined ? 'error' : String(data.kind ?? 'none');
  // When the result was drawn and painted (the bench reads it: result handed over → painted).
  document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      document.body.dataset.paintedAt = String(performance.timeOrigin + performance.now());
    }),
  );
}

function seriesView(data: Json) {
  const scope = asRecord(data.scope);
  const series = asArray(data.series) as Series[];
  const failures = asArray(data.failureGroups) as FailureGroup[];
  const hint = typeof data.hint === 'string' ? data.hint : '';
  const where = `${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}, period ${String(scope.period ?? '')}`;
  const muted = (text: string) => el('p', { class: 'muted' }, text);
  const failed = failures.length ? failureList(failures, hint) : null;
  root.append(el('h1', {}, `Streamer analytics: ${plural(series.length, 'token')}`));
  // No series at all: what failed and what to try, no field picker over nothing.
  if (!series.length) return void root.append(muted(where), failed ?? muted('The answer holds no series.'));
  // The audience field first (the upstream's names are its own), then the others as they came.
  const primary = series.find((s) => s.primary)?.primary;
  const keys = series.flatMap((s) => Object.keys(s.values));
  const fields = [...new Set(primary ? [primary, ...keys] : keys)];
  const field = el('select', { 'aria-label': 'Field' }, ...fields.map((f) => el('option', { value: f }, f)));
  const chart = el('div', { class: 'chart' });
  const draw = () => {
    clearTheme();
    // The report's audience field (`primary`) counts viewers; other fields have no unit.
    const unit = series.some((s) => s.primary === field.value) ? 'number of viewers' : NO_UNIT;
    chart.replaceChildren(el('p', { class: 'muted field-note' }, `${field.value}: ${unit}`));
    lineChart(chart, series, field.value, 320);
  };
  field.addEventListener('change', draw);
  put(
    root,
    muted(`${where}; times in UTC`),
    fields.length ? el('div', { class: 'controls' }, el('label', {}, 'Field ', field)) : null,
    chart,
    failed,
  );
  if (fields.length) draw();
  else chart.append(muted('No numeric field in these series.'));
}

await app.connect();
applyContext(app.getHostContext());
