import * as z from 'zod';
import { DEFAULT_PERIOD, idLimit, PERIODS, requestFor } from '../api/endpoints.js';
import { renderGenericBatch } from '../format/batch.js';
import { namesIn, seriesData } from '../view-data.js';
import { batchOutput } from './batch-output.js';
import { bounded, idsOf, otherChainHint, SCOPES } from './shared.js';
import { defineTool } from './tool.js';

export const getStreamersAnalytics = defineTool({
  name: 'get_streamers_analytics',
  title: 'Streamer analytics (batch)',
  description:
    'Time series of tokens over a period: per token and series, first, last, min, max (and when), mean, sparkline. detailed: every point.',
  input: {
    mintIds: idsOf('analytics'),
    period: z.enum(PERIODS).default(DEFAULT_PERIOD),
    points: bounded('analytics', 'points', 'Data points returned'),
  },
  scope: SCOPES.noPlatformC,
  ids: 'mintIds',
  output: batchOutput,
  request: ({ mintIds, period, points, chain, platform }) =>
    requestFor('analytics', { mintIds, period, points, chain, platform }),
  // The view labels each series by its token's symbol or name: one more request, for the view only.
  view: async (body, { mintIds, period, points, chain, platform }, send) => ({
    kind: 'series',
    scope: { chain, platform, period, points, requested: mintIds.length },
    ...seriesData(
      body.data,
      mintIds,
      namesIn(
        await send(
          requestFor('streamers', {
            tokenAddresses: mintIds.slice(0, idLimit('streamers')),
            limit: idLimit('streamers'),
            page: 1,
            chain,
            platform,
          }),
        ).catch(() => undefined),
        mintIds,
      ),
      (n) =>
        otherChainHint('get_streamers_analytics', chain, platform, SCOPES.noPlatformC, n, mintIds.length),
    ),
  }),
  render: (body, args, ctx) =>
    renderGenericBatch(
      'Streamer analytics',
      body,
      args.mintIds,
      `${args.chain} / ${args.platform}, period ${args.period}, ${args.points} points`,
      ctx.format === 'detailed',
      ctx.budget,
      'fewer points or a shorter period',
      true,
      (n) =>
        otherChainHint(
          'get_streamers_analytics',
          args.chain,
          args.platform,
          SCOPES.noPlatformC,
          n,
          args.mintIds.length,
        ),
      { chain: args.chain, platform: args.platform, period: args.period, points: args.points },
    ),
});
