// The streamer core record (document: "Streamer core record"): its columns, each declared once.

import { quote } from '../untrusted/text.js';
import type { Field } from './columns.js';
import { label, num } from './text.js';

export type StreamerRecord = { mintId: string; [field: string]: unknown };

export const liveText = (v: unknown) => (v === true ? 'LIVE' : v === false ? 'off' : '?');

/** Columns of a concise streamer table (`id`: the row's id in the text); chain and platform when several. */
export function streamerFields(
  showScope: boolean,
  streamTime: boolean,
  id: (r: StreamerRecord, index: number) => string,
): Array<Field<StreamerRecord>> {
  return [
    { key: 'mintId', header: 'mint', text: id },
    { key: 'coinName', header: 'name', text: (r) => quote(r.coinName, 24) },
    { key: 'coinSymbol', header: 'symbol', text: (r) => label(r.coinSymbol) },
    { key: 'isCurrentlyLive', header: 'live', text: (r) => liveText(r.isCurrentlyLive) },
    { key: 'currentViewers', header: 'viewers', align: 'right', text: (r) => num(r.currentViewers) },
    { key: 'tokenMarketCap', header: 'mcap', align: 'right', text: (r) => num(r.tokenMarketCap) },
    {
      key: 'totalStreamingTime',
      header: 'stream time',
      align: 'right',
      text: (r) => num(r.totalStreamingTime),
      textless: !streamTime,
    },
    ...(showScope
      ? [
          { key: 'chain', header: 'chain', text: (r: StreamerRecord) => quote(r.chain, 12) },
          { key: 'platform', header: 'platform', text: (r: StreamerRecord) => quote(r.platform, 12) },
        ]
      : []),
  ];
}
