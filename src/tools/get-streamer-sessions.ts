import * as z from 'zod';
import { asArray, asRecord } from '../format/batch.js';
import { describeObject } from '../format/generic.js';
import { fitRows, tabular } from '../format/result.js';
import { clean, num, table } from '../format/text.js';
import { mintId, page, SCOPES, SHAPES, segment } from './shared.js';
import { defineTool } from './tool.js';

const COLUMNS = ['startTime', 'endTime', 'duration', 'peakViewers', 'averageViewers'] as const;

/** `2026-11-20T14:02:11.000Z` → `2026-11-20 14:02Z`; anything else is shown cleaned, as it came. */
const when = (v: unknown) => {
  const text = clean(v, 40);
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(?::[\d.]+)?(Z|[+-]\d\d:?\d\d)$/.exec(text);
  return m ? `${m[1]} ${m[2]}${m[3] === 'Z' ? 'Z' : m[3]}` : text || '–';
};

export const getStreamerSessions = defineTool({
  name: 'get_streamer_sessions',
  title: 'Streaming sessions',
  description:
    "One token's past streaming sessions (start, end, duration, peak and average viewers). Use for stream history, or peaks against averages.",
  input: {
    mint: mintId.describe('Token mint id'),
    limit: z.number().int().min(1).max(100).default(20).describe('Sessions per page'),
    page,
  },
  scope: SCOPES.any,
  output: {
    query: z.object({}).loose().optional(),
    columns: z.array(z.string()).optional(),
    rows: z.array(z.array(z.unknown())).optional(),
    items: z.array(z.object({}).loose()).optional(),
  },
  request: ({ mint, limit, page, chain, platform }) => ({
    method: 'GET',
    path: `/streamers/${segment(mint)}/sessions`,
    query: { limit, page, chain, platform },
    shape: SHAPES.sessions,
  }),
  render(body, args, ctx) {
    const sessions = asArray(body.data).map(asRecord);
    const headline = `Sessions of ${args.mint}: ${sessions.length} on page ${args.page} (limit ${args.limit}; ${args.chain} / ${args.platform})`;
    const next =
      sessions.length >= args.limit
        ? `Next: page ${args.page + 1} may hold more (this page is full).`
        : sessions.length === 0 && args.page > 1
          ? 'No sessions on this page; earlier pages may have some.'
          : undefined;
    const query = {
      mint: args.mint,
      limit: args.limit,
      page: args.page,
      chain: args.chain,
      platform: args.platform,
    };
    const cut = {
      what: 'sessions',
      how: (shown: number) => `Ask with limit ${Math.max(1, shown)}.`,
      format: ctx.format,
    };
    return fitRows(sessions, ctx.budget, cut, (rows) => {
      const text = [
        headline,
        ...(rows.length
          ? table(
              [
                { header: 'start' },
                { header: 'end' },
                { header: 'duration', align: 'right' },
                { header: 'peak', align: 'right' },
                { header: 'avg', align: 'right' },
              ],
              rows.map((s) => [
                when(s.startTime),
                when(s.endTime),
                num(s.duration),
                num(s.peakViewers),
                num(s.averageViewers),
              ]),
            )
          : ['No sessions.']),
        ...(rows.length ? ['Times in UTC; durations as returned (unit not stated by the API).'] : []),
        ...(ctx.format === 'detailed'
          ? rows.map(
              (s) =>
                `  ${clean(s.sessionId, 64)}: ${describeObject(s, ['startTime', 'endTime', 'duration', 'peakViewers', 'averageViewers'], true).parts.join('; ')}`,
            )
          : []),
        ...(next ? [next] : []),
      ].join('\n');
      return {
        summary: headline,
        text,
        structured: {
          query,
          ...tabular(rows, COLUMNS, ctx.format === 'detailed'),
        },
      };
    });
  },
});
