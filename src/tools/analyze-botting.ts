import * as z from 'zod';
import { accountFor, asArray, asRecord, failedLines, noteLines } from '../format/batch.js';
import { fitRows } from '../format/result.js';
import { clean, cleanDeep, num, quote, table } from '../format/text.js';
import { batchOutput } from './batch-output.js';
import { idList, SCOPES } from './shared.js';
import { defineTool } from './tool.js';

const REASONS_IN_TEXT = 2;
const REASONS_IN_JSON = 5;

interface Finding {
  mintId: string;
  level: string;
  confidence: number | null;
  score: number | null;
  reasons: string[];
  raw: Record<string, unknown>;
}

const numOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

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
    body: { mintIds, hours, chain, platform },
  }),
  render(body, args, ctx) {
    const data = asRecord(body.data);
    const summary = asRecord(data.summary);
    const parsed: Finding[] = asArray(data.results)
      .map(asRecord)
      .map((r) => ({
        mintId: clean(r.mintId, 64),
        level: clean(r.confidenceLevel ?? 'unknown', 16) || 'unknown',
        confidence: numOrNull(r.confidence),
        score: numOrNull(r.score),
        reasons: asArray(r.reasons).map((x) => clean(x, 160)),
        raw: r,
      }));
    const accounted = accountFor(parsed, (f) => f.mintId, data.errors, args.mintIds, summary);
    const { errors, notes } = accounted;
    // Most suspicious first: by confidence, then score (the full set of levels is not documented).
    const findings = accounted.results.sort(
      (a, b) => (b.confidence ?? -1) - (a.confidence ?? -1) || (b.score ?? -1) - (a.score ?? -1),
    );
    const byLevel: Record<string, number> = {};
    for (const f of findings) byLevel[f.level] = (byLevel[f.level] ?? 0) + 1;
    const confidences = findings.map((f) => f.confidence).filter((c): c is number => c !== null);
    const average =
      numOrNull(summary.averageConfidence) ??
      (confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : null);

    const headline = `Botting analysis: ${args.mintIds.length} tokens requested, ${findings.length} analysed, ${errors.length} failed (${args.chain} / ${args.platform}, last ${args.hours} h)`;
    const levels = Object.entries(byLevel)
      .map(([level, n]) => `${level} ${n}`)
      .join(', ');
    const counts = {
      requested: args.mintIds.length,
      analysed: findings.length,
      failed: errors.length,
      byLevel,
      ...(average !== null ? { averageConfidence: Number(average.toFixed(3)) } : {}),
    };

    const cut = {
      what: 'analysed tokens (most suspicious first)',
      how: () => 'Ask for fewer mintIds per call.',
    };
    return fitRows(findings, ctx.budget, cut, (rows) => {
      const text = [
        headline,
        ...(findings.length
          ? [`Confidence levels: ${levels}${average !== null ? ` (average confidence ${num(average)})` : ''}`]
          : []),
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
        ...(errors.length ? ['', ...failedLines(errors)] : []),
        "Next: get_streamer_sessions for one token's history; get_streamer_core to see whether it is live.",
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
          ...(errors.length ? { errors: errors.map((e) => ({ mintId: e.id, error: e.error })) } : {}),
          ...(notes.length ? { integrity: notes } : {}),
        },
      };
    });
  },
});

function reasonsText(reasons: string[]): string {
  if (reasons.length === 0) return '(none)';
  const shown = reasons.slice(0, REASONS_IN_TEXT).map((r) => quote(r, 60));
  const more = reasons.length - REASONS_IN_TEXT;
  return more > 0 ? `${shown.join('; ')}; +${more} more` : shown.join('; ');
}

function detailLines(f: Finding): string[] {
  const extra = Object.entries(f.raw).filter(
    ([k]) => !['mintId', 'confidenceLevel', 'confidence', 'score', 'reasons'].includes(k),
  );
  return [
    `  ${f.mintId}: reasons ${f.reasons.map((r) => quote(r, 160)).join('; ') || '(none)'}${extra.length ? `; ${extra.map(([k, v]) => `${clean(k, 40)}=${typeof v === 'string' ? quote(v, 60) : num(v)}`).join('; ')}` : ''}`,
  ];
}
