import * as z from 'zod';
import { numericStats } from '../format/aggregate.js';
import { asArray, asRecord } from '../format/batch.js';
import { describeObject } from '../format/generic.js';
import { fitRows, result, tabular } from '../format/result.js';
import { approx, clean, exact, num, table } from '../format/text.js';
import { mintId, page, SCOPES, SHAPES, segment } from './shared.js';
import { defineTool } from './tool.js';

const COLUMNS = ['startTime', 'endTime', 'duration', 'peakViewers', 'averageViewers'] as const;

/** `2026-11-20T14:02:11.000Z` → `2026-11-20 14:02Z`; anything else is shown cleaned, as it came. */
const when = (v: unknown) => {
  const text = clean(v, 40);
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(?::[\d.]+)?(Z|[+-]\d\d:?\d\d)$/.exec(text);
  return m ? `${m[1]} ${m[2]}${m[3] === 'Z' ? 'Z' : m[3]}` : text || '–';
};

/** Page figures computed over every session returned (before any budget cut). */
function sessionFigures(sessions: Array<Record<string, unknown>>) {
  let peak: { s: Record<string, unknown>; value: number; ties: number } | undefined;
  for (const s of sessions) {
    const v = exact(s.peakViewers);
    if (v === null) continue;
    if (!peak || v > peak.value) peak = { s, value: v, ties: 0 };
    else if (v === peak.value) peak.ties++;
  }
  const averages = numericStats(sessions.map((s) => s.averageViewers));
  const durations = numericStats(sessions.map((s) => s.duration));
  const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);
  let earliest: { at: number; text: string } | undefined;
  let latest: { at: number; text: string } | undefined;
  const starts: number[] = [];
  for (const s of sessions) {
    const start = time(s.startTime);
    const end = time(s.endTime);
    if (!Number.isNaN(start)) {
      starts.push(start);
      if (!earliest || start < earliest.at) earliest = { at: start, text: clean(s.startTime, 40) };
    }
    if (!Number.isNaN(end) && (!latest || end > latest.at)) latest = { at: end, text: clean(s.endTime, 40) };
  }
  let order: 'newest first' | 'oldest first' | 'not ordered by start time' | undefined;
  if (starts.length >= 2) {
    let down = true;
    let up = true;
    for (let i = 1; i < starts.length; i++) {
      if ((starts[i] as number) > (starts[i - 1] as number)) down = false;
      if ((starts[i] as number) < (starts[i - 1] as number)) up = false;
    }
    order =
      down && !up
        ? 'newest first'
        : up && !down
          ? 'oldest first'
          : down
            ? undefined
            : 'not ordered by start time';
  }
  return {
    ...(peak
      ? {
          peak: {
            peakViewers: peak.value,
            sessionId: clean(peak.s.sessionId, 64) || null,
            startTime: clean(peak.s.startTime, 40) || null,
            ...(peak.ties ? { sessionsWithSamePeak: peak.ties + 1 } : {}),
          },
        }
      : {}),
    ...(averages
      ? {
          averageViewers: {
            mean: averages.mean,
            median: averages.median,
            sessions: averages.count,
            ...(averages.ignored ? { withoutNumber: averages.ignored } : {}),
          },
        }
      : {}),
    ...(durations
      ? {
          totalDuration: Number(durations.sum),
          ...(durations.ignored ? { durationMissing: durations.ignored } : {}),
        }
      : {}),
    ...(earliest ? { earliestStart: earliest.text } : {}),
    ...(latest ? { latestEnd: latest.text } : {}),
    ...(order ? { order } : {}),
  };
}

/** The figures as text lines: the answer before the rows. */
function figureLines(f: ReturnType<typeof sessionFigures>, total: number): string[] {
  const parts: string[] = [];
  if (f.peak)
    parts.push(
      `Peak: ${num(f.peak.peakViewers)} viewers in session ${f.peak.sessionId ?? '(no id)'}, started ${when(f.peak.startTime)}${f.peak.sessionsWithSamePeak ? ` (${f.peak.sessionsWithSamePeak} sessions share this peak; the first listed is named)` : ''}`,
    );
  if (f.averageViewers)
    parts.push(
      `averageViewers: mean ${approx(f.averageViewers.mean)}, median ${approx(f.averageViewers.median)}${f.averageViewers.sessions < total ? ` (over ${f.averageViewers.sessions} of ${total} sessions; the rest have no number)` : ''}`,
    );
  if (f.totalDuration !== undefined)
    parts.push(
      `total duration ${num(f.totalDuration)} (unit not stated by the API${f.durationMissing ? `; ${f.durationMissing} sessions without a duration` : ''})`,
    );
  const span =
    f.earliestStart || f.latestEnd
      ? [`From ${when(f.earliestStart ?? '–')} to ${when(f.latestEnd ?? '–')} (earliest start, latest end)`]
      : [];
  return [...(parts.length ? [parts.join(' · ')] : []), ...span];
}

export const getStreamerSessions = defineTool({
  name: 'get_streamer_sessions',
  title: 'Streaming sessions',
  description:
    "One token's past streaming sessions, with the page's peak session, mean and median averageViewers, total duration, time span. detailed: session ids.",
  input: {
    mint: mintId.describe('Token mint id'),
    limit: z.number().int().min(1).max(100).default(20).describe('Sessions per page'),
    page,
  },
  scope: SCOPES.any,
  output: {
    columns: z.array(z.string()).optional(),
    rows: z.array(z.array(z.unknown())).optional(),
    items: z.array(z.object({}).loose()).optional(),
    aggregates: z.object({}).loose().optional(),
  },
  request: ({ mint, limit, page, chain, platform }) => ({
    method: 'GET',
    path: `/streamers/${segment(mint)}/sessions`,
    query: { limit, page, chain, platform },
    shape: SHAPES.sessions,
  }),
  render(body, args, ctx) {
    const sessions = asArray(body.data).map(asRecord);
    const figures = sessionFigures(sessions);
    const peakText = figures.peak ? `, peak ${num(figures.peak.peakViewers)} viewers` : '';
    const headline = `Sessions of ${args.mint}: ${num(sessions.length)} on page ${args.page}${peakText} (${figures.order ? `${figures.order}; ` : ''}${args.chain} / ${args.platform})`;
    const next =
      sessions.length >= args.limit
        ? `page ${args.page + 1} may hold more (this page is full).`
        : sessions.length === 0 && args.page > 1
          ? 'no sessions on this page; earlier pages (page 1 first) may have some.'
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
    return fitRows(sessions, ctx.budget, cut, (rows) =>
      result({
        headline,
        lines: [
          ...figureLines(figures, sessions.length),
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
                  `  ${when(s.startTime)}: ${describeObject(s, ['startTime', 'endTime', 'duration', 'peakViewers', 'averageViewers', 'mintId'], true).parts.join('; ') || 'no other fields'}`,
              )
            : []),
        ],
        query,
        data: {
          ...(sessions.length ? { aggregates: figures } : {}),
          ...tabular(rows, COLUMNS, ctx.format === 'detailed'),
        },
        next,
      }),
    );
  },
});
