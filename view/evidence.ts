// A token's evidence under its board row (get_token_evidence): the viewer curve, the verdict over that
// window, the recent sessions in the unit the report found. One open at a time; Escape closes it.
import type { App } from '@modelcontextprotocol/ext-apps';
import type { BoardData, BoardRow, EvidenceData, SeriesData, SessionRow } from '../src/report/view-types.js';
import { VIEW_DATA_KEY } from '../src/view-data.js';
import { lineChart, type Span } from './chart.js';
import { alertText, asRecord, el, n, textOf, time, timeOf } from './dom.js';
import { evidenceHistory } from './history.js';

/** A mint id shortened for reading beside a name: "PjDp…BhxH" (names repeat; ids do not). */
export const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 4)}…${id.slice(-4)}` : id);
/** What a person (and a screen reader) calls a token: name, symbol and a short id, or the whole id alone. */
export const tokenName = (r: BoardRow) =>
  r.name || r.symbol
    ? `${[r.name, r.symbol && (r.name ? `(${r.symbol})` : r.symbol)].filter(Boolean).join(' ')} ${shortId(r.mintId)}`
    : r.mintId;
/** A confidence as 0.80 beside 0.96: two decimals, always (a dash when there is none). */
export const conf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : '—');

const PERIODS = ['1h', '6h', '12h', '1d', '7d', '30d'];
/** One Escape handler per page: the board drawn last owns it. */
let keys: AbortController | undefined;

/** The evidence panel of one board: `open` a row's panel, `close` it (`refocus`: back to its row). */
export function evidencePanel(root: HTMLElement, app: App, scope: BoardData['scope'], colspan: () => number) {
  let open: { row: HTMLTableRowElement; box: HTMLTableRowElement } | undefined;
  function close(refocus = true) {
    if (!open) return;
    const { row, box } = open;
    open = undefined;
    box.remove();
    const button = row.querySelector<HTMLButtonElement>('button.token');
    button?.setAttribute('aria-expanded', 'false');
    if (refocus && row.isConnected) {
      button?.focus({ preventScroll: true });
      row.scrollIntoView?.({ block: 'nearest' });
    }
  }
  function show(r: BoardRow, row: HTMLTableRowElement, period = '1d') {
    if (open?.row !== row) close(false);
    const again = open !== undefined;
    const name = tokenName(r);
    const section = el('section', { class: 'evidence', 'aria-label': `Evidence for ${name}` });
    section.tabIndex = -1;
    const box = open?.box ?? el('tr', { class: 'evidence-row' });
    box.replaceChildren(el('td', { colspan: String(colspan()) }, section));
    if (!open) row.after(box);
    open = { row, box };
    row.querySelector('button.token')?.setAttribute('aria-expanded', 'true');
    const back = el('button', { type: 'button', class: 'close' }, 'Back to list');
    back.addEventListener('click', () => close());
    const options = PERIODS.map((p) => el('option', { value: p }, p));
    const periods = el('select', { 'aria-label': 'Period' }, ...options);
    periods.value = period;
    periods.addEventListener('change', () => show(r, row, periods.value));
    const body = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
    const label = el('label', {}, 'Period ', periods);
    const heading = el('div', { class: 'evidence-head' }, el('h2', {}, name), label, back);
    section.append(heading, el('p', { class: 'ids muted' }, r.mintId), body);
    // The focus moves into the panel (a new period keeps it on the period's menu).
    if (again) periods.focus({ preventScroll: true });
    else section.focus({ preventScroll: true });
    box.scrollIntoView?.({ block: 'nearest' });
    void load(r, period, body);
  }
  async function load(r: BoardRow, period: string, body: HTMLElement) {
    try {
      const result = await app.callServerTool({
        name: 'get_token_evidence',
        arguments: { mint: r.mintId, period, chain: scope.chain, platform: scope.platform },
      });
      const data = asRecord(asRecord(result._meta)[VIEW_DATA_KEY]);
      if (result.isError || data.kind !== 'evidence')
        throw new Error(textOf(result) || 'no evidence returned');
      if (body.isConnected) draw(r, data as EvidenceData, body, scope.hours);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      body.replaceChildren(alertText(`Could not load the evidence: ${message}`));
    }
  }
  // Escape closes the evidence wherever the focus is on the page (the README promises it).
  keys?.abort();
  keys = new AbortController();
  const onKey = (e: KeyboardEvent) => e.key === 'Escape' && open && root.isConnected && close();
  document.addEventListener('keydown', onKey, { signal: keys.signal });
  return { show, close };
}

function draw(r: BoardRow, data: EvidenceData, body: HTMLElement, listHours: number) {
  const { series, sessions, botting } = data;
  // The verdict of the panel's own window, said so (the list's may be another window).
  const { hours } = data.scope;
  const verdict = (v: { level: string; score: unknown; confidence: unknown }) =>
    `${v.level} · score ${n(v.score)} · confidence ${conf(v.confidence)}`;
  const chart = el('div', { class: 'chart', role: 'img', 'aria-label': 'Viewers over the period (UTC)' });
  const reasons = botting && 'reasons' in botting ? botting.reasons : [];
  const reasonsList = el('ul', { class: 'reasons-list' }, ...reasons.map((why) => el('li', {}, why)));
  if (!reasons.length) reasonsList.append(el('li', { class: 'muted' }, '(no reasons given)'));
  const heading =
    botting && 'error' in botting
      ? `Botting: unavailable (${botting.error})`
      : `Botting over the last ${n(hours)} h: ${botting ? verdict(botting) : 'no finding'}`;
  const listed =
    listHours !== hours &&
    el('p', { class: 'muted' }, `In the list, over the last ${n(listHours)} h: ${verdict(r)}`);
  const about = el('div', {}, el('h3', {}, heading), listed, reasonsList, evidenceHistory(data, r.mintId));
  const viewers = el('div', {}, el('h3', {}, 'Viewers (times in UTC)'), chart);
  body.replaceChildren(el('div', { class: 'split' }, viewers, about));
  const rows = Array.isArray(sessions) ? sessions : undefined;
  if ('error' in series) chart.append(alertText(`Curve unavailable: ${series.error}`));
  else curve(chart, r, series.series, rows ?? []);
  if (!rows)
    body.append(alertText(`Sessions unavailable: ${'error' in sessions ? sessions.error : 'no data'}`));
  else body.append(sessionsTable(rows, data.durationUnit?.unit ?? null));
}

/** The sampled viewer curve, with each listed session's peak drawn over its span (a peak can fall between points). */
function curve(chart: HTMLElement, r: BoardRow, series: SeriesData[], sessions: SessionRow[]) {
  const list = series.map((s) => ({ ...s, name: r.name, symbol: r.symbol }));
  const t = list[0]?.t ?? [];
  const first = t[0] ?? 0;
  const last = t.at(-1) ?? 0;
  const spans: Span[] = [];
  for (const s of sessions) {
    const from = Date.parse(String(s.startTime ?? ''));
    const end = Date.parse(String(s.endTime ?? ''));
    const to = Number.isFinite(end) ? end : last;
    if (typeof s.peakViewers !== 'number' || !Number.isFinite(from) || to < first || from > last) continue;
    spans.push({ from: Math.max(from, first), to: Math.min(to, last), value: s.peakViewers });
  }
  // The audience field, whatever the upstream names it (src/view-data.ts `primary`).
  const peaks = { label: 'session peak', list: spans, empty: 'No viewers in this period.' };
  if (!lineChart(chart, list, list[0]?.primary ?? 'viewers', 200, peaks) || t.length < 2) return;
  const dots = spans.length ? " Dots: each listed session's peak, at its start (dashed over its span)." : '';
  const sampled = `Sampled: ${n(t.length)} points, one every ${every((last - first) / (t.length - 1))}; a peak between two points shows only in the sessions table.${dots}`;
  chart.append(el('p', { class: 'muted sampled' }, sampled));
}

/** Durations' units in words, as get_streamer_sessions names them. */
const UNIT_WORDS: Record<string, string> = { ms: 'milliseconds', s: 'seconds', min: 'minutes' };

function sessionsTable(records: SessionRow[], unit: string | null) {
  const heads = ['Start (UTC)', unit ? `Duration (${unit})` : 'Duration', 'Peak', 'Average'].map((h, i) =>
    el('th', { scope: 'col', ...(i ? { class: 'num' } : {}) }, h),
  );
  const caption = unit
    ? `Recent sessions (duration in ${UNIT_WORDS[unit] ?? unit}: end − start in every row)`
    : 'Recent sessions (duration as the API gives it, unit not stated)';
  const row = (s: SessionRow) => {
    const title = `${s.sessionId ?? ''}: ${timeOf(s.startTime)} to ${timeOf(s.endTime)}`;
    const cells = [s.duration, s.peakViewers, s.averageViewers].map((v) => el('td', { class: 'num' }, n(v)));
    return el('tr', { title }, el('td', { class: 'when' }, startOf(s.startTime)), ...cells);
  };
  return el(
    'table',
    { class: 'sessions' },
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, ...heads)),
    el('tbody', {}, ...records.map(row)),
    !records.length && el('tr', {}, el('td', { colspan: '4', class: 'muted' }, 'No sessions.')),
  );
}

/** A session's start in the table: the time format without its zone (the column header states UTC). */
const startOf = (v: unknown) => {
  const ms = Date.parse(String(v ?? ''));
  return Number.isFinite(ms) ? time(ms).replace(/ UTC$/, '') : timeOf(v);
};
/** A sampling step in words: 86 min, 1.4 h. */
const every = (ms: number) => {
  const min = ms / 60_000;
  if (min < 1) return `${n(Math.round(ms / 1000))} s`;
  return min < 120 ? `${n(Math.round(min))} min` : `${n(Math.round(min / 6) / 10)} h`;
};
