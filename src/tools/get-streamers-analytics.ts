import * as z from 'zod';
import { renderGenericBatch } from '../format/batch.js';
import { namesIn, seriesData } from '../view-data.js';
import { batchOutput } from './batch-output.js';
import { idList, otherChainHint, SCOPES, SHAPES } from './shared.js';
import { defineTool } from './tool.js';

export const getStreamersAnalytics = defineTool({
  name: 'get_streamers_analytics',
  title: 'Streamer analytics (batch)',
  description:
    'Time series of tokens over a period: per token and series, first, last, min, max (and when), mean, sparkline. detailed: every point.',
  input: {
    mintIds: idList(25),
    period: z.enum(['1h', '6h', '12h', '1d', '7d', '30d']).default('1d'),
    points: z.number().int().min(10).max(500).default(100).describe('Data points returned'),
  },
  scope: SCOPES.noPlatformC,
  ids: 'mintIds',
  output: batchOutput,
  request: ({ mintIds, period, points, chain, platform }) => ({
    method: 'POST',
    path: '/streamers/analytics',
    shape: SHAPES.batch,
    body: { mintIds, period, points, chain, platform },
  }),
  // The view labels each series by its token's symbol or name: one more request of the tool's, for the view
  // only (none when it fails).
  view: async (body, { mintIds, period, points, chain, platform }, send) => ({
    kind: 'series',
    scope: { chain, platform, period, points, requested: mintIds.length },
    ...seriesData(
      body.data,
      mintIds,
      namesIn(
        await send({
          method: 'POST',
          path: '/streamers',
          shape: SHAPES.streamers,
          body: { tokenAddresses: mintIds.slice(0, 100), limit: 100, page: 1, chain, platform },
        }).catch(() => undefined),
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
