// The board's columns: a header, a sort key and a cell each, only for what the data has. A level's badge
// is marked flagged when the report flags that level (src/tools/botting/report.ts); the view has no rule.
import { coin, money } from '../src/format/text.js';
import type { BoardRow, LevelEntry } from '../src/report/view-types.js';
import { el, n } from './dom.js';
import { conf } from './evidence.js';

/** The sort keys that are also the call's sortBy values. */
export const SORT_KEYS = ['score', 'confidence', 'viewers', 'marketCap', 'fees'] as const;
export type SortKey = 'level' | (typeof SORT_KEYS)[number];

export interface Column {
  key: SortKey | null;
  label: string;
  cls: string;
  cell: (r: BoardRow) => HTMLTableCellElement;
}

export const NO_FEES = 'no fee data from the upstream for this token';
export const isCovered = (r: BoardRow) => r.covered !== false;

/** A level's badge class: flagged where the report flags the level; every other level, whatever its name, neutral. */
export const levelClass = (levels: ReadonlyMap<string, LevelEntry>, level: string) =>
  `level ${levels.get(level)?.flagged ? 'level-flagged' : 'level-other'}`;

/** The columns of a board over `rows` (viewers, market cap, fees and live only where the data has them). */
export function boardColumns(
  rows: readonly BoardRow[],
  levels: ReadonlyMap<string, LevelEntry>,
  offReason: string,
) {
  const has = {
    viewers: rows.some((r) => r.viewers !== null),
    marketCap: rows.some((r) => r.marketCap !== null),
    live: rows.some((r) => r.live !== null),
    fees: rows.some((r) => 'feesNative' in r),
  };
  // Fees: the native coin's exact digits and the fiat total, each column's decimal points aligned.
  const feeDecimals = Math.max(0, ...rows.map((r) => decimals(coin(r.feesNative))));
  const fiatDecimals = Math.max(0, ...rows.map((r) => decimals(money(r.feesTotal))));
  const td = (cls: string, label: string, ...children: Array<Node | string>) =>
    el('td', label ? { class: cls, 'data-label': label } : { class: cls }, ...children);
  const reasons = (r: BoardRow) => r.reasons.join('; ');
  const notCovered = (r: BoardRow) => {
    const said = r.upstreamError ? `said "${r.upstreamError}"` : `gave the verdict ${r.level || 'none'}`;
    const title = `${offReason}; the upstream ${said}`;
    return el('span', { class: 'level level-off', title }, 'not covered');
  };
  const levelCell = (r: BoardRow) =>
    isCovered(r)
      ? [el('span', { class: levelClass(levels, r.level) }, r.level)]
      : [notCovered(r), r.level ? el('span', { class: 'muted verdict' }, ` (${r.level})`) : ''];
  const reasonsCell = (r: BoardRow) => {
    if (isCovered(r)) return el('div', { title: reasons(r) }, reasons(r) || '(none)');
    const verdict = `the upstream's verdict${r.reasons.length ? `: ${reasons(r)}` : ''}`;
    return el('div', {}, r.upstreamError ? `not analysed; the upstream said "${r.upstreamError}"` : verdict);
  };
  const live = (r: BoardRow) =>
    td(r.live ? 'live is-live' : 'live', '', r.live === null ? '—' : r.live ? 'live' : '');
  const confidence = (r: BoardRow) => td('num confidence', 'conf.', conf(r.confidence));
  // Sort key, header, class, whether the data has it, cell.
  const all: Array<[SortKey | null, string, string, boolean, Column['cell']]> = [
    [null, 'Token', 'token', true, () => td('token', '')],
    ['level', 'Level', 'level', true, (r) => td('level', '', ...levelCell(r))],
    ['score', 'Score', 'num score', true, (r) => td('num score', 'score', n(r.score))],
    ['confidence', 'Confidence', 'num confidence', true, confidence],
    ['viewers', 'Viewers', 'num viewers', has.viewers, (r) => td('num viewers', 'viewers', n(r.viewers))],
    ['marketCap', 'Market cap', 'num mcap', has.marketCap, (r) => td('num mcap', 'mcap', n(r.marketCap))],
    ['fees', 'Fees', 'num fees', has.fees, (r) => feesCell(r, feeDecimals, fiatDecimals)],
    [null, 'Live', 'live', has.live, live],
    [null, 'Reasons', 'reasons', true, (r) => td('reasons', '', reasonsCell(r))],
  ];
  const columns: Column[] = all.flatMap(([key, label, cls, shown, cell]) =>
    shown ? [{ key, label, cls, cell }] : [],
  );
  return { columns, has };
}

/** The native coin's exact digits, the fiat total under them; each's decimal points aligned. */
function feesCell(r: BoardRow, feeDecimals: number, fiatDecimals: number) {
  const none = r.feesNative == null && r.feesTotal == null;
  const currency = r.feesCurrency ? ` ${r.feesCurrency}` : '';
  const fiat = r.feesTotal == null ? '' : `${money(r.feesTotal)}${currency}`;
  const native = el('span', { class: 'native' }, aligned(r.feesNative, feeDecimals));
  const cell = el('td', { class: 'num fees', 'data-label': 'fees' }, native);
  const fiatAligned = r.feesTotal == null ? '—' : `${aligned(r.feesTotal, fiatDecimals, money)}${currency}`;
  if (!none) cell.append(el('span', { class: 'fiat muted' }, fiatAligned));
  const nativeSaid =
    r.feesNative == null ? 'no native-coin amount' : `${coin(r.feesNative)} in the native coin`;
  cell.title = none ? NO_FEES : `${nativeSaid}; ${fiat || 'no fiat total'}`;
  return cell;
}

const decimals = (text: string) => /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
/** A number padded to `places` decimals (a missing point a punctuation space, each digit a figure space). */
const aligned = (v: number | null | undefined, places: number, format: (v: unknown) => string = coin) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '—';
  const text = format(v);
  const have = decimals(text);
  return text + (have === 0 && places > 0 ? '\u2008' : '') + '\u2007'.repeat(Math.max(0, places - have));
};
