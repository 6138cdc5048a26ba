import * as z from 'zod';
import type { ApiRequest } from '../api/client.js';
import { batches, requestFor } from '../api/endpoints.js';
import { asArray, asRecord, failures, noteLines } from '../format/batch.js';
import {
  accountFindings,
  type Finding,
  flaggedCounts,
  flaggedName,
  flaggedRuleLine,
  flagging,
  levelCounts,
  levelStats,
  levelsLine,
  rankFindings,
  reasonsText,
  widerWindowHint,
  withReasons,
} from '../format/botting.js';
import { describeError } from '../format/errors.js';
import { describeObject } from '../format/generic.js';
import { fitRows, result } from '../format/result.js';
import type { StreamerRecord } from '../format/streamer.js';
import { clean, cleanDeep, num, quote, table } from '../format/text.js';
import { boardData, streamerRecords } from '../view-data.js';
import { batchOutput, failureGroups } from './batch-output.js';
import {
  analysedTokens,
  type Coverage,
  LOOKUP_BATCH,
  NOT_COVERED,
  NOT_COVERED_CELL,
  notCoveredCount,
  notCoveredReport,
  splitCoverage,
  streamerLookup,
  UNCOVERED_PLATFORM,
  unknownIdsHint,
} from './coverage.js';
import { bounded, idsOf, SCOPES, scopeHint } from './shared.js';
import { defineTool, type RenderContext } from './tool.js';

const REASONS_IN_JSON = 5;

interface BottingArgs {
  mintIds: string[];
  hours: number;
  chain: string;
  platform: string;
}

const bottingRequest = ({ mintIds, hours, chain, platform }: BottingArgs): ApiRequest =>
  requestFor('botting', { mintIds, hours, chain, platform });

export const analyzeBotting = defineTool({
  name: 'analyze_botting',
  title: 'Botting analysis',
  description:
    'Checks tokens for botted viewer counts: level, confidence, score, reasons, most suspicious first; on chain_b, names platform_c tokens (not covered). detailed: every reason.',
  input: {
    mintIds: idsOf('botting'),
    hours: bounded('botting', 'hours', 'Hours of data analysed'),
  },
  scope: SCOPES.botting,
  ids: 'mintIds',
  output: {
    calls: z.object({}).loose().optional(),
    notCovered: z.array(z.string()).optional(),
    notCoveredUpstreamErrors: failureGroups,
    ...batchOutput,
  },
  request: bottingRequest,
  annotate: markApiCoverage,
  async run(args, ctx) {
    const { mintIds, hours, chain, platform } = args;
    // On chain_b, one /streamers lookup (50 ids fit its batch of 100) says which tokens stream on platform_c.
    const [body, lookup] = await Promise.all([
      ctx.send(bottingRequest(args)),
      chain === 'chain_b'
        ? ctx.send(streamerLookup(mintIds, chain, platform)).then(
            (b) => ({ body: b }),
            (error: unknown) => {
              if (ctx.signal.aborted) throw error;
              return { error };
            },
          )
        : undefined,
    ]);
    const data = asRecord(body.data);
    const accounted = accountFindings(data, mintIds);
    const records = new Map<string, StreamerRecord>();
    if (lookup && 'body' in lookup)
      for (const r of asArray(lookup.body.data).map(asRecord))
        records.set(clean(r.mintId, 64), r as StreamerRecord);
    const coverage = splitCoverage(chain, rankFindings(accounted.results), accounted.errors, records);
    const notes = [
      ...accounted.notes,
      ...(lookup && 'error' in lookup
        ? [
            `Could not check which tokens stream on ${UNCOVERED_PLATFORM} (not covered): ${describeError(lookup.error).split('\n')[0]}`,
          ]
        : []),
    ];
    ctx.view?.(
      boardData(
        coverage,
        { chain, platform, hours, requested: mintIds.length },
        mintIds,
        // The view names every token (on chain_b the coverage lookup fetched the records already).
        chain === 'chain_b' ? records : await streamerRecords(ctx.send, mintIds, chain, platform),
        {
          title: 'Botting analysis',
          hint: unknownIdsHint('analyze_botting', args),
        },
      ),
    );
    return render(args, ctx, coverage, notes, lookup ? 2 : 1);
  },
});

/**
 * run_analysis's `api.analyze_botting` on chain_b: the results and errors of tokens that stream on
 * platform_c get a field `coverage` (NOT_COVERED), found by the same /streamers lookup as the tool's, so that
 * a program does not read their "not found" as tokens that do not exist. Nothing of the body is renamed;
 * a field the upstream sent is never replaced. If the lookup fails, the body is returned as sent.
 */
async function markApiCoverage(
  body: unknown,
  { mintIds, chain, platform }: BottingArgs,
  send: (req: ApiRequest) => Promise<Record<string, unknown>>,
): Promise<unknown> {
  if (chain !== 'chain_b') return body;
  const onC = new Set<string>();
  try {
    const pieces = batches(mintIds, LOOKUP_BATCH).map((ids) => send(streamerLookup(ids, chain, platform)));
    for (const piece of await Promise.all(pieces))
      for (const r of asArray(piece.data).map(asRecord))
        if (r.platform === UNCOVERED_PLATFORM && typeof r.mintId === 'string') onC.add(r.mintId);
  } catch {
    return body;
  }
  const data = asRecord(asRecord(body).data);
  for (const list of [data.results, data.errors])
    for (const item of asArray(list))
      if (isObject(item) && onC.has(item.mintId as string) && !('coverage' in item))
        item.coverage = NOT_COVERED;
  return body;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function render(
  args: { mintIds: string[]; hours: number; chain: string; platform: string },
  ctx: RenderContext,
  coverage: Coverage,
  notes: string[],
  requests: number,
) {
  const scope = scopeHint(args.chain, args.platform);
  const { findings: covered, errors, uncoveredFindings, notCovered } = coverage;
  const failed = failures(errors, 'mintIds', unknownIdsHint('analyze_botting', args));
  // Counts, levels and the average are over the tokens the endpoint covers; platform_c tokens apart.
  const stats = levelStats(covered);
  const flagged = flagging(covered);
  const flaggedFigures = flaggedCounts(flagged, covered);
  const headline = `Botting analysis: ${flaggedFigures.flagged} of ${analysedTokens(covered.length)} flagged ${flaggedName(flagged)}${
    notCovered.length ? `; ${notCoveredCount(notCovered.length)}` : ''
  } (${args.mintIds.length} requested, ${errors.length} failed; ${args.chain} / ${args.platform}, last ${args.hours} h)`;
  const uncovered = notCoveredReport(coverage, 'in brackets in the table');
  const counts = {
    requested: args.mintIds.length,
    analysed: covered.length,
    failed: errors.length,
    ...(args.chain === 'chain_b' ? { notCovered: notCovered.length } : {}),
    ...levelCounts(stats),
    ...flaggedFigures,
  };
  const window = widerWindowHint(errors, args.hours);
  const ordered = [...covered, ...uncoveredFindings];
  const isCovered = (f: Finding) => !uncoveredFindings.includes(f);
  const cut = {
    what: 'analysed tokens (most suspicious first)',
    how: () => 'Ask for fewer mintIds per call.',
    format: ctx.format,
  };
  return withReasons(ordered.length, (full) =>
    fitRows(ordered, ctx.budget, cut, (rows) =>
      result({
        headline,
        lines: [
          covered.length > 0 && levelsLine(stats),
          covered.length > 0 && flaggedRuleLine(flagged),
          ...uncovered.lines,
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
                  rows.map((f) => [
                    isCovered(f) ? f.level : `(${f.level})`,
                    num(f.confidence),
                    num(f.score),
                    f.mintId,
                    `${isCovered(f) ? '' : `${NOT_COVERED_CELL}; `}${reasonsText(f.reasons, full ? Infinity : 2)}`,
                  ]),
                ),
              ]
            : []),
          ...(ctx.format === 'detailed' ? rows.flatMap((f) => detailLines(f)) : []),
          ...(errors.length ? ['', ...failed.lines] : []),
        ],
        query: { chain: args.chain, platform: args.platform, hours: args.hours },
        data: {
          counts,
          calls: { botting: 1, streamers: requests - 1 },
          results: rows.map((f) => ({
            ...(ctx.format === 'detailed'
              ? (cleanDeep(f.raw) as Record<string, unknown>)
              : {
                  mintId: f.mintId,
                  level: f.level,
                  confidence: f.confidence,
                  score: f.score,
                  reasons: full ? f.reasons : f.reasons.slice(0, REASONS_IN_JSON),
                }),
            ...(isCovered(f) ? {} : { covered: false, coverage: NOT_COVERED }),
          })),
          ...uncovered.json,
          ...(errors.length ? { errors: failed.json } : {}),
          ...(notes.length ? { integrity: notes } : {}),
        },
        next: `${window ? `${window} ` : ''}get_streamer_sessions${scope} for one token's history; get_streamer_core${scope} to see whether it is live.`,
      }),
    ),
  );
}

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
