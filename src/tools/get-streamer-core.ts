import { asRecord } from '../format/batch.js';
import { describeObject } from '../format/generic.js';
import { liveText, type StreamerRecord } from '../format/streamer.js';
import { num } from '../format/text.js';
import { clean, cleanDeep, quote } from '../untrusted/text.js';
import { object, text } from './batch-output.js';
import { bottingHint, mintId, PLATFORM_CHAIN, scopeHint } from './shared.js';
import { defineTool } from './tool.js';

const DOCUMENTED = `mintId coinName coinSymbol currentViewers tokenMarketCap tokenPrice isCurrentlyLive
  totalStreamingTime chain platform`.split(/\s+/);

/** The pair to pass on: the token's own where its record names a concrete pair, else the pair asked. */
function ownPair(r: StreamerRecord, args: { chain: string; platform: string }): [string, string] {
  const platform = r.platform as string;
  return Object.hasOwn(PLATFORM_CHAIN, platform) &&
    PLATFORM_CHAIN[platform as keyof typeof PLATFORM_CHAIN] === r.chain
    ? [r.chain as string, platform]
    : [args.chain, args.platform];
}

export const getStreamerCore = defineTool({
  name: 'get_streamer_core',
  title: 'Streamer core data',
  description:
    "One token's streamer record: name, symbol, live now, viewers, market cap, price, total streaming time. detailed: other fields.",
  endpoint: 'core',
  input: { mint: mintId.describe('Token mint id') },
  output: { streamer: object, detail: text },
  render(body, args, ctx) {
    const r = asRecord(body.data) as StreamerRecord;
    const detailed = ctx.format === 'detailed';
    const extra = detailed ? describeObject(r, DOCUMENTED, true).parts : [];
    const live =
      r.isCurrentlyLive === true
        ? `LIVE now, ${num(r.currentViewers)} viewers`
        : `not live (${num(r.currentViewers)} viewers)`;
    return {
      headline: `Streamer ${quote(r.coinName, 60)} (${quote(r.coinSymbol, 16)}): ${live}`,
      query: { mint: args.mint, chain: args.chain, platform: args.platform },
      lines: [
        `mint ${clean(r.mintId ?? args.mint, 64)} · ${clean(r.chain ?? args.chain, 16)} / ${clean(r.platform ?? args.platform, 16)}`,
        `live: ${liveText(r.isCurrentlyLive)} · viewers ${num(r.currentViewers)} · market cap ${num(r.tokenMarketCap)} · price ${num(r.tokenPrice)} · total streaming time ${num(r.totalStreamingTime)} (unit not stated by the API)`,
        extra.length > 0 && `other fields: ${extra.join('; ')}`,
      ],
      data: {
        streamer: detailed
          ? (cleanDeep(r) as Record<string, unknown>)
          : Object.fromEntries(
              DOCUMENTED.filter((k) => r[k] !== undefined).map((k) => [
                k,
                typeof r[k] === 'string' ? clean(r[k], 120) : r[k],
              ]),
            ),
      },
      nothingMore: detailed && !extra.length,
      next: `get_streamer_sessions${scopeHint(...ownPair(r, args))} for its stream history; ${bottingHint(r.platform ?? args.platform)}.`,
    };
  },
});
