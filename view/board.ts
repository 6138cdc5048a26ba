// The investigation board: one row per finding in the report's order, sortable and filterable, 50 rows
// drawn at a time; levels, flags, top reasons and failure groups drawn as the report gives them.
import type { App } from '@modelcontextprotocol/ext-apps';
import type { BoardData, BoardRow } from '../src/report/view-types.js';
import { boardColumns, isCovered, levelClass, NO_FEES, SORT_KEYS, type SortKey } from './board-columns.js';
import { advice, alertText, el, n, plural, put } from './dom.js';
import { evidencePanel, shortId, tokenName } from './evidence.js';
import { failureDetails } from './failures.js';
import { changesNote, historyKey, historyNote, rowHistory } from './history.js';

const PAGE = 50;
const SORT_NAMES: Partial<Record<SortKey, string>> = { level: 'Most suspicious', fees: 'Fees (native coin)' };
/** The level filter's value for the tokens botting analysis does not cover (no level name can hold a NUL). */
const OFF = '\u0000not covered';

export function board(root: HTMLElement, data: BoardData, app: App) {
  const { rows, scope, total, failed, filters } = data;
  // The report's levels, in its order: a level's place is its rank (not-covered rows: none, last).
  const levelInfo = new Map(data.levels.map((l) => [l.level, l]));
  const levels = data.levels.map((l) => l.level);
  const rank = new Map(levels.map((l, i) => [l, levels.length - i]));
  const offCount = data.notCovered?.count ?? rows.filter((r) => !isCovered(r)).length;
  const offLabel = `not covered (${data.notCovered?.platform ?? 'another platform'})`;
  const offReason = data.notCovered?.reason ?? 'not covered: its platform was not the one asked';
  const { columns, has } = boardColumns(rows, levelInfo, offReason);
  const noFees = rows.filter((r) => 'feesNative' in r && r.feesNative == null && r.feesTotal == null).length;
  // The board opens on the call's slice (its levels, liveOnly and sortBy); the person can clear it.
  const callLevels = filters?.levels ?? null;
  const asked = callLevels?.length === 1 ? callLevels[0]?.toUpperCase() : undefined;
  const one = levels.find((l) => l.toUpperCase() === asked);
  const levelValue = callLevels ? (one ?? callLevels.join('\n')) : '';
  const state = {
    sort: SORT_KEYS.find((k) => k === filters?.sortBy) ?? ('level' as SortKey),
    desc: true,
    level: levelValue,
    live: filters?.liveOnly === true,
    q: '',
    shown: PAGE,
  };

  const counts = el('ul', { class: 'chips', 'aria-label': 'Tokens per level' });
  for (const l of data.levels)
    counts.append(el('li', { class: levelClass(levelInfo, l.level) }, `${l.level}: ${n(l.count)}`));
  if (offCount)
    counts.append(el('li', { class: 'level level-off', title: offReason }, `${offLabel}: ${n(offCount)}`));

  const search = el('input', { type: 'search', 'aria-label': 'Search tokens' });
  search.placeholder = 'Name, symbol or id';
  const levelSelect = el('select', { 'aria-label': 'Level' }, el('option', { value: '' }, 'All levels'));
  for (const l of levels) levelSelect.append(el('option', { value: l }, l));
  if (offCount) levelSelect.append(el('option', { value: OFF }, 'Not covered'));
  // Levels the call asked for that are not one level of this board (none, or several): as asked.
  if (callLevels && !one) levelSelect.append(el('option', { value: levelValue }, callLevels.join(', ')));
  levelSelect.value = state.level;
  const sortSelect = el('select', { 'aria-label': 'Sort by' });
  for (const { key, label } of columns)
    if (key) sortSelect.append(el('option', { value: key }, SORT_NAMES[key] ?? label));
  sortSelect.value = state.sort;
  const liveBox = el('input', { type: 'checkbox', id: 'live-only' });
  liveBox.checked = state.live;
  const clear = el('button', { type: 'button', class: 'clear' }, 'Clear filters');
  const tbody = el('tbody');
  const shown = el('p', { class: 'muted', 'aria-live': 'polite' });
  const more = el('div', { class: 'controls more' });
  const evidence = evidencePanel(root, app, scope, () => columns.length);

  const header = ({ key, label, cls }: (typeof columns)[number]) => {
    if (!key) return el('th', { scope: 'col', class: cls }, label);
    const arrow = el('span', { class: 'arrow', 'aria-hidden': 'true' });
    const button = el('button', { type: 'button', 'data-sort': key }, label, arrow);
    button.addEventListener('click', () => sortBy(key, state.sort === key ? !state.desc : true));
    const th = el('th', { scope: 'col', class: cls, 'aria-sort': 'none' }, button);
    if (key === 'fees') th.title = 'Creator fees: the native coin (sorted by), the fiat total under it';
    return th;
  };
  const head = el('tr', {}, ...columns.map(header));
  function sortBy(key: SortKey, desc: boolean) {
    Object.assign(state, { sort: key, desc });
    sortSelect.value = key;
    draw();
  }
  sortSelect.addEventListener('change', () => sortBy(sortSelect.value as SortKey, true));

  const value = (r: BoardRow, k: SortKey) => {
    if (k === 'level') return isCovered(r) ? (rank.get(r.level) ?? 0) : null;
    return k === 'fees' ? (r.feesNative ?? null) : r[k];
  };
  const compare = (a: BoardRow, b: BoardRow) => {
    const va = value(a, state.sort);
    const vb = value(b, state.sort);
    if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1;
    return state.desc ? vb - va : va - vb;
  };
  const rowOf = (r: BoardRow) => {
    const full = r.name ? `${r.name}${r.symbol ? ` (${r.symbol})` : ''}` : r.symbol;
    const title = full ? `${full}\n${r.mintId}` : r.mintId;
    const label = `Evidence for ${tokenName(r)}`;
    const open = el('button', { type: 'button', class: 'token', title, 'aria-label': label });
    open.setAttribute('aria-expanded', 'false');
    // The name wraps; the symbol and a short id stay whole (names repeat); no name: the whole id.
    if (r.name || r.symbol)
      open.append(
        el('span', { class: 'name' }, r.name ?? ''),
        r.symbol ? el('span', { class: 'symbol muted' }, r.symbol) : '',
        el('span', { class: 'short-id muted' }, shortId(r.mintId)),
      );
    else open.append(el('span', { class: 'ids' }, r.mintId));
    const attrs = isCovered(r) ? { 'data-mint': r.mintId } : { 'data-mint': r.mintId, class: 'not-covered' };
    const tr = el('tr', attrs, ...columns.map((c) => c.cell(r)));
    tr.firstElementChild?.append(open, ...rowHistory(data, r.mintId, tr));
    open.addEventListener('click', () =>
      open.getAttribute('aria-expanded') === 'true' ? evidence.close() : evidence.show(r, tr),
    );
    return tr;
  };

  const button = (text: string, onClick: () => void) => {
    const b = el('button', { type: 'button' }, text);
    b.addEventListener('click', onClick);
    return b;
  };
  function draw() {
    evidence.close(false);
    const q = state.q.trim().toLowerCase();
    // A level matches covered rows of it and not-covered rows with that verdict, as the text counts them.
    const wanted = state.level ? new Set(state.level.split('\n').map((l) => l.toUpperCase())) : null;
    const off = wanted?.has(OFF.toUpperCase());
    const visible = rows
      .filter((r) => !wanted || (off ? !isCovered(r) : wanted.has(r.level.toUpperCase())))
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
    const none = q
      ? `No token matches "${state.q.trim()}"${filtered ? ' with these filters' : ''}.`
      : 'No token matches these filters.';
    const empty = el('td', { colspan: String(columns.length), class: 'muted' }, none);
    if (!visible.length) tbody.append(el('tr', { class: 'empty' }, empty));
    const drawn = Math.min(visible.length, state.shown);
    shown.textContent =
      drawn < visible.length
        ? `Showing ${n(drawn)} of ${plural(visible.length, 'token')}`
        : `${n(visible.length)} of ${plural(rows.length, 'token')} shown`;
    more.replaceChildren();
    const showing = (count: number) => () => {
      state.shown = count;
      draw();
    };
    if (drawn < visible.length)
      more.append(
        button(`Show ${n(Math.min(PAGE, visible.length - drawn))} more`, showing(state.shown + PAGE)),
        button(`Show all ${n(visible.length)}`, showing(visible.length)),
      );
  }
  const refilter = (node: HTMLElement, event: string, set: () => void) =>
    node.addEventListener(event, () => {
      set();
      state.shown = PAGE;
      draw();
    });
  refilter(search, 'input', () => (state.q = search.value));
  refilter(levelSelect, 'change', () => (state.level = levelSelect.value));
  refilter(liveBox, 'change', () => (state.live = liveBox.checked));
  refilter(clear, 'click', () => {
    state.level = levelSelect.value = '';
    state.live = liveBox.checked = false;
    state.q = search.value = '';
    levelSelect.focus();
  });

  const note = (text: string) => el('p', { class: 'note' }, text);
  const counted = `${n(scope.requested)} requested, ${n(failed)} failed; ${offCount ? `${n(offCount)} ${offLabel}; ` : ''}${scope.chain} / ${scope.platform}, last\u00a0${scope.hours}\u00a0h`;
  const capped = `The board holds the first ${n(rows.length)} of ${n(total)} findings (its cap is ${n(data.limits.rows)}).`;
  const unexpected = `The upstream also answered for ${n(data.unexpected)} ids that were not requested: not shown, not counted.`;
  // A short board shows reasons whole.
  root.classList.toggle('few-rows', rows.length <= 10);
  put(
    root,
    el('h1', {}, `${data.title}: ${plural(total, 'token')} analysed`),
    el('p', { class: 'muted' }, counted),
    changesNote(data),
    historyNote(data),
    historyKey(data.history),
    data.failureGroups.length ? failureDetails(data.failureGroups, failed) : null,
    data.hint ? el('p', { class: 'hint' }, `Hint: ${advice(data.hint)}`) : null,
    total > rows.length && note(capped),
    !!data.unexpected && note(unexpected),
  );

  // Nothing analysed: no table, no filters over nothing; the failures above say why.
  const nothing = failed
    ? `No token could be analysed: ${n(failed)} of ${plural(scope.requested || failed, 'token')} failed.`
    : 'No token was analysed.';
  if (!rows.length) return void root.append(alertText(nothing));
  const footnote = (text: string) => el('p', { class: 'muted footnote' }, text);
  const reasons = data.topReasons.map((t) => `${t.reason} (${n(t.count)})`).join('; ');
  const liveLabel = (has.live || state.live) && el('label', { for: 'live-only' }, liveBox, ' Live now');
  const offNote = `Not covered (${n(offCount)}): ${offReason.replace(/^not covered: /, '')}; greyed, in no level count, last in the order of suspicion.`;
  put(
    root,
    counts,
    !!reasons && el('p', { class: 'muted' }, `Most frequent reasons: ${reasons}`),
    el('div', { class: 'controls' }, search, levelSelect, sortSelect, liveLabel, clear),
    shown,
    el('table', { class: 'board' }, el('thead', {}, head), tbody),
    more,
    offCount > 0 && footnote(offNote),
    noFees > 0 && footnote(`— in the fees column: ${NO_FEES} (${plural(noFees, 'token')}).`),
  );
  draw();
}
