import * as z from 'zod';
import { asArray, asRecord } from '../format/batch.js';
import { type Field, jsonTable, textTable } from '../format/columns.js';
import { extraLine } from '../format/generic.js';
import type { Report } from '../format/result.js';
import { liveText, type StreamerRecord } from '../format/streamer.js';
import { decimalText, idColumn, label, num, plural, shortener, shortId } from '../format/text.js';
import { decimalSum, exact, numberOf } from '../untrusted/numbers.js';
import { clean, cleanDeep, quote } from '../untrusted/text.js';
import { object, strings, table, text } from './batch-output.js';
import { bounded, col, idsOf, otherChainHint, page, SCOPES } from './shared.js';
import { defineTool } from './tool.js';

/** Missing addresses past this count are shortened in the text (structuredContent has them whole). */
const WHOLE_IDS = 25;

/** The record field each sortBy reads as (our reading: the document says "sorted by the requested field"). */
const SORT_FIELD = {
  viewers: 'currentViewers',
  time: 'totalStreamingTime',
  averageViewers: 'averageViewers',
  marketCap: 'tokenMarketCap',
} as const;

export const listStreamers = defineTool({
  name: 'list_streamers',
  title: 'List streamers',
  description:
    'Streamer records of the tokens named (name, symbol, live, viewers, market cap, streaming time), sorted and paged; the live count and viewers of the page. detailed: price.',
  endpoint: 'streamers',
  input: {
    tokenAddresses: idsOf('streamers', 'Token addresses'),
    sortBy: z.enum(['viewers', 'time', 'averageViewers', 'marketCap']).default('viewers'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    limit: bounded('streamers', 'limit', 'Rows per page'),
    page,
  },
  output: {
    pagination: object,
    ...table,
    notFound: strings,
    notFoundCount: z.number().optional(),
    aggregates: object,
    idsShortened: text,
  },
  render(body, args, ctx): Report<StreamerRecord> {
    const records = asArray(body.data).map(asRecord) as StreamerRecord[];
    const pg = asRecord(body.pagination);
    const total = numberOf(pg.total) ?? records.length;
    const totalPages = numberOf(pg.totalPages);
    const requested = args.tokenAddresses.length;
    const showScope = args.chain === 'all' || args.platform === 'all';
    // Concise text: the total streaming time when it ranks the rows; detailed text and the JSON always.
    const streamTime = args.sortBy === 'time' || ctx.format === 'detailed';
    const ids = idColumn(records.length, 'addresses', { ranked: true });
    const base: Array<Field<StreamerRecord>> = [
      { key: 'mintId', header: 'mint', text: (r, i) => ids.show(clean(r.mintId, 64), i) },
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
    // The sort field's values are shown so the order can be read; one the records lack is said to be missing.
    const sortField = SORT_FIELD[args.sortBy];
    const sortShown = base.some((f) => f.key === sortField);
    const sortSent = records.some((r) => exact(r[sortField]) !== null);
    const sortColumn = col<StreamerRecord>(sortField, (r) => num(r[sortField]), [sortField], 'right');
    const fields = [...base, ...(!sortShown && sortSent ? [sortColumn] : [])];
    const keys = fields.map((f) => f.key);
    const orderNote =
      records.length && !sortShown && !sortSent
        ? `Order: the upstream's, by ${args.sortBy} ${args.sortOrder}; the records carry no ${sortField} value, so the order cannot be checked from this data.`
        : undefined;
    const returned = new Set(records.map((r) => r.mintId));
    const notFound =
      total < requested && (totalPages ?? 1) <= 1 ? args.tokenAddresses.filter((a) => !returned.has(a)) : [];
    const pageText = totalPages !== undefined ? `page ${args.page} of ${totalPages}` : `page ${args.page}`;
    const live = records.filter((r) => r.isCurrentlyLive === true).length;
    const viewers = decimalSum(
      records.map((r) => exact(r.currentViewers)).filter((v): v is number => v !== null),
    );
    const scopeText = `${args.chain} / ${args.platform}`;
    const headline = records.length
      ? `Streamers: ${records.length} of ${num(total)} (${pageText}, by ${args.sortBy} ${args.sortOrder}; ${scopeText}); on this page: ${live} live, ${decimalText(viewers)} ${viewers === '1' ? 'viewer' : 'viewers'} now`
      : `Streamers: ${requested === 1 ? 'the requested address not' : `none of the ${requested} requested addresses`} ${args.page > 1 && total > 0 ? `on page ${args.page} (${num(total)} found in all)` : `found on ${scopeText}`}`;
    const missingCount = Math.max(0, requested - total);
    const shown = shortener(notFound);
    const listed = notFound.length > WHOLE_IDS ? notFound.map(shown) : notFound;
    const missing = missingCount
      ? `${missingCount} of ${plural(requested, 'requested address', 'requested addresses')} ${missingCount === 1 ? 'has' : 'have'} no streamer data on ${scopeText}${
          listed.length
            ? `: ${listed.join(', ')}${listed !== notFound ? ' (shortened: the addresses you passed)' : ''}`
            : ''
        }.`
      : undefined;
    const hint = otherChainHint('list_streamers', SCOPES.noPlatformC, args, requested)(missingCount);
    // Which addresses are missing shows only when every found row is on this page: the next step says how.
    const which =
      missingCount && !notFound.length && total > 0
        ? `limit ${requested} (all on one page) names the ${plural(missingCount, 'missing address', 'missing addresses')}.`
        : undefined;
    const next =
      [pg.hasNext === true ? `page ${args.page + 1}.` : undefined, which, hint].filter(Boolean).join(' ') ||
      undefined;
    return {
      headline,
      query: { sortBy: args.sortBy, sortOrder: args.sortOrder, chain: args.chain, platform: args.platform },
      lines: [missing],
      data: {
        aggregates: {
          rows: records.length,
          live,
          currentViewers: Number(viewers),
          ...(orderNote ? { order: orderNote } : records.length ? { sortedBy: sortField } : {}),
        },
        pagination: cleanDeep(pg) as Record<string, unknown>,
      },
      rows: {
        items: records,
        cut: {
          what: 'rows of this page',
          how: (n) =>
            `To see the rest, ask with a smaller limit (e.g. limit ${Math.max(1, n)} and later pages).`,
        },
        text: (rows) => (records.length ? textTable(fields, rows) : []),
        shortened: (rows) => ids.note(rows.map((r) => clean(r.mintId, 64))),
        after: (rows) => [
          orderNote,
          ...(ctx.format === 'detailed'
            ? rows.flatMap((r) => extraLine(shortId(clean(r.mintId, 64)), r, keys))
            : []),
        ],
        json: (rows) => ({
          ...jsonTable(fields, rows, ctx.format === 'detailed'),
          ...(missingCount ? { notFoundCount: missingCount } : {}),
          ...(notFound.length ? { notFound } : {}),
        }),
      },
      next,
    };
  },
});
