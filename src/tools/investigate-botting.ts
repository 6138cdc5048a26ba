import * as z from 'zod';
import type { ApiRequest } from '../api/client.js';
import { batches, idLimit, requestFor } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { asArray, asRecord, failures, type ItemError, noteLines } from '../format/batch.js';
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
  shareLines,
  type TokenFees,
  topReasons,
  unanalysed,
  widerWindowHint,
  withReasons,
} from '../format/botting.js';
import { describeError } from '../format/errors.js';
import { describeObject } from '../format/generic.js';
import { fitRows, result } from '../format/result.js';
import { liveText, type StreamerRecord } from '../format/streamer.js';
import {
  abbrev,
  clean,
  cleanDeep,
  coin,
  exact,
  grouped,
  idColumn,
  label,
  money,
  num,
  plural,
  quote,
  table,
  WHOLE_ID_ROWS,
} from '../format/text.js';
import { boardData } from '../view-data.js';
import { failureGroups, idsShortened } from './batch-output.js';
import {
  analysedTokens,
  type Coverage,
  LOOKUP_BATCH,
  NOT_COVERED_CELL,
  notCoveredCount,
  notCoveredReport,
  splitCoverage,
  streamerLookup,
  unknownIdsHint,
} from './coverage.js';
import { INVESTIGATION_TTL_MS, recall, remember } from './investigation-cache.js';
import { bounded, idList, SCOPES, scopeHint } from './shared.js';
import { type CallContext, defineTool } from './tool.js';

/** Each endpoint's own batch limit, from the interface document. */
const CHUNK = { botting: idLimit('botting'), streamers: LOOKUP_BATCH, fees: idLimit('fees') } as const;

type Fees = TokenFees;

/** An investigation's joined data: what the cache keeps and every slice is rendered from. */
interface Investigation {
  /** The ranking's data: covered findings most suspicious first, then every platform_c token (unranked). */
  ranked: Finding[];
  /** Findings and failures split by coverage: every count is over the covered ones. */
  coverage: Coverage;
  notes: string[];
  records: Map<string, StreamerRecord>;
  fees: Map<string, Fees>;
  calls: { botting: number; streamers: number; fees: number };
  /** Every upstream request answered: only such an investigation is kept for re-slicing. */
  complete: boolean;
  /** The reasons given to the ids of a whole failed botting request (not the upstream's per-token answer). */
  requestReasons: Set<string>;
}

const SORTS = ['suspicion', 'viewers', 'marketCap', 'score', 'confidence', 'fees'] as const;
type SortBy = (typeof SORTS)[number];

/** The first line of a failure's description: what a chunk's ids are reported with. */
const reasonOf = (error: unknown) => (describeError(error).split('\n')[0] ?? 'failed').slice(0, 160);

const TTL_MINUTES = INVESTIGATION_TTL_MS / 60_000;

export const investigateBotting = defineTool({
  name: 'investigate_botting',
  title: 'Botting investigation',
  description:
    'Botting analysis of up to 500 tokens, joined with name, live, viewers, market cap (and fees): ranked, filtered, paged. Re-slicing within 5 min makes no upstream request. detailed: every field.',
  input: {
    mintIds: idList(500),
    hours: bounded('botting', 'hours', 'Hours of data analysed'),
    includeCreatorFees: z.boolean().default(false).describe('Join creator fees'),
    sortBy: z.enum(SORTS).default('suspicion').describe('fees needs includeCreatorFees'),
    levels: z
      .array(z.string().min(1).max(32))
      .min(1)
      .max(20)
      .optional()
      .describe('Confidence levels to keep'),
    liveOnly: z.boolean().default(false).describe('Only tokens live now'),
    offset: z.number().int().min(0).default(0).describe('Index into the filtered ranking'),
  },
  scope: SCOPES.botting,
  ids: 'mintIds',
  check: (args) =>
    args.sortBy === 'fees' && !args.includeCreatorFees
      ? 'sortBy "fees" needs includeCreatorFees: true (fees are joined only when asked for).'
      : undefined,
  output: {
    counts: z.object({}).loose().optional(),
    calls: z.object({}).loose().optional(),
    dataAgeSeconds: z.number().optional(),
    topReasons: z.array(z.object({ reason: z.string(), count: z.number() })).optional(),
    columns: z.array(z.string()).optional(),
    rows: z.array(z.array(z.unknown())).optional(),
    items: z.array(z.object({}).loose()).optional(),
    notCovered: z.array(z.string()).optional(),
    notCoveredUpstreamErrors: failureGroups,
    errors: failureGroups,
    notes: z.array(z.string()).optional(),
    shown: z.object({}).loose().optional(),
    idsShortened,
  },
  async run(args, ctx) {
    // The data depends on the ids (as a set), hours, chain, platform and fees; the slice does not.
    const key = JSON.stringify([
      [...args.mintIds].sort(),
      args.hours,
      args.chain,
      args.platform,
      args.includeCreatorFees,
    ]);
    const hit = ctx.caller ? recall<Investigation>(ctx.caller.key, key) : undefined;
    const data = hit?.value ?? (await investigate(args, ctx));
    const kept = hit !== undefined || (data.complete && ctx.caller !== undefined);
    if (!hit && kept && ctx.caller) remember(ctx.caller.key, key, data);
    ctx.view?.(
      boardData(
        data.coverage,
        { chain: args.chain, platform: args.platform, hours: args.hours, requested: args.mintIds.length },
        args.mintIds,
        data.records,
        {
          title: 'Botting investigation',
          filters: { levels: args.levels, liveOnly: args.liveOnly, sortBy: args.sortBy },
          fees: args.includeCreatorFees ? data.fees : undefined,
          hint: unknownIdsHint('investigate_botting', args),
        },
      ),
    );
    return report(args, ctx, data, hit ? Math.round(hit.ageMs / 1000) : undefined, kept);
  },
});

/** Runs the investigation: every request in chunks of each endpoint's limit, joined into one ranking. */
async function investigate(
  args: { mintIds: string[]; hours: number; chain: string; platform: string; includeCreatorFees: boolean },
  ctx: CallContext,
): Promise<Investigation> {
  const { mintIds, hours, chain, platform } = args;
  const plan = {
    botting: batches(mintIds, CHUNK.botting),
    streamers: batches(mintIds, CHUNK.streamers),
    fees: args.includeCreatorFees ? batches(mintIds, CHUNK.fees) : [],
  };
  const total = plan.botting.length + plan.streamers.length + plan.fees.length;
  let done = 0;
  let complete = true;
  const send = async (req: ApiRequest, what: string) => {
    try {
      return { body: await ctx.send(req) };
    } catch (error) {
      // Cancellation ends the whole investigation; any other failure costs only this chunk.
      if (ctx.signal.aborted || (error instanceof ApiError && error.kind === 'cancelled')) throw error;
      complete = false;
      return { error };
    } finally {
      if (!ctx.signal.aborted) ctx.progress(++done, total, `${what} (${done} of ${total} requests done)`);
    }
  };

  const [botting, streamers, fees] = await Promise.all([
    Promise.all(
      plan.botting.map((ids, i) =>
        send(
          requestFor('botting', { mintIds: ids, hours, chain, platform }),
          `botting ${i + 1}/${plan.botting.length}`,
        ),
      ),
    ),
    Promise.all(
      plan.streamers.map((ids, i) =>
        send(streamerLookup(ids, chain, platform), `streamer records ${i + 1}/${plan.streamers.length}`),
      ),
    ),
    Promise.all(
      plan.fees.map((ids, i) =>
        send(requestFor('fees', { tokenAddresses: ids }), `creator fees ${i + 1}/${plan.fees.length}`),
      ),
    ),
  ]);

  // Nothing analysed at all (every botting request refused: a bad key, an outage, the batch allowance):
  // that is the call's failure, with its own tag, not a report of failed ids.
  const first = botting[0];
  if (first && 'error' in first && botting.every((o) => 'error' in o)) throw first.error;

  // Botting: every id of a chunk that failed is an error with the chunk's reason; the rest stands.
  const found: Finding[] = [];
  const errors: ItemError[] = [];
  const notes: string[] = [];
  const requestReasons = new Set<string>();
  botting.forEach((outcome, i) => {
    const ids = plan.botting[i] as string[];
    if ('error' in outcome) {
      const reason = reasonOf(outcome.error);
      requestReasons.add(reason);
      for (const id of ids) errors.push({ id, error: reason });
      return;
    }
    const data = asRecord(outcome.body.data);
    const accounted = accountFindings(data, ids);
    for (const f of accounted.results) found.push(f);
    for (const e of accounted.errors) errors.push(e);
    for (const n of accounted.notes) notes.push(n);
  });

  const records = new Map<string, StreamerRecord>();
  streamers.forEach((outcome, i) => {
    if ('error' in outcome) {
      notes.push(
        `No streamer records for ${plural(plan.streamers[i]?.length ?? 0, 'id')}: ${reasonOf(outcome.error)}`,
      );
      return;
    }
    for (const r of asArray(outcome.body.data).map(asRecord))
      records.set(clean(r.mintId, 64), r as StreamerRecord);
  });

  const feesById = new Map<string, Fees>();
  let feeErrors = 0;
  fees.forEach((outcome, i) => {
    if ('error' in outcome) {
      notes.push(
        `No creator fees for ${plural(plan.fees[i]?.length ?? 0, 'id')}: ${reasonOf(outcome.error)}`,
      );
      return;
    }
    for (const f of asArray(outcome.body.data).map(asRecord)) {
      feesById.set(clean(f.tokenAddress, 64), {
        totalFees: exact(f.totalFees),
        currency: clean(f.currency, 16),
        feesInNativeCoin: exact(f.feesInNativeCoin),
      });
    }
    feeErrors += asArray(outcome.body.errors).length;
  });
  if (feeErrors)
    notes.push(
      `Creator fees unavailable for ${plural(feeErrors, 'token')} (see get_creator_fees for the reasons).`,
    );

  const coverage = splitCoverage(chain, rankFindings(found), errors, records);
  return {
    // A platform_c token stays in the ranking's data (its viewers, fees), after the covered ones: a verdict
    // on no data in brackets, or the upstream's failure as sent.
    ranked: [
      ...coverage.findings,
      ...coverage.uncoveredFindings,
      ...coverage.uncoveredErrors.map((e) => unanalysed(e)),
    ],
    coverage,
    notes,
    records,
    fees: feesById,
    calls: { botting: plan.botting.length, streamers: plan.streamers.length, fees: plan.fees.length },
    complete,
    requestReasons,
  };
}

interface SliceArgs {
  mintIds: string[];
  hours: number;
  chain: string;
  platform: string;
  includeCreatorFees: boolean;
  sortBy: SortBy;
  levels?: string[] | undefined;
  liveOnly: boolean;
  offset: number;
}

/** The value a ranking sorts by (highest first); null sorts last. */
function sortValue(sortBy: SortBy, data: Investigation): (f: Finding) => number | null {
  const record = (f: Finding) => data.records.get(f.mintId);
  switch (sortBy) {
    case 'viewers':
      return (f) => exact(record(f)?.currentViewers);
    case 'marketCap':
      return (f) => exact(record(f)?.tokenMarketCap);
    case 'score':
      return (f) => f.score;
    case 'confidence':
      return (f) => f.confidence;
    case 'fees':
      return (f) => data.fees.get(f.mintId)?.feesInNativeCoin ?? null;
    default:
      return () => null;
  }
}

const SORT_TEXT: Record<SortBy, string> = {
  suspicion: 'most suspicious first',
  viewers: 'most viewers first',
  marketCap: 'highest market cap first',
  score: 'highest score first',
  confidence: 'highest confidence first',
  fees: 'highest native-coin fees first',
};

function report(
  args: SliceArgs,
  ctx: CallContext & { format: 'concise' | 'detailed' },
  data: Investigation,
  ageSeconds: number | undefined,
  /** Whether a re-slice within the cache's lifetime is free (not after a failed request). */
  kept: boolean,
) {
  const { notes, records, fees, calls, ranked, coverage } = data;
  const { findings: covered, errors, notCovered } = coverage;
  // Every count is over the tokens the botting endpoint covers; platform_c tokens rest on no data, so they
  // are counted apart and ranked after the covered ones.
  const off = new Set(notCovered);
  const isCovered = (id: string) => !off.has(id);
  const stats = levelStats(covered);
  const flagLevels = flagging(covered);
  const flagged = covered.filter((f) => flagLevels.levels.includes(f.level));
  const flaggedAs = flaggedName(flagLevels);
  const isLive = (f: Finding) => records.get(f.mintId)?.isCurrentlyLive === true;
  const flaggedLive = flagged.filter(isLive);
  let liveViewers = 0;
  for (const f of flaggedLive) liveViewers += exact(records.get(f.mintId)?.currentViewers) ?? 0;
  const reasons = topReasons(covered);
  const failed = failures(errors, 'mintIds', unknownIdsHint('investigate_botting', args));
  const uncovered = notCoveredReport(coverage, 'in brackets in the table');
  // Viewers (and fees) over every token asked, each level's share: the not-covered and failed ones too.
  const shares = shareLines(
    { findings: covered, notCovered, failed: errors.map((e) => e.id) },
    (id) => exact(records.get(id)?.currentViewers),
    args.includeCreatorFees ? (id) => fees.get(id) : undefined,
  );

  // The slice: levels (case-insensitive), live only, then the order asked for, then the offset.
  const wanted = args.levels ? new Set(args.levels.map((l) => l.toUpperCase())) : undefined;
  const filtered = ranked.filter(
    (f) => (!wanted || wanted.has(f.level.toUpperCase())) && (!args.liveOnly || isLive(f)),
  );
  const value = sortValue(args.sortBy, data);
  const sorted =
    args.sortBy === 'suspicion'
      ? filtered
      : [...filtered].sort((x, y) => (value(y) ?? -Infinity) - (value(x) ?? -Infinity));
  const page = sorted.slice(args.offset);
  const filterText = [
    ...(args.levels ? [`levels ${args.levels.join(', ')}`] : []),
    ...(args.liveOnly ? ['live only'] : []),
  ].join(', ');
  const matchedOff = sorted.filter((f) => !isCovered(f.mintId)).length;
  const matched = sorted.length - matchedOff;

  const scopeText = `(${args.mintIds.length} requested, ${errors.length} failed; ${args.chain} / ${args.platform}, last ${args.hours} h)`;
  const offText = notCovered.length ? `; ${notCoveredCount(notCovered.length)}` : '';
  const flaggedText = `${flagged.length} of ${analysedTokens(covered.length)} flagged ${flaggedAs}, ${flaggedLive.length} of them live now`;
  // With a filter, the headline leads with what it matched: that is the answer to the question asked.
  const headline = filterText
    ? `Botting investigation: ${matched} of ${analysedTokens(covered.length)} ${matched === 1 ? 'matches' : 'match'} ${filterText}${
        matchedOff ? ` (and ${notCoveredCount(matchedOff)})` : ''
      }; in all, ${flagged.length} flagged ${flaggedAs}, ${flaggedLive.length} of them live now${offText} ${scopeText}`
    : `Botting investigation: ${flaggedText}${offText} ${scopeText}`;
  // The flagged live tokens are counted here; the table (or levels + liveOnly) names them, in its order.
  const flaggedLine = `Flagged ${flaggedAs} and live now: ${flaggedLive.length ? `${flaggedLive.length} (${grouped(liveViewers)} viewers)` : 'none'}`;
  // Whether this slice is already the list the next step would point at: live, exactly the flagged levels.
  const asked = new Set(args.levels?.map((l) => l.toUpperCase()));
  const listsFlaggedLive =
    args.liveOnly &&
    asked.size === flagLevels.levels.length &&
    flagLevels.levels.every((l) => asked.has(l.toUpperCase()));
  const sliceLine = `${filterText ? `Filter ${filterText}: ${sorted.length} of ${ranked.length} findings match; ranked` : 'Ranked'} ${SORT_TEXT[args.sortBy]}${
    args.offset
      ? page.length
        ? `; from offset ${args.offset} (row ${args.offset + 1})`
        : `; offset ${args.offset} is past the end: ${sorted.length} match, use an offset below ${sorted.length}`
      : ''
  }${notCovered.length && args.sortBy === 'suspicion' ? '; tokens not covered last' : ''}.`;
  const ageLine =
    ageSeconds !== undefined
      ? `Data from this investigation ${ageSeconds} s ago; no new upstream requests (kept ${TTL_MINUTES} minutes).`
      : undefined;
  const showFees = args.includeCreatorFees;
  const columns = [
    'rank',
    'mintId',
    'level',
    'confidence',
    'score',
    'live',
    'viewers',
    'marketCap',
    'name',
    'symbol',
    'reasons',
    ...(showFees ? ['feesInNativeCoin', 'totalFees', 'currency'] : []),
    ...(args.chain === 'chain_b' ? ['covered', 'upstreamError'] : []),
  ];
  const counts = {
    requested: args.mintIds.length,
    analysed: covered.length,
    failed: errors.length,
    ...(args.chain === 'chain_b' ? { notCovered: notCovered.length } : {}),
    ...levelCounts(stats),
    ...shares.json,
    ...flaggedCounts(flagLevels, covered),
    flaggedLive: flaggedLive.length,
    flaggedLiveViewers: liveViewers,
    matching: sorted.length,
    ...(args.chain === 'chain_b' ? { matchingNotCovered: matchedOff } : {}),
  };
  const cut = {
    what: `ranked findings (${SORT_TEXT[args.sortBy]})`,
    how: (shown: number) =>
      `Continue with offset ${args.offset + shown} (${kept ? `no new upstream requests for ${TTL_MINUTES} minutes` : 'asked afresh: a request of this investigation failed'}), or narrow with levels / liveOnly.`,
    format: ctx.format,
    offset: args.offset,
  };

  const window = widerWindowHint(errors, args.hours, data.requestReasons);
  const next = `${window ? `${window} ` : ''}${flaggedLive.length && !listsFlaggedLive ? `levels ${JSON.stringify(flagLevels.levels)} with liveOnly true lists the ${flaggedLive.length} flagged live tokens (no new upstream requests); ` : ''}get_streamer_sessions${scopeHint(args.chain, args.platform)} on a flagged token for its history; get_streamer_core${scopeHint(args.chain, args.platform)} for its current state.`;
  const detailed = ctx.format === 'detailed';
  const pointed = new Set(flaggedLive.map((f) => f.mintId));
  // Ids whole where the budget allows; else shortened, but never in the first rows or the rows the headline
  // and the next step point at (flagged, live).
  const render = (shorten: boolean) => {
    const ids = idColumn(page.length, 'ids', { ranked: true, pointed, shorten });
    return withReasons(page.length, (full) =>
      fitRows(page, ctx.budget, cut, (rows) => {
        const idsShortened = ids.note(
          rows.map((f) => f.mintId),
          args.offset + 1,
        );
        return result({
          headline,
          lines: [
            ...(covered.length ? [levelsLine(stats), flaggedRuleLine(flagLevels), flaggedLine] : []),
            ...shares.lines,
            ...(reasons.length
              ? [
                  `Most frequent reasons: ${reasons.map((r) => `${quote(r.reason, 60)} (${r.count})`).join('; ')}`,
                ]
              : []),
            ...uncovered.lines,
            ...noteLines(notes),
            ...(ranked.length ? [sliceLine] : []),
            ...(ageLine ? [ageLine] : []),
            ...(rows.length
              ? [
                  '',
                  ...table(
                    [
                      { header: '#', align: 'right' },
                      { header: 'level' },
                      { header: 'conf', align: 'right' },
                      { header: 'score', align: 'right' },
                      { header: 'live' },
                      { header: 'viewers', align: 'right' },
                      { header: 'mcap', align: 'right' },
                      { header: 'name' },
                      { header: 'symbol' },
                      { header: 'mint' },
                      ...(showFees
                        ? [
                            { header: 'native fees', align: 'right' as const },
                            { header: 'fees', align: 'right' as const },
                          ]
                        : []),
                      { header: full ? 'reasons' : 'first reason' },
                    ],
                    rows.map((f, i) => {
                      const r = records.get(f.mintId);
                      const fee = fees.get(f.mintId);
                      return [
                        String(args.offset + i + 1),
                        isCovered(f.mintId) ? f.level : f.error === undefined ? `(${f.level})` : '–',
                        num(f.confidence),
                        num(f.score),
                        r ? liveText(r.isCurrentlyLive) : '?',
                        num(r?.currentViewers),
                        detailed ? num(r?.tokenMarketCap) : abbrev(r?.tokenMarketCap),
                        r ? quote(r.coinName, 20) : '–',
                        r ? label(r.coinSymbol) : '–',
                        ids.show(f.mintId, i),
                        ...(showFees
                          ? [
                              coin(fee?.feesInNativeCoin),
                              fee ? `${money(fee.totalFees)} ${label(fee.currency)}` : '–',
                            ]
                          : []),
                        `${isCovered(f.mintId) ? '' : `${NOT_COVERED_CELL}; `}${
                          f.error === undefined
                            ? reasonsText(f.reasons, full ? Infinity : 1, 48)
                            : `upstream: ${quote(f.error, 60)}`
                        }`,
                      ];
                    }),
                  ),
                  ...(idsShortened ? [idsShortened] : []),
                  ...(detailed
                    ? []
                    : ['mcap abbreviated (k, M, B); response_format "detailed" shows it exact.']),
                  ...(ctx.format === 'detailed' ? rows.map((f) => detailLine(f, records, fees)) : []),
                ]
              : []),
            ...(errors.length ? ['', ...failed.lines] : []),
          ],
          query: {
            chain: args.chain,
            platform: args.platform,
            hours: args.hours,
            includeCreatorFees: args.includeCreatorFees,
            sortBy: args.sortBy,
            ...(args.levels ? { levels: args.levels } : {}),
            liveOnly: args.liveOnly,
            offset: args.offset,
          },
          data: {
            counts,
            calls: ageSeconds === undefined ? calls : { botting: 0, streamers: 0, fees: 0 },
            ...(ageSeconds !== undefined ? { dataAgeSeconds: ageSeconds } : {}),
            ...(reasons.length ? { topReasons: reasons } : {}),
            ...(ctx.format === 'detailed'
              ? {
                  items: rows.map((f, i) => ({
                    rank: args.offset + i + 1,
                    ...(cleanDeep(f.raw) as Record<string, unknown>),
                    streamer: cleanDeep(records.get(f.mintId) ?? null),
                    ...(showFees ? { creatorFees: fees.get(f.mintId) ?? null } : {}),
                    ...(args.chain === 'chain_b' ? { covered: isCovered(f.mintId) } : {}),
                  })),
                }
              : {
                  columns,
                  rows: rows.map((f, i) => {
                    const r = records.get(f.mintId);
                    const fee = fees.get(f.mintId);
                    return [
                      args.offset + i + 1,
                      f.mintId,
                      f.error === undefined ? f.level : null,
                      f.confidence,
                      f.score,
                      typeof r?.isCurrentlyLive === 'boolean' ? r.isCurrentlyLive : null,
                      exact(r?.currentViewers),
                      exact(r?.tokenMarketCap),
                      r ? clean(r.coinName, 60) : null,
                      r ? clean(r.coinSymbol, 16) : null,
                      full ? f.reasons : f.reasons.slice(0, 3),
                      ...(showFees
                        ? [fee?.feesInNativeCoin ?? null, fee?.totalFees ?? null, fee?.currency ?? null]
                        : []),
                      ...(args.chain === 'chain_b' ? [isCovered(f.mintId), f.error ?? null] : []),
                    ];
                  }),
                }),
            ...uncovered.json,
            ...(errors.length ? { errors: failed.json } : {}),
            ...(notes.length ? { notes } : {}),
            // An offset past the end shows nothing: where the ranking ends, for this channel's reader too.
            ...(page.length === 0 && args.offset > 0
              ? { shown: { from: null, to: null, of: sorted.length } }
              : {}),
            ...(idsShortened ? { idsShortened } : {}),
          },
          next,
        });
      }),
    );
  };
  // Ids are shortened only where the budget forces it: when whole ones leave rows out that shortened ones
  // let in (structuredContent, which has every id whole, is often what limits the rows: then nothing is).
  const whole = render(false);
  if (page.length <= WHOLE_ID_ROWS || whole.structured.truncated === undefined) return whole;
  const short = render(true);
  return rowsIn(short) > rowsIn(whole) ? short : whole;
}

/** How many rows a rendering of the ranking holds (either format). */
const rowsIn = (r: { structured: Record<string, unknown> }) =>
  ((r.structured.rows ?? r.structured.items) as unknown[] | undefined)?.length ?? 0;

const BOTTING_SHOWN = ['mintId', 'confidenceLevel', 'confidence', 'score'];
const STREAMER_SHOWN = [
  'mintId',
  'isCurrentlyLive',
  'currentViewers',
  'tokenMarketCap',
  'coinName',
  'coinSymbol',
];

/** In detailed mode, one line per token: every reason and every field the table does not show. */
function detailLine(f: Finding, records: Map<string, StreamerRecord>, fees: Map<string, Fees>): string {
  const record = records.get(f.mintId);
  const fee = fees.get(f.mintId);
  const parts = [
    ...describeObject(f.raw, BOTTING_SHOWN, true).parts,
    ...(record ? describeObject(record, STREAMER_SHOWN, true).parts.map((p) => `streamer.${p}`) : []),
    ...(fee ? describeObject({ ...fee }, [], true).parts.map((p) => `creatorFees.${p}`) : []),
  ];
  return `  ${f.mintId}: ${parts.join('; ')}`;
}
