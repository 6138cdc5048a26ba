// The one botting investigation (/botting/bulk, streamer records, fees); analyze_botting is it without joins.
import type { ApiRequest } from '../../api/client.js';
import { batches, idLimit, requestFor } from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import { asArray, asRecord, type ItemError } from '../../format/batch.js';
import {
  accountFindings,
  type Finding,
  rankFindings,
  type TokenFees,
  unanalysed,
} from '../../format/botting.js';
import { describeError } from '../../format/errors.js';
import type { StreamerRecord } from '../../format/streamer.js';
import { plural } from '../../format/text.js';
import { exact } from '../../untrusted/numbers.js';
import { clean } from '../../untrusted/text.js';
import { type Coverage, coverageApplies, LOOKUP_BATCH, splitCoverage, streamerLookup } from '../coverage.js';
import type { CallContext } from '../tool.js';

export interface InvestigationArgs {
  mintIds: readonly string[];
  hours: number;
  chain: string;
  platform: string;
  includeCreatorFees: boolean;
}

/** An investigation's joined data: what every channel of both tools (and history) is projected from. */
export interface Investigation {
  /** Covered findings most suspicious first, then every not-covered token (unranked). */
  ranked: Finding[];
  coverage: Coverage;
  /** Whether the chain has platforms the botting endpoint does not take (then counts say notCovered). */
  coverageApplies: boolean;
  /** What the upstream's answers said about themselves (ids missing, answered twice, unexpected). */
  notes: string[];
  lookupFailures: Array<{ ids: number; reason: string }>;
  /** Fee requests that failed, and the tokens the fee endpoint answered with an error. */
  feeNotes: string[];
  records: Map<string, StreamerRecord>;
  fees: Map<string, TokenFees>;
  calls: { botting: number; streamers: number; fees: number };
  /** Every upstream request answered: only such an investigation is kept for re-slicing. */
  complete: boolean;
  /** The reasons given to the ids of a whole failed botting request. */
  requestReasons: Set<string>;
}

/** The first line of a failure's description: what a chunk's ids are reported with. */
const reasonOf = (error: unknown) => (describeError(error).split('\n')[0] ?? 'failed').slice(0, 160);

export async function runInvestigation(
  args: InvestigationArgs,
  ctx: Pick<CallContext, 'send' | 'signal' | 'progress'>,
  options: { records?: boolean; progress?: boolean } = {},
): Promise<Investigation> {
  const { mintIds, chain, platform } = args;
  const applies = coverageApplies(chain);
  const plan = {
    botting: batches(mintIds, idLimit('botting')),
    streamers: options.records !== false || applies ? batches(mintIds, LOOKUP_BATCH) : [],
    fees: args.includeCreatorFees ? batches(mintIds, idLimit('fees')) : [],
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
      if (options.progress && !ctx.signal.aborted)
        ctx.progress(++done, total, `${what} (${done} of ${total} requests done)`);
    }
  };
  const each = (chunks: string[][], what: string, req: (ids: string[]) => ApiRequest) =>
    Promise.all(chunks.map((ids, i) => send(req(ids), `${what} ${i + 1}/${chunks.length}`)));
  const [botting, streamers, fees] = await Promise.all([
    each(plan.botting, 'botting', (ids) =>
      requestFor('botting', { mintIds: ids, hours: args.hours, chain, platform }),
    ),
    each(plan.streamers, 'streamer records', (ids) => streamerLookup(ids, chain, platform)),
    each(plan.fees, 'creator fees', (ids) => requestFor('fees', { tokenAddresses: ids })),
  ]);

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
    const accounted = accountFindings(asRecord(outcome.body.data), ids);
    found.push(...accounted.results);
    errors.push(...accounted.errors);
    notes.push(...accounted.notes);
  });

  const records = new Map<string, StreamerRecord>();
  const lookupFailures: Investigation['lookupFailures'] = [];
  streamers.forEach((outcome, i) => {
    if ('error' in outcome)
      lookupFailures.push({ ids: plan.streamers[i]?.length ?? 0, reason: reasonOf(outcome.error) });
    else
      for (const r of asArray(outcome.body.data).map(asRecord))
        records.set(clean(r.mintId, 64), r as StreamerRecord);
  });

  const feesById = new Map<string, TokenFees>();
  const feeNotes: string[] = [];
  let feeErrors = 0;
  fees.forEach((outcome, i) => {
    if ('error' in outcome) {
      feeNotes.push(
        `No creator fees for ${plural(plan.fees[i]?.length ?? 0, 'id')}: ${reasonOf(outcome.error)}`,
      );
      return;
    }
    for (const f of asArray(outcome.body.data).map(asRecord))
      feesById.set(clean(f.tokenAddress, 64), {
        totalFees: exact(f.totalFees),
        currency: clean(f.currency, 16),
        feesInNativeCoin: exact(f.feesInNativeCoin),
      });
    feeErrors += asArray(outcome.body.errors).length;
  });
  if (feeErrors)
    feeNotes.push(
      `Creator fees unavailable for ${plural(feeErrors, 'token')} (see get_creator_fees for the reasons).`,
    );

  const coverage = splitCoverage(chain, rankFindings(found), errors, records);
  return {
    ranked: [
      ...coverage.findings,
      ...coverage.uncoveredFindings,
      ...coverage.uncoveredErrors.map(unanalysed),
    ],
    coverage,
    coverageApplies: applies,
    notes,
    lookupFailures,
    feeNotes,
    records,
    fees: feesById,
    calls: { botting: plan.botting.length, streamers: plan.streamers.length, fees: plan.fees.length },
    complete,
    requestReasons,
  };
}
