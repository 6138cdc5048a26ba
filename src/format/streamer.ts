// The streamer core record (document: "Streamer core record"), as a table row and as a card.
import { type Column, label, num, quote } from './text.js';

export interface StreamerRecord {
  mintId: string;
  coinName?: unknown;
  coinSymbol?: unknown;
  currentViewers?: unknown;
  tokenMarketCap?: unknown;
  tokenPrice?: unknown;
  isCurrentlyLive?: unknown;
  totalStreamingTime?: unknown;
  chain?: unknown;
  platform?: unknown;
  [field: string]: unknown;
}

const CORE_KEYS = [
  'mintId',
  'coinName',
  'coinSymbol',
  'isCurrentlyLive',
  'currentViewers',
  'tokenMarketCap',
  'totalStreamingTime',
] as const;

const CORE_COLUMNS: Column[] = [
  { header: 'mint' },
  { header: 'name' },
  { header: 'symbol' },
  { header: 'live' },
  { header: 'viewers', align: 'right' },
  { header: 'mcap', align: 'right' },
  { header: 'stream time', align: 'right' },
];

/**
 * Columns of a concise streamer table; chain and platform only when the query spans several. The price is
 * left to `detailed`: for ranking and scanning, market cap says the same and costs fewer tokens per row.
 * The text shows the total streaming time only when it ranks the rows (`streamTime`): a unitless six-digit
 * figure per row was a tenth of the table's tokens, and the structured rows and detailed mode keep it.
 */
export function streamerColumns(showScope: boolean, streamTime = true): { keys: string[]; text: Column[] } {
  const text = streamTime ? CORE_COLUMNS : CORE_COLUMNS.filter((c) => c.header !== 'stream time');
  return showScope
    ? {
        keys: [...CORE_KEYS, 'chain', 'platform'],
        text: [...text, { header: 'chain' }, { header: 'platform' }],
      }
    : { keys: [...CORE_KEYS], text };
}

export const liveText = (v: unknown) => (v === true ? 'LIVE' : v === false ? 'off' : '?');

export function streamerRow(r: StreamerRecord, showScope: boolean, id: string, streamTime = true): string[] {
  const row = [
    id,
    quote(r.coinName, 24),
    label(r.coinSymbol),
    liveText(r.isCurrentlyLive),
    num(r.currentViewers),
    num(r.tokenMarketCap),
    ...(streamTime ? [num(r.totalStreamingTime)] : []),
  ];
  return showScope ? [...row, quote(r.chain, 12), quote(r.platform, 12)] : row;
}
