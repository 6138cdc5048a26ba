// What the history store knows, drawn beside the upstream's window: a token's recorded level per day (a strip
// of one cell per day of the window, oldest left, today right; a day with no record an empty cell), and check_watchlist's changes since the list's previous check. The
// levels' order and flags are the server's (ViewHistory.levels); no level is named here.
import type { BoardData, EvidenceData, ViewHistory } from '../src/report/view-types.js';
import { el, n, plural, time } from './dom.js';
import { shortId } from './evidence.js';

const NONE = 'no history recorded';
/** A day in the window with nothing recorded for the token (an empty cell, so that cells stay days). */
const NO_RECORD = 'no record';
const DAY_MS = 86_400_000;
type Days = Extract<ViewHistory, { tokens: unknown }>;

const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * The window's days, oldest first: `h.days` of them, ending today (UTC, the view's clock: the data does not
 * carry the day the server read), or on the newest recorded day if that is later.
 */
export function windowDays(h: Days): string[] {
  let last = Math.floor(Date.now() / DAY_MS);
  for (const days of Object.values(h.tokens))
    for (const d of days) {
      const x = dayNumber(d.date);
      if (Number.isFinite(x) && x > last) last = x;
    }
  const count = Math.max(1, Math.min(366, h.days || 30));
  return Array.from({ length: count }, (_, i) => dateOf(last - count + 1 + i));
}

/** A level's cell class: flagged as the report flags it, else shaded by its place in the report's order. */
function cellClass(h: Days, level: string | null) {
  if (level === null) return 'day day-none';
  const i = h.levels.findIndex((l) => l.level === level);
  if (i < 0) return 'day day-other';
  if (h.levels[i]?.flagged) return 'day day-flagged';
  return `day day-rank-${Math.min(3, i)}`;
}

/** Days in words, runs of days with no record said once ("2026-11-09 to 2026-12-06 no record"). */
function said(cells: Array<{ date: string; what: string }>) {
  const parts: string[] = [];
  for (let i = 0; i < cells.length; ) {
    const c = cells[i] as { date: string; what: string };
    let j = i;
    if (c.what === NO_RECORD) while (cells[j + 1]?.what === NO_RECORD) j++;
    parts.push(j > i ? `${c.date} to ${cells[j]?.date} ${NO_RECORD}` : `${c.date} ${c.what}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/**
 * A token's recorded days as a strip: one cell per day of the window, oldest left, today right; a day with
 * no record an empty cell (title and screen-reader text: each day and its level, or "no record").
 */
export function historyStrip(h: ViewHistory | undefined, mint: string): HTMLElement | null {
  if (!h) return null;
  const recorded = 'tokens' in h ? (h.tokens[mint] ?? []) : [];
  if (!('tokens' in h) || !recorded.length) return el('span', { class: 'history muted' }, NONE);
  const window = windowDays(h);
  const byDate = new Map(recorded.map((d) => [d.date, d.level]));
  const cells = window.map((date) =>
    byDate.has(date)
      ? { date, level: byDate.get(date) ?? null, what: byDate.get(date) ?? 'no verdict' }
      : { date, level: undefined, what: NO_RECORD },
  );
  const inWindow = cells.filter((c) => c.level !== undefined).length;
  const strip = el('span', {
    class: 'history',
    'data-days': String(window.length),
    'data-recorded': String(inWindow),
  });
  const row = el('span', { class: 'cells', 'aria-hidden': 'true' });
  for (const c of cells)
    row.append(
      el('span', {
        class: c.level === undefined ? 'day day-empty' : cellClass(h, c.level),
        title: `${c.date}: ${c.what}`,
      }),
    );
  strip.append(
    row,
    el(
      'span',
      { class: 'sr-only' },
      `Recorded levels by day, ${window[0]} to ${window.at(-1)} (today): ${said(cells)}`,
    ),
  );
  return strip;
}

/**
 * What the strips' cells mean, once above them: which end is today, and a swatch per level as the strips
 * draw it (the report's levels, in its order), for no verdict and for no record.
 */
export function historyKey(h: ViewHistory | undefined): HTMLElement | null {
  if (!h || !('tokens' in h) || !Object.keys(h.tokens).length) return null;
  const window = windowDays(h);
  const swatch = (cls: string, label: string) =>
    el('li', {}, el('span', { class: cls, 'aria-hidden': 'true' }), ` ${label}`);
  return el(
    'div',
    { class: 'history-key muted' },
    el(
      'p',
      { class: 'history-axis' },
      `One cell a day: ${window[0]} on the left … today (${window.at(-1)}, UTC) on the right.`,
    ),
    el(
      'ul',
      { class: 'history', 'aria-label': 'Colours of the day cells' },
      ...h.levels.map((l) => swatch(cellClass(h, l.level), l.flagged ? `${l.level} (flagged)` : l.level)),
      swatch('day day-none', 'no verdict'),
      swatch('day day-empty', NO_RECORD),
    ),
  );
}

/** The board's line on history: what the strips show beside the upstream's window, or why there is none. */
export function historyNote(data: BoardData): HTMLElement | null {
  const h = data.history;
  if (!h) return null;
  if (!('tokens' in h))
    return el('p', { class: 'muted history-note' }, `No history recorded: ${h.unavailable}`);
  const recorded = Object.keys(h.tokens).length;
  return el(
    'p',
    { class: 'muted history-note' },
    recorded
      ? `Recorded level per day, last ${h.days} days (history, ${plural(recorded, 'token')}), beside the upstream's last ${data.scope.hours} h.`
      : `No history recorded for these tokens in the last ${h.days} days.`,
  );
}

/** check_watchlist's header: the count of changes (the text's), and those of tokens with no row here. */
export function changesNote(data: BoardData): HTMLElement | null {
  const c = data.changes;
  if (!c) return null;
  const at = c.previousCheck === null ? Number.NaN : Date.parse(c.previousCheck);
  const since =
    c.previousCheck === null
      ? '(first check)'
      : `since the previous check at ${Number.isFinite(at) ? time(at) : c.previousCheck}`;
  const rowless = c.list.filter((x) => !data.rows.some((r) => r.mintId === x.mintId));
  return el(
    'div',
    { class: 'changes-note' },
    el('p', { class: 'changes-count' }, `${plural(c.list.length, 'change')} ${since}`),
    rowless.length
      ? el(
          'ul',
          { class: 'changes', 'aria-label': 'Changes of tokens not in the table' },
          ...rowless.map((x) => mark(x, `${shortId(x.mintId)} `)),
        )
      : null,
  );
}

const mark = (x: { mintId: string; kind: string; text: string }, prefix = '') =>
  el('li', { class: `change change-${x.kind}`, 'data-mint': x.mintId, 'data-kind': x.kind }, prefix + x.text);

/**
 * A board row's history: its strip (when the store holds any of the board's tokens; else the header says
 * so once) and, on check_watchlist's board, its changes marked.
 */
export function rowHistory(data: BoardData, mint: string, row: HTMLElement): HTMLElement[] {
  const changes = data.changes?.list.filter((x) => x.mintId === mint) ?? [];
  if (changes.length) row.classList.add('changed');
  const h = data.history;
  const strip = h && 'tokens' in h && Object.keys(h.tokens).length ? historyStrip(h, mint) : null;
  return [
    ...(strip ? [strip] : []),
    ...(changes.length
      ? [
          el(
            'ul',
            { class: 'changes', 'aria-label': `${n(changes.length)} changed` },
            ...changes.map((x) => mark(x)),
          ),
        ]
      : []),
  ];
}

/** The evidence panel's history: the token's recorded days, beside the panel's upstream window. */
export function evidenceHistory(data: EvidenceData, mint: string): HTMLElement | null {
  if (!data.history) return null;
  const h = data.history;
  const title = 'tokens' in h ? `Recorded, last ${h.days} days` : 'Recorded';
  const note = 'unavailable' in h ? el('span', { class: 'muted' }, ` (${h.unavailable})`) : null;
  const strip = historyStrip(h, mint);
  // The key only under a strip of cells (a token with no record says so in words).
  const key = strip?.querySelector('.cells') ? historyKey(h) : null;
  return el('div', { class: 'evidence-history' }, el('h4', {}, title), strip, note, key);
}
