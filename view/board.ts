// The investigation board: one row per finding, most suspicious first, sortable and filterable. Rows stack
// below 640 px (the token on a line of its own, then level, score and viewers, the reasons under them); 50
// rows are drawn at a time (more on request), so 2,000 findings render as fast as 50. A token's evidence opens inline, under
// its row; closing it returns to that row.
import type { App } from '@modelcontextprotocol/ext-apps';
import { coin, money } from '../src/format/text.js';
import { VIEW_DATA_KEY } from '../src/view-data.js';
import { lineChart, type Series, type Span } from './chart.js';
import { advice, asArray, asRecord, el, type Json, n, plural, put, time, timeOf } from './dom.js';

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
  /** Only when the call joined creator fees. */
  feesNative?: number | null;
  feesTotal?: number | null;
  feesCurrency?: string | null;
  /** false: a token on a platform the botting call did not ask (platform_c); its level, if any, the upstream's. */
  covered?: boolean;
  /** A not-covered token's failure, the upstream's message. */
  upstreamError?: string | null;
}
type SortKey = 'level' | 'score' | 'confidence' | 'viewers' | 'marketCap' | 'fees';
const PAGE = 50;
/** The one level the interface document names; the set of levels is not documented (another upstream names its own). */
const FLAGGED = 'HIGH';

/**
 * The levels present, most suspicious first: HIGH (documented) first, then by the mean confidence of each
 * level's rows in this answer, then by name; no list of names is assumed. Returns the rank of each level.
 */
function levelRanks(rows: readonly Row[]): Map<string, number> {
  const sums = new Map<string, { total: number; n: number }>();
  for (const r of rows) {
    if (!isCovered(r)) continue;
    const s = sums.get(r.level) ?? { total: 0, n: 0 };
    if (r.confidence !== null) {
      s.total += r.confidence;
      s.n++;
    }
    sums.set(r.level, s);
  }
  const mean = (l: string) => {
    const s = sums.get(l);
    return s?.n ? s.total / s.n : -1;
  };
  const order = [...sums.keys()].sort(
    (a, b) =>
      Number(b.toUpperCase() === FLAGGED) - Number(a.toUpperCase() === FLAGGED) ||
      mean(b) - mean(a) ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
  return new Map(order.map((l, i) => [l, i]));
}

const isCovered = (r: Row) => r.covered !== false;
/** A level's badge: HIGH (documented) marked; every other level, whatever its name, neutral. */
const levelClass = (l: string) => `level ${l.toUpperCase() === FLAGGED ? 'level-flagged' : 'level-other'}`;
/** A mint id shortened for reading beside a name: "PjDp…BhxH" (names repeat; ids do not). */
export const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 4)}…${id.slice(-4)}` : id);
/** What a person (and a screen reader) calls a token: name, symbol and a short id, or the whole id alone. */
const tokenName = (r: Row) =>
  r.name || r.symbol
    ? `${[r.name, r.symbol && (r.name ? `(${r.symbol})` : r.symbol)].filter(Boolean).join(' ')} ${shortId(r.mintId)}`
    : r.mintId;
/** The call's sortBy (investigate_botting) as the board's own sort key. */
const CALL_SORT: Record<string, SortKey> = {
  suspicion: 'level',
  score: 'score',
  confidence: 'confidence',
  viewers: 'viewers',
  marketCap: 'marketCap',
  fees: 'fees',
};
const sortValue = (r: Row, k: Exclude<SortKey, 'level'>) => (k === 'fees' ? (r.feesNative ?? null) : r[k]);
/** One Escape handler per page: the board drawn last owns it. */
let keys: AbortController | undefined;

interface Column {
  key: SortKey | null;
  label: string;
  cls: string;
  cell: (r: Row) => HTMLTableCellElement;
}

export function board(root: HTMLElement, data: Json, app: App) {
  const rows = asArray(data.rows) as Row[];
  const scope = asRecord(data.scope);
  const filters = asRecord(data.filters);
  const total = typeof data.total === 'number' ? data.total : rows.length;
  const title = typeof data.title === 'string' ? data.title : 'Botting investigation';
  // Columns and filters only for what the data has (analyze_botting joins no streamer records).
  const has = {
    viewers: rows.some((r) => r.viewers !== null),
    marketCap: rows.some((r) => r.marketCap !== null),
    live: rows.some((r) => r.live !== null),
    fees: rows.some((r) => 'feesNative' in r),
  };
  // Fees: the native coin's exact digits and the fiat total, each column's decimal points aligned.
  const feeDecimals = Math.max(0, ...rows.map((r) => decimals(coin(r.feesNative))));
  const fiatDecimals = Math.max(0, ...rows.map((r) => decimals(money(r.feesTotal))));
  const noFees = rows.filter((r) => 'feesNative' in r && r.feesNative == null && r.feesTotal == null).length;
  const ranks = levelRanks(rows);
  const levels = [...ranks.keys()];
  // Most suspicious highest: the level order as a value that sorts descending (not-covered rows: none, last).
  const levelValue0 = (r: Row) => (isCovered(r) ? ranks.size - (ranks.get(r.level) ?? ranks.size) : null);
  const off = asRecord(data.notCovered);
  const offCount = typeof off.count === 'number' ? off.count : rows.filter((r) => !isCovered(r)).length;
  const offPlatform = typeof off.platform === 'string' ? off.platform : 'another platform';
  const offReason =
    typeof off.reason === 'string' ? off.reason : 'not covered: its platform was not the one asked';
  const offLabel = `not covered (${offPlatform})`;
  // The board opens on the call's slice (its levels, liveOnly and sortBy); the person can clear it.
  const callLevels = Array.isArray(filters.levels) ? filters.levels.map(String) : null;
  const one =
    callLevels?.length === 1
      ? levels.find((l) => l.toUpperCase() === callLevels[0]?.toUpperCase())
      : undefined;
  const levelValue = callLevels ? (one ?? callLevels.join('\n')) : '';
  const sort0 = CALL_SORT[String(filters.sortBy)] ?? 'level';
  const state = {
    sort: sort0,
    desc: true,
    level: levelValue,
    live: filters.liveOnly === true,
    q: '',
    shown: PAGE,
  };

  const counts = el('ul', { class: 'chips', 'aria-label': 'Tokens per level' });
  for (const l of levels)
    counts.append(
      el(
        'li',
        { class: levelClass(l) },
        `${l}: ${n(rows.filter((r) => isCovered(r) && r.level === l).length)}`,
      ),
    );
  if (offCount)
    counts.append(el('li', { class: 'level level-off', title: offReason }, `${offLabel}: ${n(offCount)}`));
  const reasons = new Map<string, number>();
  for (const r of rows)
    if (isCovered(r)) for (const why of r.reasons) reasons.set(why, (reasons.get(why) ?? 0) + 1);
  const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 5);

  const search = el('input', {
    type: 'search',
    placeholder: 'Name, symbol or id',
    'aria-label': 'Search tokens',
  });
  const levelSelect = el('select', { 'aria-label': 'Level' }, el('option', { value: '' }, 'All levels'));
  for (const l of levels) levelSelect.append(el('option', { value: l }, l));
  if (offCount) levelSelect.append(el('option', { value: OFF }, 'Not covered'));
  // Levels the call asked for that are not one level of this board (none, or several): as asked.
  if (callLevels && !one) levelSelect.append(el('option', { value: levelValue }, callLevels.join(', ')));
  levelSelect.value = state.level;
  const sortSelect = el('select', { 'aria-label': 'Sort by' });
  const SORTS: Array<[SortKey, string, boolean]> = [
    ['level', 'Most suspicious', true],
    ['score', 'Score', true],
    ['confidence', 'Confidence', true],
    ['viewers', 'Viewers', has.viewers],
    ['marketCap', 'Market cap', has.marketCap],
    ['fees', 'Fees (native coin)', has.fees],
  ];
  for (const [key, label, shown] of SORTS) if (shown) sortSelect.append(el('option', { value: key }, label));
  sortSelect.value = state.sort;
  const liveBox = el('input', { type: 'checkbox', id: 'live-only' });
  liveBox.checked = state.live;
  const clear = el('button', { type: 'button', class: 'clear' }, 'Clear filters');
  const tbody = el('tbody');
  const shown = el('p', { class: 'muted', 'aria-live': 'polite' });
  const more = el('div', { class: 'controls more' });

  const td = (cls: string, text: string, label?: string) =>
    el('td', label ? { class: cls, 'data-label': label } : { class: cls }, text);
  const columns: Column[] = [
    { key: null, label: 'Token', cls: 'token', cell: () => el('td', { class: 'token' }) },
    {
      key: 'level',
      label: 'Level',
      cls: 'level',
      cell: (r) =>
        isCovered(r)
          ? el('td', { class: 'level' }, el('span', { class: levelClass(r.level) }, r.level))
          : el(
              'td',
              { class: 'level' },
              el(
                'span',
                {
                  class: 'level level-off',
                  title: `${offReason}; the upstream ${r.upstreamError ? `said "${r.upstreamError}"` : `gave the verdict ${r.level || 'none'}`}`,
                },
                'not covered',
              ),
              r.level ? el('span', { class: 'muted verdict' }, ` (${r.level})`) : '',
            ),
    },
    { key: 'score', label: 'Score', cls: 'num score', cell: (r) => td('num score', n(r.score), 'score') },
    {
      key: 'confidence',
      label: 'Confidence',
      cls: 'num confidence',
      cell: (r) => td('num confidence', conf(r.confidence), 'conf.'),
    },
    ...(has.viewers
      ? [
          {
            key: 'viewers' as const,
            label: 'Viewers',
            cls: 'num viewers',
            cell: (r: Row) => td('num viewers', n(r.viewers), 'viewers'),
          },
        ]
      : []),
    ...(has.marketCap
      ? [
          {
            key: 'marketCap' as const,
            label: 'Market cap',
            cls: 'num mcap',
            cell: (r: Row) => td('num mcap', n(r.marketCap), 'mcap'),
          },
        ]
      : []),
    ...(has.fees
      ? [
          {
            key: 'fees' as const,
            label: 'Fees',
            cls: 'num fees',
            // The native coin's exact digits, the fiat total under them; each's decimal points aligned.
            cell: (r: Row) => {
              const cell = el(
                'td',
                { class: 'num fees', 'data-label': 'fees' },
                el('span', { class: 'native' }, aligned(r.feesNative, feeDecimals)),
                r.feesNative == null && r.feesTotal == null
                  ? ''
                  : el(
                      'span',
                      { class: 'fiat muted' },
                      r.feesTotal == null
                        ? '—'
                        : `${aligned(r.feesTotal, fiatDecimals, money)}${r.feesCurrency ? ` ${r.feesCurrency}` : ''}`,
                    ),
              );
              cell.title =
                r.feesNative == null && r.feesTotal == null
                  ? NO_FEES
                  : `${r.feesNative == null ? 'no native-coin amount' : `${coin(r.feesNative)} in the native coin`}; ${r.feesTotal == null ? 'no fiat total' : `${money(r.feesTotal)}${r.feesCurrency ? ` ${r.feesCurrency}` : ''}`}`;
              return cell;
            },
          },
        ]
      : []),
    ...(has.live
      ? [
          {
            key: null,
            label: 'Live',
            cls: 'live',
            cell: (r: Row) =>
              el(
                'td',
                { class: r.live ? 'live is-live' : 'live' },
                r.live === null ? '—' : r.live ? 'live' : '',
              ),
          },
        ]
      : []),
    {
      key: null,
      label: 'Reasons',
      cls: 'reasons',
      cell: (r) =>
        el(
          'td',
          { class: 'reasons' },
          isCovered(r)
            ? el('div', { title: r.reasons.join('; ') }, r.reasons.join('; ') || '(none)')
            : el(
                'div',
                {},
                r.upstreamError
                  ? `not analysed; the upstream said "${r.upstreamError}"`
                  : `the upstream's verdict${r.reasons.length ? `: ${r.reasons.join('; ')}` : ''}`,
              ),
        ),
    },
  ];
  const head = el('tr');
  for (const { key, label, cls } of columns) {
    if (!key) {
      head.append(el('th', { scope: 'col', class: cls }, label));
      continue;
    }
    const button = el(
      'button',
      { type: 'button', 'data-sort': key },
      label,
      el('span', { class: 'arrow', 'aria-hidden': 'true' }),
    );
    button.addEventListener('click', () => sortBy(key, state.sort === key ? !state.desc : true));
    const th = el('th', { scope: 'col', class: cls, 'aria-sort': 'none' }, button);
    if (key === 'fees') th.title = 'Creator fees: the native coin (sorted by), the fiat total under it';
    head.append(th);
  }
  function sortBy(key: SortKey, desc: boolean) {
    state.sort = key;
    state.desc = desc;
    sortSelect.value = key;
    draw();
  }
  sortSelect.addEventListener('change', () => sortBy(sortSelect.value as SortKey, true));

  const compare = (a: Row, b: Row) => {
    const k = state.sort;
    const va = k === 'level' ? levelValue0(a) : sortValue(a, k);
    const vb = k === 'level' ? levelValue0(b) : sortValue(b, k);
    if (va === null && vb === null) return 0;
    if (va === null) return 1;
    if (vb === null) return -1;
    return state.desc ? vb - va : va - vb;
  };
  const rowOf = (r: Row) => {
    const full = r.name ? `${r.name}${r.symbol ? ` (${r.symbol})` : ''}` : r.symbol;
    const open = el('button', {
      type: 'button',
      class: 'token',
      title: full ? `${full}\n${r.mintId}` : r.mintId,
      'aria-expanded': 'false',
      'aria-label': `Evidence for ${tokenName(r)}`,
    });
    // The name wraps (two lines at most), the symbol and a short id always whole (two tokens may share a
    // name); no name: the whole id.
    if (r.name || r.symbol)
      open.append(
        el('span', { class: 'name' }, r.name ?? ''),
        r.symbol ? el('span', { class: 'symbol muted' }, r.symbol) : '',
        el('span', { class: 'short-id muted' }, shortId(r.mintId)),
      );
    else open.append(el('span', { class: 'ids' }, r.mintId));
    const tr = el(
      'tr',
      isCovered(r) ? { 'data-mint': r.mintId } : { 'data-mint': r.mintId, class: 'not-covered' },
      ...columns.map((c) => c.cell(r)),
    );
    tr.firstElementChild?.append(open);
    open.addEventListener('click', () =>
      open.getAttribute('aria-expanded') === 'true' ? closeEvidence() : openEvidence(r, tr),
    );
    return tr;
  };

  const wantedLevels = () =>
    state.level ? new Set(state.level.split('\n').map((l) => l.toUpperCase())) : null;
  // A level asked for matches a covered row of that level and a not-covered row with that verdict (as the
  // text channel counts them: "and N not covered"); "Not covered" matches those rows alone.
  const levelMatches = (r: Row, wanted: Set<string>) =>
    wanted.has(OFF.toUpperCase()) ? !isCovered(r) : wanted.has(r.level.toUpperCase());
  function draw() {
    closeEvidence(false);
    const q = state.q.trim().toLowerCase();
    const wanted = wantedLevels();
    const visible = rows
      .filter((r) => !wanted || levelMatches(r, wanted))
      .filter((r) => !state.live || r.live === true)
      .filter((r) => !q || [r.name, r.symbol, r.mintId].some((s) => s?.toLowerCase().includes(q)))
      .sort(compare);
    for (const th of head.querySelectorAll('th')) {
      const key = th.querySelector('button')?.dataset.sort;
      const dir = key === state.sort ? (state.desc ? 'descending' : 'ascending') : 'none';
      th.setAttribute('aria-sort', dir);
      const arrow = th.querySelector('.arrow');
      if (arrow) arrow.textContent = dir === 'descending' ? ' ▼' : dir === 'ascending' ? ' ▲' : '';
    }
    const filtered = !!state.level || state.live;
    clear.hidden = !filtered && !q;
    tbody.replaceChildren(...visible.slice(0, state.shown).map(rowOf));
    if (!visible.length)
      tbody.append(
        el(
          'tr',
          { class: 'empty' },
          el(
            'td',
            { colspan: String(columns.length), class: 'muted' },
            q
              ? `No token matches "${state.q.trim()}"${filtered ? ' with these filters' : ''}.`
              : 'No token matches these filters.',
          ),
        ),
      );
    const drawn = Math.min(visible.length, state.shown);
    shown.textContent =
      drawn < visible.length
        ? `Showing ${n(drawn)} of ${plural(visible.length, 'token')}`
        : `${n(visible.length)} of ${plural(rows.length, 'token')} shown`;
    more.replaceChildren();
    if (drawn < visible.length) {
      const next = el('button', { type: 'button' }, `Show ${n(Math.min(PAGE, visible.length - drawn))} more`);
      next.addEventListener('click', () => {
        state.shown += PAGE;
        draw();
      });
      const all = el('button', { type: 'button' }, `Show all ${n(visible.length)}`);
      all.addEventListener('click', () => {
        state.shown = visible.length;
        draw();
      });
      more.append(next, all);
    }
  }
  const refilter = () => {
    state.shown = PAGE;
    draw();
  };
  search.addEventListener('input', () => {
    state.q = search.value;
    refilter();
  });
  levelSelect.addEventListener('change', () => {
    state.level = levelSelect.value;
    refilter();
  });
  liveBox.addEventListener('change', () => {
    state.live = liveBox.checked;
    refilter();
  });
  clear.addEventListener('click', () => {
    state.level = levelSelect.value = '';
    state.live = liveBox.checked = false;
    state.q = search.value = '';
    refilter();
    levelSelect.focus();
  });
  // Escape closes the evidence wherever the focus is on the page (the README promises it).
  keys?.abort();
  keys = new AbortController();
  document.addEventListener(
    'keydown',
    (e) => {
      if (e.key === 'Escape' && open && root.isConnected) closeEvidence();
    },
    { signal: keys.signal },
  );

  // ── Evidence, inline under the selected row ──
  let open: { row: HTMLTableRowElement; box: HTMLTableRowElement } | undefined;
  function closeEvidence(refocus = true) {
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
  function openEvidence(r: Row, row: HTMLTableRowElement, period = '1d') {
    if (open?.row !== row) closeEvidence(false);
    const again = open !== undefined;
    const section = el('section', {
      class: 'evidence',
      'aria-label': `Evidence for ${tokenName(r)}`,
      tabindex: '-1',
    });
    const box = open?.box ?? el('tr', { class: 'evidence-row' });
    box.replaceChildren(el('td', { colspan: String(columns.length) }, section));
    if (!open) row.after(box);
    open = { row, box };
    row.querySelector('button.token')?.setAttribute('aria-expanded', 'true');
    const close = el('button', { type: 'button', class: 'close' }, 'Back to list');
    close.addEventListener('click', () => closeEvidence());
    const periods = el('select', { 'aria-label': 'Period' });
    for (const p of ['1h', '6h', '12h', '1d', '7d', '30d']) {
      const option = el('option', { value: p }, p);
      option.selected = p === period;
      periods.append(option);
    }
    periods.addEventListener('change', () => openEvidence(r, row, periods.value));
    const body = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
    section.append(
      el(
        'div',
        { class: 'evidence-head' },
        el('h2', {}, tokenName(r)),
        el('label', {}, 'Period ', periods),
        close,
      ),
      el('p', { class: 'ids muted' }, r.mintId),
      body,
    );
    // The focus moves into the panel (a new period keeps it on the period's menu).
    if (again) periods.focus({ preventScroll: true });
    else section.focus({ preventScroll: true });
    box.scrollIntoView?.({ block: 'nearest' });
    loadEvidence(r, period, body);
  }
  async function loadEvidence(r: Row, period: string, body: HTMLElement) {
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
      if (body.isConnected) drawEvidence(r, data, body);
    } catch (error) {
      body.replaceChildren(
        el(
          'p',
          { class: 'error', role: 'alert' },
          `Could not load the evidence: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }
  function drawEvidence(r: Row, data: Json, body: HTMLElement) {
    const series = asRecord(data.series);
    const sessions = data.sessions;
    const botting = asRecord(data.botting);
    // The verdict of the panel's own window, said so (the list's may be another window).
    const hours = asRecord(data.scope).hours;
    const window = typeof hours === 'number' ? `over the last ${n(hours)} h` : 'over this period';
    const listHours = typeof scope.hours === 'number' ? scope.hours : undefined;
    const chart = el('div', { class: 'chart', role: 'img', 'aria-label': 'Viewers over the period (UTC)' });
    const reasonsList = el('ul', { class: 'reasons-list' });
    for (const why of asArray(botting.reasons)) reasonsList.append(el('li', {}, String(why)));
    if (!reasonsList.childElementCount)
      reasonsList.append(el('li', { class: 'muted' }, '(no reasons given)'));
    body.replaceChildren(
      el(
        'div',
        { class: 'split' },
        el('div', {}, el('h3', {}, 'Viewers (times in UTC)'), chart),
        el(
          'div',
          {},
          el(
            'h3',
            {},
            botting.error
              ? `Botting: unavailable (${String(botting.error)})`
              : botting.level === undefined
                ? `Botting ${window}: no finding`
                : `Botting ${window}: ${String(botting.level)} · score ${n(botting.score)} · confidence ${conf(botting.confidence)}`,
          ),
          listHours !== undefined && listHours !== hours
            ? el(
                'p',
                { class: 'muted' },
                `In the list, over the last ${n(listHours)} h: ${r.level} · score ${n(r.score)} · confidence ${conf(r.confidence)}`,
              )
            : null,
          reasonsList,
        ),
      ),
    );
    if (series.error)
      chart.append(el('p', { class: 'error', role: 'alert' }, `Curve unavailable: ${String(series.error)}`));
    else {
      const list = (asArray(series.series) as Series[]).map((s) => ({
        ...s,
        name: r.name,
        symbol: r.symbol,
      }));
      // The curve is sampled: a session's peak between two points would not show on it, so each listed
      // session's peak is drawn over its span (within the curve's period), and the sampling is stated.
      const t = list[0]?.t ?? [];
      const first = t[0] ?? 0;
      const last = t.at(-1) ?? 0;
      const spans: Span[] = [];
      for (const s of Array.isArray(sessions) ? sessions.map(asRecord) : []) {
        const from = Date.parse(String(s.startTime ?? ''));
        const end = Date.parse(String(s.endTime ?? ''));
        const to = Number.isFinite(end) ? end : last;
        if (typeof s.peakViewers !== 'number' || !Number.isFinite(from) || to < first || from > last)
          continue;
        spans.push({ from: Math.max(from, first), to: Math.min(to, last), value: s.peakViewers });
      }
      // The audience field, whatever the upstream names it (src/view-data.ts `primary`).
      const drawn = lineChart(chart, list, list[0]?.primary ?? 'viewers', 200, {
        label: 'session peak',
        list: spans,
        empty: 'No viewers in this period.',
      });
      if (drawn && t.length > 1)
        chart.append(
          el(
            'p',
            { class: 'muted sampled' },
            `Sampled: ${n(t.length)} points, one every ${every((last - first) / (t.length - 1))}; a peak between two points shows only in the sessions table.${spans.length ? " Dots: each listed session's peak, at its start (dashed over its span)." : ''}`,
          ),
        );
    }
    if (!Array.isArray(sessions))
      body.append(
        el(
          'p',
          { class: 'error', role: 'alert' },
          `Sessions unavailable: ${String(asRecord(sessions).error ?? 'no data')}`,
        ),
      );
    else body.append(sessionsTable(sessions.map(asRecord)));
  }

  // Failures: counted in the header, listed compactly (a count per reason, the ids folded away).
  const failureList = asArray(data.failures).map(asRecord);
  const failedCount = typeof data.failed === 'number' ? data.failed : failureList.length;
  const groups = new Map<string, string[]>();
  for (const f of failureList) {
    const key = String(f.error);
    groups.set(key, [...(groups.get(key) ?? []), String(f.id)]);
  }
  // Grouped by reason, most frequent first, the reasons said in the summary (as the text channel does).
  const sorted = [...groups].sort((a, b) => b[1].length - a[1].length);
  const failed = el(
    'details',
    { class: 'failures' },
    el(
      'summary',
      {},
      `${n(failedCount)} failed: ${sorted.map(([why, ids]) => `${why} (${n(ids.length)})`).join('; ')}`,
    ),
  );
  for (const [why, ids] of sorted)
    failed.append(
      el('p', {}, `${why} (${plural(ids.length, 'id')}):`),
      el('div', { class: 'ids id-list' }, ids.join(', ')),
    );
  const hint = typeof data.hint === 'string' && data.hint ? data.hint : '';
  const cap = asRecord(data.limits).rows;
  const unexpected = typeof data.unexpected === 'number' ? data.unexpected : 0;
  const requested = typeof scope.requested === 'number' ? scope.requested : undefined;

  put(
    root,
    el('h1', {}, `${title}: ${plural(total, 'token')} analysed`),
    el(
      'p',
      { class: 'muted' },
      `${requested !== undefined ? `${n(requested)} requested, ${n(failedCount)} failed; ` : ''}${offCount ? `${n(offCount)} ${offLabel}; ` : ''}${String(scope.chain ?? '')} / ${String(scope.platform ?? '')}, last ${String(scope.hours ?? '')} h`,
    ),
    groups.size ? failed : null,
    hint ? el('p', { class: 'hint' }, `Hint: ${advice(hint)}`) : null,
    total > rows.length
      ? el(
          'p',
          { class: 'note' },
          `The board holds the first ${n(rows.length)} of ${n(total)} findings (its cap is ${n(cap)}).`,
        )
      : null,
    unexpected
      ? el(
          'p',
          { class: 'note' },
          `The upstream also answered for ${n(unexpected)} ids that were not requested: not shown, not counted.`,
        )
      : null,
  );
  const table = el('table', { class: 'board' }, el('thead', {}, head), tbody);

  // Nothing analysed: no table, no filters over nothing; the failures above say why.
  if (!rows.length) {
    root.append(
      el(
        'p',
        { class: 'error', role: 'alert' },
        failedCount
          ? `No token could be analysed: ${n(failedCount)} of ${plural(requested ?? failedCount, 'token')} failed.`
          : 'No token was analysed.',
      ),
    );
    return;
  }
  put(
    root,
    counts,
    top.length
      ? el(
          'p',
          { class: 'muted' },
          `Most frequent reasons: ${top.map(([why, c]) => `${why} (${n(c)})`).join('; ')}`,
        )
      : null,
    el(
      'div',
      { class: 'controls' },
      search,
      levelSelect,
      sortSelect,
      has.live || state.live ? el('label', { for: 'live-only' }, liveBox, ' Live now') : null,
      clear,
    ),
    shown,
    table,
    more,
    offCount
      ? el(
          'p',
          { class: 'muted footnote' },
          `Not covered (${n(offCount)}): ${offReason.replace(/^not covered: /, '')}; greyed, in no level count, last in the order of suspicion.`,
        )
      : null,
    noFees
      ? el('p', { class: 'muted footnote' }, `— in the fees column: ${NO_FEES} (${plural(noFees, 'token')}).`)
      : null,
  );
  draw();
}

function sessionsTable(records: Json[]) {
  const table = el(
    'table',
    { class: 'sessions' },
    el('caption', {}, 'Recent sessions (duration as the API gives it, unit not stated)'),
  );
  table.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, 'Start (UTC)'),
        el('th', { scope: 'col', class: 'num' }, 'Duration'),
        el('th', { scope: 'col', class: 'num' }, 'Peak'),
        el('th', { scope: 'col', class: 'num' }, 'Average'),
      ),
    ),
  );
  table.append(
    el(
      'tbody',
      {},
      ...records.map((s) =>
        el(
          'tr',
          { title: `${String(s.sessionId ?? '')}: ${timeOf(s.startTime)} to ${timeOf(s.endTime)}` },
          el('td', { class: 'when' }, startOf(s.startTime)),
          el('td', { class: 'num' }, n(s.duration)),
          el('td', { class: 'num' }, n(s.peakViewers)),
          el('td', { class: 'num' }, n(s.averageViewers)),
        ),
      ),
    ),
  );
  if (!records.length) table.append(el('tr', {}, el('td', { colspan: '4', class: 'muted' }, 'No sessions.')));
  return table;
}

/** A session's start in the table: the time format without its zone (the column header states UTC). */
const startOf = (v: unknown) => {
  const ms = Date.parse(String(v ?? ''));
  return Number.isFinite(ms) ? time(ms).replace(/ UTC$/, '') : timeOf(v);
};
/** A sampling step in words: 86 min, 1.4 h. */
const every = (ms: number) => {
  const min = ms / 60_000;
  return min < 1
    ? `${n(Math.round(ms / 1000))} s`
    : min < 120
      ? `${n(Math.round(min))} min`
      : `${n(Math.round(min / 6) / 10)} h`;
};
/** The level filter's value for the tokens botting analysis does not cover (no level name can hold a NUL). */
const OFF = '\u0000not covered';
const NO_FEES = 'no fee data from the upstream for this token';
/** How many decimals a formatted number has. */
const decimals = (text: string) => /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
/**
 * A number with its own digits, padded with figure spaces to `places` decimals so that a column's decimal
 * points line up (tabular figures); a dash when there is none.
 */
const aligned = (v: number | null | undefined, places: number, format: (v: unknown) => string = coin) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '—';
  const text = format(v);
  const have = decimals(text);
  // (A missing point is a punctuation space wide, each missing digit a figure space.)
  const point = have === 0 && places > 0 ? '\u2008' : '';
  return text + point + '\u2007'.repeat(Math.max(0, places - have));
};
/** A confidence as 0.80 beside 0.96: two decimals, always (a dash when there is none). */
const conf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : '—');
