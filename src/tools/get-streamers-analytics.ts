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
  endpoint: 'analytics',
  input: {
    mintIds: idsOf('analytics'),
    period: z.enum(PERIODS).default(DEFAULT_PERIOD),
    points: bounded('analytics', 'points', 'Data points returned'),
  },
  output: batchOutput,
  async run(args, ctx) {
    const { mintIds, period, points, chain, platform } = args;
    const body = await ctx.send(requestFor('analytics', { mintIds, period, points, chain, platform }));
    const hint = otherChainHint('get_streamers_analytics', SCOPES.noPlatformC, args, mintIds.length);
    if (ctx.view) {
      // The view labels each series by its token's symbol or name: one more request of the tool's own.
      const limit = idLimit('streamers');
      const lookup = { tokenAddresses: mintIds.slice(0, limit), limit, page: 1, chain, platform };
      const names = await ctx.send(requestFor('streamers', lookup)).catch(() => undefined);
      ctx.view({
        kind: 'series',
        scope: { chain, platform, period, points, requested: mintIds.length },
        ...seriesData(body.data, mintIds, namesIn(names, mintIds), hint),
      });
    }
    return renderGenericBatch(
      {
        what: 'Streamer analytics',
        scope: `${chain} / ${platform}, period ${period}, ${points} points`,
        query: { chain, platform, period, points },
        narrow: 'fewer points or a shorter period',
        series: true,
        hint,
      },
      body,
      mintIds,
      ctx.format,
    );
  },
});
