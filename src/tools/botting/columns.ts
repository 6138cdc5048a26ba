import type { Finding, TokenFees } from '../../format/botting.js';
import { reasonsText } from '../../format/botting.js';
import type { Field } from '../../format/columns.js';
import { liveText, type StreamerRecord } from '../../format/streamer.js';
import { abbrev, coin, label, money, num } from '../../format/text.js';
import { exact } from '../../untrusted/numbers.js';
import { clean, quote } from '../../untrusted/text.js';
import { NOT_COVERED_CELL } from '../coverage.js';
import * as shared from '../shared.js';

export interface Cell {
  f: Finding;
  rank: number;
  r: StreamerRecord | undefined;
  fee: TokenFees | undefined;
  full: boolean;
  /** The id as the text shows it (whole, or shortened). */
  id: string;
}

const col = shared.col<Cell>;
const jsonOnly = shared.jsonOnly<Cell>;

export function rankingColumns(
  showFees: boolean,
  coverage: boolean,
  detailed: boolean,
  full: boolean,
): Array<Field<Cell>> {
  const covered = (c: Cell) => c.f.covered;
  return [
    col('#', (c) => String(c.rank), ['rank', (c) => c.rank], 'right'),
    col('level', (c) => (covered(c) ? c.f.level : c.f.error === undefined ? `(${c.f.level})` : '–'), [
      'level',
      (c) => (c.f.error === undefined ? c.f.level : null),
    ]),
    col('conf', (c) => num(c.f.confidence), ['confidence', (c) => c.f.confidence], 'right'),
    col('score', (c) => num(c.f.score), ['score', (c) => c.f.score], 'right'),
    col('live', (c) => (c.r ? liveText(c.r.isCurrentlyLive) : '?'), [
      'live',
      (c) => (typeof c.r?.isCurrentlyLive === 'boolean' ? c.r.isCurrentlyLive : null),
    ]),
    col('viewers', (c) => num(c.r?.currentViewers), ['viewers', (c) => exact(c.r?.currentViewers)], 'right'),
    col(
      'mcap',
      (c) => (detailed ? num(c.r?.tokenMarketCap) : abbrev(c.r?.tokenMarketCap)),
      ['marketCap', (c) => exact(c.r?.tokenMarketCap)],
      'right',
    ),
    col('name', (c) => (c.r ? quote(c.r.coinName, 20) : '–'), [
      'name',
      (c) => (c.r ? clean(c.r.coinName, 60) : null),
    ]),
    col('symbol', (c) => (c.r ? label(c.r.coinSymbol) : '–'), [
      'symbol',
      (c) => (c.r ? clean(c.r.coinSymbol, 16) : null),
    ]),
    col('mint', (c) => c.id, ['mintId', (c) => c.f.mintId]),
    ...(showFees
      ? [
          col(
            'native fees',
            (c) => coin(c.fee?.feesInNativeCoin),
            ['feesInNativeCoin', (c) => c.fee?.feesInNativeCoin ?? null],
            'right',
          ),
          col(
            'fees',
            (c) => (c.fee ? `${money(c.fee.totalFees)} ${label(c.fee.currency)}` : '–'),
            ['totalFees', (c) => c.fee?.totalFees ?? null],
            'right',
          ),
          jsonOnly(['currency', (c) => c.fee?.currency ?? null]),
        ]
      : []),
    col(
      full ? 'reasons' : 'first reason',
      (c) =>
        `${covered(c) ? '' : `${NOT_COVERED_CELL}; `}${
          c.f.error === undefined
            ? reasonsText(c.f.reasons, c.full ? Infinity : 1, 48)
            : `upstream: ${quote(c.f.error, 60)}`
        }`,
      ['reasons', (c) => (c.full ? c.f.reasons : c.f.reasons.slice(0, 3))],
    ),
    ...(coverage
      ? [jsonOnly(['covered', (c) => c.f.covered]), jsonOnly(['upstreamError', (c) => c.f.error ?? null])]
      : []),
  ];
}
