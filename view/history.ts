// What the history store knows, drawn beside the upstream's window: a token's recorded level per day (a strip
// of up to 30 day cells, newest right), and check_watchlist's changes since the list's previous check. The
// levels' order and flags are the server's (ViewHistory.levels); no level is named here.
import type { BoardData, EvidenceData, ViewHistory } from '../src/report/view-types.js';
import { el, n, plural } from './dom.js';
import { shortId } from './evidence.js';

const CELLS = 30;
const NONE = 'no history recorded';

/** A level's cell class: flagged as the report flags it, else shaded by its place in the report's order. */
function cellClass(h: Extract<ViewHistory, { levels: unknown }>, level: string | null) {
  if (level === null) return 'day day-none';
  const i = h.levels.findIndex((l) => l.level === level);
  if (i < 0) return 'day day-other';
  if (h.levels[i]?.flagged) return 'day day-flagged';
  return `day day-rank-${Math.min(3, i)}`;
}

/** A token's recorded days as a strip (title and screen-reader text: each day and its level). */
export function historyStrip(h: ViewHistory | undefined, mint: string): HTMLElement | null {
  if (!h) return null;
  const days = 'tokens' in h ? (h.tokens[mint] ?? []).slice(-CELLS) : [];
  if (!('tokens' in h) || !days.length) return el('span', { class: 'history muted' }, NONE);
  const said = days.map((d) => `${d.date} ${d.level ?? 'no verdict'}`).join(', ');
  const strip = el('span', { class: 'history', 'data-days': String(days.length) });
  const cells = el('span', { class: 'cells', 'aria-hidden': 'true' });
  for (const d of days)
    cells.append(
      el('span', { class: cellClass(h, d.level), title: `${d.date}: ${d.level ?? 'no verdict'}` }),
    );
  strip.append(cells, el('span', { class: 'sr-only' }, `Recorded levels by day: ${said}`));
  return strip;
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
  const since = c.previousCheck ? `since the previous check at ${c.previousCheck}` : 'first check';
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
  const title = 'tokens' in h ? `Recorded, last ${h.days} days (newest right)` : 'Recorded';
  const note = 'unavailable' in h ? el('span', { class: 'muted' }, ` (${h.unavailable})`) : null;
  return el('div', { class: 'evidence-history' }, el('h4', {}, title), historyStrip(h, mint), note);
}
