// App-only (MCP Apps): the evidence behind one token of a botting board, drawn when a person selects it.
import * as z from 'zod';
import {
  DEFAULT_PERIOD,
  ENDPOINTS,
  PERIOD_HOURS,
  PERIODS,
  type Period,
  requestFor,
} from '../api/endpoints.js';
import { asArray, asRecord } from '../format/batch.js';
import { parseFindings } from '../format/botting.js';
import { plural } from '../format/text.js';
import type { EvidenceData } from '../report/view-types.js';
import { clean } from '../untrusted/text.js';
import { seriesData, sessionsData, VIEW_LIMITS } from '../view-data.js';
import { object } from './batch-output.js';
import { durationUnit } from './get-streamer-sessions.js';
import { viewHistory } from './get-token-history.js';
import { mintId, pick, SCOPES } from './shared.js';
import { defineTool } from './tool.js';

/** Hours of botting analysis for a period: its own, at most the endpoint's maximum (30d: 168). */
const hoursOf = (period: Period) => Math.min(PERIOD_HOURS[period], ENDPOINTS.botting.bounds.hours.max);

export const getTokenEvidence = defineTool({
  name: 'get_token_evidence',
  title: 'Token evidence (view)',
  description: "One token's viewer curve, recent sessions and botting reasons, for the investigation view.",
  input: {
    mint: mintId.describe('Token mint id'),
    period: z.enum(PERIODS).default(DEFAULT_PERIOD),
  },
  scope: SCOPES.botting,
  output: { counts: object },
  async run({ mint, period, chain, platform }, ctx) {
    // One part that fails is reported in place, the others still drawn.
    const part = (req: Parameters<typeof ctx.send>[0]) =>
      ctx.send(req).then(
        (body) => ({ body }),
        (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
      );
    // Long periods at the documented maximum: the curve is sampled, fewer points hide more peaks.
    const points = period === '7d' || period === '30d' ? ENDPOINTS.analytics.bounds.points.max : 200;
    const [analytics, sessions, botting] = await Promise.all([
      part(requestFor('analytics', { mintIds: [mint], period, points, chain, platform })),
      part(requestFor('sessions', { mint, limit: 10, page: 1, chain, platform })),
      part(requestFor('botting', { mintIds: [mint], hours: hoursOf(period), chain, platform })),
    ]);
    const finding =
      'body' in botting
        ? parseFindings(asRecord(botting.body.data).results).find((f) => f.mintId === mint)
        : undefined;
    const series = 'body' in analytics ? seriesData(analytics.body.data, [mint]) : undefined;
    // What was read, not what was sent: a series counts when it has points with a numeric value.
    const drawn = (series?.series ?? []).filter((s) => s.t.length > 0 && Object.keys(s.values).length > 0);
    const sent = 'body' in analytics ? asArray(asRecord(analytics.body.data).results).length : 0;
    const counts = {
      series: drawn.length,
      points: drawn.reduce((n, s) => n + s.t.length, 0),
      ...(sent > drawn.length ? { resultsWithoutPoints: sent - drawn.length } : {}),
      sessions: 'body' in sessions ? asArray(sessions.body.data).length : 0,
    };
    const sessionRows = 'body' in sessions ? sessionsData(sessions.body.data, mint) : undefined;
    const unit = sessionRows && durationUnit(sessionRows);
    const view: EvidenceData = {
      kind: 'evidence',
      scope: { mint, period, hours: hoursOf(period), chain, platform },
      series: series ?? { error: clean('error' in analytics ? analytics.error : '', 160) },
      sessions: sessionRows ?? { error: clean('error' in sessions ? sessions.error : '', 160) },
      durationUnit: unit ? { unit: unit.unit, evidence: unit.evidence } : null,
      botting: finding
        ? {
            ...pick(finding, 'level', 'confidence', 'score'),
            reasons: finding.reasons.slice(0, VIEW_LIMITS.reasons),
          }
        : 'error' in botting
          ? { error: clean(botting.error, 160) }
          : null,
    };
    if (ctx.view) ctx.view({ ...view, history: await viewHistory(ctx, [mint], chain) });
    const curve = counts.series
      ? `${counts.series} series of ${plural(counts.points, 'point')}`
      : 'no series points read';
    const empty = counts.resultsWithoutPoints
      ? ` (${plural(counts.resultsWithoutPoints, 'analytics result')} with no numeric points)`
      : '';
    const summary = `Evidence for ${mint}: ${curve}${empty}, ${plural(counts.sessions, 'session')}${finding ? `, botting ${finding.level}` : ''}`;
    return { headline: summary, query: { mint, period, chain, platform }, data: { counts } };
  },
});
