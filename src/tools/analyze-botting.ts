import type { ApiRequest } from '../api/client.js';
import { batches } from '../api/endpoints.js';
import { asArray, asRecord } from '../format/batch.js';
import {
  type Finding,
  flaggedRuleLine,
  levelsLine,
  reasonsText,
  widerWindowHint,
  withReasons,
} from '../format/botting.js';
import { type Field, textTable } from '../format/columns.js';
import { describeObject } from '../format/generic.js';
import { fitRows, result } from '../format/result.js';
import { num } from '../format/text.js';
import { cleanDeep, quote } from '../untrusted/text.js';
import { batchOutput, failureGroups, object, strings } from './batch-output.js';
import { type BottingFigures, bottingFigures } from './botting/report.js';
import { type Investigation, type InvestigationArgs, runInvestigation } from './botting/run.js';
import {
  analysedTokens,
  coverageApplies,
  LOOKUP_BATCH,
  NOT_COVERED,
  NOT_COVERED_CELL,
  streamerLookup,
  UNCOVERED_PLATFORM,
} from './coverage.js';
import { withViewHistory } from './get-token-history.js';
import { bounded, idsOf, pick, scopeHint } from './shared.js';
import { defineTool, type RenderContext } from './tool.js';

const REASONS_IN_JSON = 5;

type BottingArgs = Omit<InvestigationArgs, 'includeCreatorFees'>;

export const analyzeBotting = defineTool({
  name: 'analyze_botting',
  title: 'Botting analysis',
  description:
    'Checks tokens for botted viewer counts: level, confidence, score, reasons, most suspicious first; on chain_b, names platform_c tokens (not covered). detailed: every reason.',
  endpoint: 'botting',
  input: {
    mintIds: idsOf('botting'),
    hours: bounded('botting', 'hours', 'Hours of data analysed'),
  },
  output: { calls: object, notCovered: strings, notCoveredUpstreamErrors: failureGroups, ...batchOutput },
  annotate: markApiCoverage,
  async run(args, ctx) {
    // The investigation without the joins: streamer records only for coverage or the view's names.
    const inv = await runInvestigation({ ...args, includeCreatorFees: false }, ctx, {
      records: ctx.view !== undefined,
    });
    const figures = bottingFigures('analyze_botting', inv, args);
    return withViewHistory(ctx, args.chain, (c) => {
      figures.showBoard(c, { title: 'Botting analysis' });
      return render(args, c, inv, figures);
    });
  },
});

/** run_analysis's `api.analyze_botting` on chain_b: platform_c items get `coverage` (if the lookup answers). */
async function markApiCoverage(
  body: unknown,
  { mintIds, chain, platform }: BottingArgs,
  send: (req: ApiRequest) => Promise<Record<string, unknown>>,
): Promise<unknown> {
  if (!coverageApplies(chain)) return body;
  const pieces = await Promise.all(
    batches(mintIds, LOOKUP_BATCH).map((ids) => send(streamerLookup(ids, chain, platform))),
  ).catch(() => undefined);
  if (!pieces) return body;
  const onC = new Set(
    pieces
      .flatMap((p) => asArray(p.data).map(asRecord))
      .flatMap((r) => (r.platform === UNCOVERED_PLATFORM && typeof r.mintId === 'string' ? [r.mintId] : [])),
  );
  const data = asRecord(asRecord(body).data);
  for (const item of [...asArray(data.results), ...asArray(data.errors)].map(asRecord))
    if (onC.has(item.mintId as string) && !('coverage' in item)) item.coverage = NOT_COVERED;
  return body;
}

function render(args: BottingArgs, ctx: RenderContext, inv: Investigation, figures: BottingFigures) {
  const scope = scopeHint(args.chain, args.platform);
  const { covered, errors, stats, flagged, failed, uncovered } = figures;
  const unchecked = (f: { reason: string }) =>
    `Could not check which tokens stream on ${UNCOVERED_PLATFORM} (not covered): ${f.reason}`;
  const notes = [...inv.notes, ...(inv.coverageApplies ? inv.lookupFailures.map(unchecked) : [])];
  const headline = `Botting analysis: ${figures.flaggedFigures.flagged} of ${analysedTokens(covered.length)} flagged ${figures.flaggedAs}${figures.tail}`;
  const counts = { ...figures.counts, ...figures.flaggedFigures };
  const window = widerWindowHint(errors, args.hours);
  const ordered = inv.ranked.filter((f) => f.error === undefined);
  const cut = {
    what: 'analysed tokens (most suspicious first)',
    how: () => 'Ask for fewer mintIds per call.',
  };
  return withReasons(ordered.length, (full) =>
    fitRows(ordered, ctx, cut, (rows) =>
      result({
        headline,
        lines: [
          ...(covered.length ? [levelsLine(stats), flaggedRuleLine(flagged)] : []),
          ...uncovered.lines,
          ...notes.map((n) => `Note: ${n}`),
          ...(rows.length ? ['', ...textTable(columns(full), rows)] : []),
          ...(ctx.format === 'detailed' ? rows.map(detailLine) : []),
          ...(errors.length ? ['', ...failed.lines] : []),
        ],
        query: { chain: args.chain, platform: args.platform, hours: args.hours },
        data: {
          counts,
          // A lookup made only for the view's names is not counted: the channels are the same without a view.
          calls: { botting: inv.calls.botting, streamers: inv.coverageApplies ? inv.calls.streamers : 0 },
          results: rows.map((f) => ({
            ...(ctx.format === 'detailed'
              ? (cleanDeep(f.raw) as Record<string, unknown>)
              : {
                  ...pick(f, 'mintId', 'level', 'confidence', 'score'),
                  reasons: full ? f.reasons : f.reasons.slice(0, REASONS_IN_JSON),
                }),
            ...(f.covered ? {} : { covered: false, coverage: NOT_COVERED }),
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

const columns = (full: boolean): Array<Field<Finding>> => [
  { key: 'level', header: 'level', text: (f) => (f.covered ? f.level : `(${f.level})`) },
  { key: 'confidence', header: 'conf', align: 'right', text: (f) => num(f.confidence) },
  { key: 'score', header: 'score', align: 'right', text: (f) => num(f.score) },
  { key: 'mintId', header: 'mint', text: (f) => f.mintId },
  {
    key: 'reasons',
    header: 'reasons',
    text: (f) => `${f.covered ? '' : `${NOT_COVERED_CELL}; `}${reasonsText(f.reasons, full ? Infinity : 2)}`,
  },
];

/** In detailed mode: every reason, then every field the table does not show. */
function detailLine(f: Finding): string {
  const extra = describeObject(
    f.raw,
    ['mintId', 'confidenceLevel', 'confidence', 'score', 'reasons'],
    true,
  ).parts;
  const reasons = f.reasons.map((r) => quote(r, 160)).join('; ') || '(none)';
  return `  ${f.mintId}: reasons ${reasons}${extra.length ? `; ${extra.join('; ')}` : ''}`;
}
