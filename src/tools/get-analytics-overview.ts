import * as z from 'zod';
import { asRecord } from '../format/batch.js';
import { described } from '../format/generic.js';
import { num } from '../format/text.js';
import { clean } from '../untrusted/text.js';
import { object, text } from './batch-output.js';
import { defineTool } from './tool.js';

export const getAnalyticsOverview = defineTool({
  name: 'get_analytics_overview',
  title: 'Analytics overview',
  description:
    'Service-wide totals: streamers tracked and live, viewers now, sessions today, session lengths, streaming time, live metrics (may name top live tokens). detailed: every value.',
  endpoint: 'overview',
  input: {},
  output: {
    globalStats: object,
    liveMetrics: object,
    cached: z.boolean().optional(),
    precomputed: z.boolean().optional(),
    timestamp: text,
    detail: text,
  },
  render(body, args, ctx) {
    const data = asRecord(body.data);
    const raw = asRecord(data.globalStats);
    const detailed = ctx.format === 'detailed';
    const stats = described(raw, [], detailed);
    const metrics = described(asRecord(data.liveMetrics), [], detailed);
    const flag = (name: string, v: unknown) => (typeof v === 'boolean' ? { [name]: v } : {});
    const time = data.timestamp !== undefined ? { timestamp: clean(data.timestamp, 40) } : {};
    const yes = (v: unknown) => (v ? 'yes' : 'no');
    const flags = [
      typeof body.cached === 'boolean' && `served from cache: ${yes(body.cached)}`,
      typeof body.precomputed === 'boolean' && `precomputed: ${yes(body.precomputed)}`,
      time.timestamp !== undefined && `as of ${time.timestamp}`,
    ].filter(Boolean);
    return {
      headline: `Analytics overview (${args.chain} / ${args.platform}): ${num(raw.totalStreamers)} ${raw.totalStreamers === 1 ? 'streamer' : 'streamers'}, ${num(raw.liveStreamers)} live, ${num(raw.totalViewers)} ${raw.totalViewers === 1 ? 'viewer' : 'viewers'}`,
      query: { chain: args.chain, platform: args.platform },
      lines: [
        `global stats: ${stats.parts.join('; ') || 'none returned'}`,
        'Time-valued fields as returned (units not stated by the API).',
        `live metrics: ${metrics.parts.join('; ') || 'none returned'}`,
        flags.length > 0 && flags.join(' · '),
      ],
      data: {
        globalStats: stats.json,
        liveMetrics: metrics.json,
        ...flag('cached', body.cached),
        ...flag('precomputed', body.precomputed),
        ...time,
      },
      nothingMore: stats.same && metrics.same,
    };
  },
});
