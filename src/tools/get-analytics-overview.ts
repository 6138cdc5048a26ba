import * as z from 'zod';
import { requestFor } from '../api/endpoints.js';
import { asRecord } from '../format/batch.js';
import { describeObject, NOTHING_MORE, nothingMore } from '../format/generic.js';
import { result } from '../format/result.js';
import { num } from '../format/text.js';
import { clean, cleanDeep } from '../untrusted/text.js';
import { SCOPES } from './shared.js';
import { defineTool } from './tool.js';

export const getAnalyticsOverview = defineTool({
  name: 'get_analytics_overview',
  title: 'Analytics overview',
  description:
    'Service-wide totals: streamers tracked and live, viewers now, sessions today, session lengths, streaming time, live metrics (may name top live tokens). detailed: every value.',
  input: {},
  scope: SCOPES.any,
  output: {
    globalStats: z.object({}).loose().optional(),
    liveMetrics: z.object({}).loose().optional(),
    cached: z.boolean().optional(),
    precomputed: z.boolean().optional(),
    timestamp: z.string().optional(),
    detail: z.string().optional(),
  },
  request: ({ chain, platform }) => requestFor('overview', { chain, platform }),
  render(body, args, ctx) {
    const data = asRecord(body.data);
    const stats = asRecord(data.globalStats);
    const metrics = asRecord(data.liveMetrics);
    const detailed = ctx.format === 'detailed';
    const statsDescribed = describeObject(stats, [], detailed);
    const metricsDescribed = describeObject(metrics, [], detailed);
    const headline = `Analytics overview (${args.chain} / ${args.platform}): ${num(stats.totalStreamers)} ${stats.totalStreamers === 1 ? 'streamer' : 'streamers'}, ${num(stats.liveStreamers)} live, ${num(stats.totalViewers)} ${stats.totalViewers === 1 ? 'viewer' : 'viewers'}`;
    const flags = [
      typeof body.cached === 'boolean' ? `served from cache: ${body.cached ? 'yes' : 'no'}` : undefined,
      typeof body.precomputed === 'boolean' ? `precomputed: ${body.precomputed ? 'yes' : 'no'}` : undefined,
      data.timestamp !== undefined ? `as of ${clean(data.timestamp, 40)}` : undefined,
    ].filter(Boolean);
    const same = detailed && nothingMore(stats) && nothingMore(metrics);
    return result({
      headline,
      lines: [
        `global stats: ${statsDescribed.parts.join('; ') || 'none returned'}`,
        'Time-valued fields as returned (units not stated by the API).',
        `live metrics: ${metricsDescribed.parts.join('; ') || 'none returned'}`,
        ...(flags.length ? [flags.join(' · ')] : []),
        ...(same ? [NOTHING_MORE] : []),
      ],
      query: { chain: args.chain, platform: args.platform },
      data: {
        globalStats: detailed ? (cleanDeep(stats) as Record<string, unknown>) : statsDescribed.fields,
        liveMetrics: detailed ? (cleanDeep(metrics) as Record<string, unknown>) : metricsDescribed.fields,
        ...(typeof body.cached === 'boolean' ? { cached: body.cached } : {}),
        ...(typeof body.precomputed === 'boolean' ? { precomputed: body.precomputed } : {}),
        ...(data.timestamp !== undefined ? { timestamp: clean(data.timestamp, 40) } : {}),
        ...(same ? { detail: NOTHING_MORE } : {}),
      },
    });
  },
});
