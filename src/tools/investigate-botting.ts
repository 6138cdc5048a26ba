import * as z from 'zod';
import type { ApiRequest } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { accountFor, asArray, asRecord, failures, type ItemError, noteLines } from '../format/batch.js';
import {
  boardView,
  type Finding,
  FLAGGED_LEVEL,
  levelStats,
  levelsLine,
  parseFindings,
  rankFindings,
  reasonsText,
  topReasons,
} from '../format/botting.js';
import { describeError } from '../format/errors.js';
import { describeObject } from '../format/generic.js';
import { fitRows } from '../format/result.js';
import { liveText, type StreamerRecord } from '../format/streamer.js';
import { clean, cleanDeep, exact, idColumn, label, money, num, quote, table } from '../format/text.js';
import { failureGroups } from './batch-output.js';
import { idList, SCOPES, SHAPES, scopeHint } from './shared.js';
import { type CallContext, defineTool } from './tool.js';

/** Each endpoint's own batch limit, from the interface document. */
const CHUNK = { botting: 50, streamers: 100, fees: 100 } as const;

const chunk = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

interface Fees {
  totalFees: unknown;
  currency: string;
  feesInNativeCoin: unknown;
}

/** The first line of a failure's description: what a chunk's ids are reported with. */
const reasonOf = (error: unknown) => (describeError(error).split('\n')[0] ?? 'failed').slice(0, 160);

export const investigateBotting = defineTool({
  name: 'investigate_botting',
  title: 'Botting investigation',
  description:
    "Botting analysis of up to 500 tokens in one call, batched for you, joined with each token's name, live status, viewers and market cap (and creator fees if asked): one ranked report, flagged live tokens, most frequent reasons.",
  input: {
    mintIds: idList(500),
    hours: z.number().int().min(1).max(168).default(24).describe('Hours of data analysed'),
    includeCreatorFees: z.boolean().default(false).describe('Join creator fees'),
  },
  scope: SCOPES.botting,
  ids: 'mintIds',
  output: {
    query: z.object({}).loose().optional(),
    counts: z.object({}).loose().optional(),
    calls: z.object({}).loose().optional(),
    topReasons: z.array(z.object({ reason: z.string(), count: z.number() })).optional(),
    columns: z.array(z.string()).optional(),
    rows: z.array(z.array(z.unknown())).optional(),
    items: z.array(z.object({}).loose()).optional(),
    errors: failureGroups,
    notes: z.array(z.string()).optional(),
  },
  async run(args, ctx) {
    const { mintIds, hours, chain, platform } = args;
    const plan = {
      botting: chunk(mintIds, CHUNK.botting),
      streamers: chunk(mintIds, CHUNK.streamers),
      fees: args.includeCreatorFees ? chunk(mintIds, CHUNK.fees) : [],
    };
    const total = plan.botting.length + plan.streamers.length + plan.fees.length;
    let done = 0;
    const send = async (req: ApiRequest, what: string) => {
      try {
        return { body: await ctx.send(req) };
      } catch (error) {
        // Cancellation ends the whole investigation; any other failure costs only this chunk.
        if (ctx.signal.aborted || (error instanceof ApiError && error.kind === 'cancelled')) throw error;
        return { error };
      } finally {
        if (!ctx.signal.aborted) ctx.progress(++done, total, `${what} (${done} of ${total} requests done)`);
      }
    };

    const [botting, streamers, fees] = await Promise.all([
      Promise.all(
        plan.botting.map((ids, i) =>
          send(
            {
              method: 'POST',
              path: '/botting/bulk',
              body: { mintIds: ids, hours, chain, platform },
              shape: SHAPES.batch,
            },
            `botting ${i + 1}/${plan.botting.length}`,
          ),
        ),
      ),
      Promise.all(
        plan.streamers.map((ids, i) =>
          send(
            {
              method: 'POST',
              path: '/streamers',
              shape: SHAPES.streamers,
              // On chain_b, every platform: a record that says platform_c explains a failed analysis.
              body: {
                tokenAddresses: ids,
                limit: CHUNK.streamers,
                page: 1,
                chain,
                platform: chain === 'chain_b' ? 'all' : platform,
              },
            },
            `streamer records ${i + 1}/${plan.streamers.length}`,
          ),
        ),
      ),
      Promise.all(
        plan.fees.map((ids, i) =>
          send(
            {
              method: 'POST',
              path: '/stats/creator-fees/bulk',
              body: { tokenAddresses: ids },
              shape: SHAPES.fees,
            },
            `creator fees ${i + 1}/${plan.fees.length}`,
          ),
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
    botting.forEach((outcome, i) => {
      const ids = plan.botting[i] as string[];
      if ('error' in outcome) {
        const reason = reasonOf(outcome.error);
        for (const id of ids) errors.push({ id, error: reason });
        return;
      }
      const data = asRecord(outcome.body.data);
      const accounted = accountFor(
        parseFindings(data.results),
        (f) => f.mintId,
        data.errors,
        ids,
        asRecord(data.summary),
      );
      found.push(...accounted.results);
      errors.push(...accounted.errors);
      notes.push(...accounted.notes);
    });

    const records = new Map<string, StreamerRecord>();
    streamers.forEach((outcome, i) => {
      if ('error' in outcome) {
        notes.push(`No streamer records for ${plan.streamers[i]?.length} ids: ${reasonOf(outcome.error)}`);
        return;
      }
      for (const r of asArray(outcome.body.data).map(asRecord))
        records.set(clean(r.mintId, 64), r as StreamerRecord);
    });

    // A failure of a token on platform_c is the endpoint's coverage, not a missing token: say so.
    if (chain === 'chain_b') {
      for (const e of errors)
        if (records.get(e.id)?.platform === 'platform_c')
          e.error = 'on platform_c, which botting analysis does not cover';
    }

    const feesById = new Map<string, Fees>();
    let feeErrors = 0;
    fees.forEach((outcome, i) => {
      if ('error' in outcome) {
        notes.push(`No creator fees for ${plan.fees[i]?.length} ids: ${reasonOf(outcome.error)}`);
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
      notes.push(`Creator fees unavailable for ${feeErrors} tokens (see get_creator_fees for the reasons).`);

    const ranked = rankFindings(found);
    ctx.view?.(
      boardView(
        ranked,
        errors,
        { chain, platform, hours: args.hours, requested: args.mintIds.length },
        records,
      ),
    );
    return report(args, ctx, ranked, errors, notes, records, feesById, {
      botting: plan.botting.length,
      streamers: plan.streamers.length,
      fees: plan.fees.length,
    });
  },
});

function report(
  args: { mintIds: string[]; hours: number; chain: string; platform: string; includeCreatorFees: boolean },
  ctx: CallContext & { format: 'concise' | 'detailed' },
  ranked: Finding[],
  errors: ItemError[],
  notes: string[],
  records: Map<string, StreamerRecord>,
  fees: Map<string, Fees>,
  calls: Record<string, number>,
) {
  const stats = levelStats(ranked);
  const flagged = ranked.filter((f) => f.level === FLAGGED_LEVEL);
  const flaggedLive = flagged.filter((f) => records.get(f.mintId)?.isCurrentlyLive === true);
  const liveViewers = flaggedLive.reduce(
    (sum, f) => sum + Number(records.get(f.mintId)?.currentViewers ?? 0),
    0,
  );
  const reasons = topReasons(ranked);
  const failed = failures(errors);
  const callText = `${calls.botting} botting, ${calls.streamers} streamer${calls.fees ? `, ${calls.fees} fee` : ''} requests`;
  const headline = `Botting investigation: ${args.mintIds.length} tokens requested, ${ranked.length} analysed, ${errors.length} failed (${args.chain} / ${args.platform}, last ${args.hours} h; ${callText})`;
  const flaggedLine = `Flagged (${FLAGGED_LEVEL}): ${flagged.length}; live now: ${flaggedLive.length}${flaggedLive.length ? ` (${num(liveViewers)} viewers)` : ''}${
    flaggedLive.length
      ? `: ${flaggedLive
          .slice(0, 10)
          .map((f) => f.mintId)
          .join(', ')}${flaggedLive.length > 10 ? ', …' : ''}`
      : ''
  }`;
  const ids = idColumn(ranked.length, 'ids');
  const columns = [
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
    ...(args.includeCreatorFees ? ['totalFees', 'currency'] : []),
  ];
  const counts = {
    requested: args.mintIds.length,
    analysed: ranked.length,
    failed: errors.length,
    byLevel: stats.byLevel,
    ...(stats.averageConfidence !== null ? { averageConfidence: stats.averageConfidence } : {}),
    flagged: flagged.length,
    flaggedLive: flaggedLive.length,
  };
  const cut = {
    what: 'ranked tokens (most suspicious first)',
    how: () => 'The rest rank lower; ask about fewer tokens, or use analyze_botting on a subset.',
    format: ctx.format,
  };

  return fitRows(ranked, ctx.budget, cut, (rows) => {
    const text = [
      headline,
      ...(ranked.length ? [levelsLine(stats), flaggedLine] : []),
      ...(reasons.length
        ? [`Most frequent reasons: ${reasons.map((r) => `${quote(r.reason, 60)} (${r.count})`).join('; ')}`]
        : []),
      ...noteLines(notes),
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
                ...(args.includeCreatorFees ? [{ header: 'fees', align: 'right' as const }] : []),
                { header: 'first reason' },
              ],
              rows.map((f, i) => {
                const r = records.get(f.mintId);
                const fee = fees.get(f.mintId);
                return [
                  String(i + 1),
                  f.level,
                  num(f.confidence),
                  num(f.score),
                  r ? liveText(r.isCurrentlyLive) : '?',
                  num(r?.currentViewers),
                  num(r?.tokenMarketCap),
                  r ? quote(r.coinName, 20) : '–',
                  r ? label(r.coinSymbol) : '–',
                  ids.show(f.mintId),
                  ...(args.includeCreatorFees ? [fee ? `${money(fee.totalFees)} ${fee.currency}` : '–'] : []),
                  reasonsText(f.reasons, 1, 48),
                ];
              }),
            ),
            ...ids.note,
            ...(ctx.format === 'detailed' ? rows.map((f) => detailLine(f, records, fees)) : []),
          ]
        : []),
      ...(errors.length ? ['', ...failed.lines] : []),
      `Next: get_streamer_sessions${scopeHint(args.chain, args.platform)} on a flagged token for its history; get_streamer_core${scopeHint(args.chain, args.platform)} for its current state.`,
    ].join('\n');
    return {
      summary: headline,
      text,
      structured: {
        query: {
          chain: args.chain,
          platform: args.platform,
          hours: args.hours,
          includeCreatorFees: args.includeCreatorFees,
        },
        counts,
        calls,
        ...(reasons.length ? { topReasons: reasons } : {}),
        ...(ctx.format === 'detailed'
          ? {
              items: rows.map((f) => ({
                ...(cleanDeep(f.raw) as Record<string, unknown>),
                streamer: cleanDeep(records.get(f.mintId) ?? null),
                ...(args.includeCreatorFees ? { creatorFees: fees.get(f.mintId) ?? null } : {}),
              })),
            }
          : {
              columns,
              rows: rows.map((f) => {
                const r = records.get(f.mintId);
                const fee = fees.get(f.mintId);
                return [
                  f.mintId,
                  f.level,
                  f.confidence,
                  f.score,
                  typeof r?.isCurrentlyLive === 'boolean' ? r.isCurrentlyLive : null,
                  exact(r?.currentViewers),
                  exact(r?.tokenMarketCap),
                  r ? clean(r.coinName, 60) : null,
                  r ? clean(r.coinSymbol, 16) : null,
                  f.reasons.slice(0, 3),
                  ...(args.includeCreatorFees ? [fee?.totalFees ?? null, fee?.currency ?? null] : []),
                ];
              }),
            }),
        ...(errors.length ? { errors: failed.json } : {}),
        ...(notes.length ? { notes } : {}),
      },
    };
  });
}

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
