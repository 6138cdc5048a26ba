import * as z from 'zod';
import { accountFor, asRecord, failures, noteLines } from '../format/batch.js';
import {
  boardView,
  type Finding,
  levelStats,
  levelsLine,
  parseFindings,
  rankFindings,
  reasonsText,
} from '../format/botting.js';
import { describeObject } from '../format/generic.js';
import { fitRows } from '../format/result.js';
import { cleanDeep, num, quote, table } from '../format/text.js';
import { batchOutput } from './batch-output.js';
import { idList, PLATFORM_C_NOTE, SCOPES, SHAPES, scopeHint } from './shared.js';
import { defineTool } from './tool.js';

const REASONS_IN_JSON = 5;

export const analyzeBotting = defineTool({
  name: 'analyze_botting',
  title: 'Botting analysis',
  description:
    'Checks tokens for artificially inflated (botted) viewer counts: confidence level, confidence, score and reasons per token, most suspicious first.',
  input: {
    mintIds: idList(50),
    hours: z.number().int().min(1).max(168).default(24).describe('Hours of data analysed'),
  },
  scope: SCOPES.botting,
  ids: 'mintIds',
  output: { query: z.object({}).loose().optional(), ...batchOutput },
  request: ({ mintIds, hours, chain, platform }) => ({
    method: 'POST',
    path: '/botting/bulk',
    shape: SHAPES.batch,
    body: { mintIds, hours, chain, platform },
  }),
  view(body, args) {
    const data = asRecord(body.data);
    const { results, errors } = accountFor(
      parseFindings(data.results),
      (f) => f.mintId,
      data.errors,
      args.mintIds,
      asRecord(data.summary),
    );
    const { chain, platform, hours } = args;
    return boardView(rankFindings(results), errors, {
      chain,
      platform,
      hours,
      requested: args.mintIds.length,
    });
  },
  render(body, args, ctx) {
    const data = asRecord(body.data);
    const summary = asRecord(data.summary);
    const accounted = accountFor(
      parseFindings(data.results),
      (f) => f.mintId,
      data.errors,
      args.mintIds,
      summary,
    );
    const { errors } = accounted;
    const notes = [
      ...accounted.notes,
      ...(args.chain === 'chain_b' && errors.length ? [PLATFORM_C_NOTE] : []),
    ];
    const scope = scopeHint(args.chain, args.platform);
    const failed = failures(errors);
    const findings = rankFindings(accounted.results);
    const stats = levelStats(findings, summary.averageConfidence);

    const headline = `Botting analysis: ${args.mintIds.length} tokens requested, ${findings.length} analysed, ${errors.length} failed (${args.chain} / ${args.platform}, last ${args.hours} h)`;
    const counts = {
      requested: args.mintIds.length,
      analysed: findings.length,
      failed: errors.length,
      byLevel: stats.byLevel,
      ...(stats.averageConfidence !== null ? { averageConfidence: stats.averageConfidence } : {}),
    };

    const cut = {
      what: 'analysed tokens (most suspicious first)',
      how: () => 'Ask for fewer mintIds per call.',
      format: ctx.format,
    };
    return fitRows(findings, ctx.budget, cut, (rows) => {
      const text = [
        headline,
        ...(findings.length ? [levelsLine(stats)] : []),
        ...noteLines(notes),
        ...(rows.length
          ? [
              '',
              ...table(
                [
                  { header: 'level' },
                  { header: 'conf', align: 'right' },
                  { header: 'score', align: 'right' },
                  { header: 'mint' },
                  { header: 'reasons' },
                ],
                rows.map((f) => [f.level, num(f.confidence), num(f.score), f.mintId, reasonsText(f.reasons)]),
              ),
            ]
          : []),
        ...(ctx.format === 'detailed' ? rows.flatMap((f) => detailLines(f)) : []),
        ...(errors.length ? ['', ...failed.lines] : []),
        `Next: get_streamer_sessions${scope} for one token's history; get_streamer_core${scope} to see whether it is live.`,
      ].join('\n');
      return {
        summary: headline,
        text,
        structured: {
          query: { chain: args.chain, platform: args.platform, hours: args.hours },
          counts,
          results: rows.map((f) =>
            ctx.format === 'detailed'
              ? (cleanDeep(f.raw) as Record<string, unknown>)
              : {
                  mintId: f.mintId,
                  level: f.level,
                  confidence: f.confidence,
                  score: f.score,
                  reasons: f.reasons.slice(0, REASONS_IN_JSON),
                },
          ),
          ...(errors.length ? { errors: failed.json } : {}),
          ...(notes.length ? { integrity: notes } : {}),
        },
      };
    });
  },
});

/** In detailed mode: every reason, then every field the table does not show. */
function detailLines(f: Finding): string[] {
  const extra = describeObject(
    f.raw,
    ['mintId', 'confidenceLevel', 'confidence', 'score', 'reasons'],
    true,
  ).parts;
  const reasons = f.reasons.map((r) => quote(r, 160)).join('; ') || '(none)';
  return [`  ${f.mintId}: reasons ${reasons}${extra.length ? `; ${extra.join('; ')}` : ''}`];
}
