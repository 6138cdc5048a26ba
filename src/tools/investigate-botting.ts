import * as z from 'zod';
import {
  type Finding,
  flaggedRuleLine,
  levelsLine,
  type TokenFees,
  widerWindowHint,
  withReasons,
} from '../format/botting.js';
import { textTable } from '../format/columns.js';
import { describeObject } from '../format/generic.js';
import { fitRows, result } from '../format/result.js';
import { shareLines } from '../format/shares.js';
import type { StreamerRecord } from '../format/streamer.js';
import { idColumn, plural, WHOLE_ID_ROWS } from '../format/text.js';
import { exact, grouped } from '../untrusted/numbers.js';
import { cleanDeep, quote } from '../untrusted/text.js';
import { failureGroups, object, strings, table, text } from './batch-output.js';
import { type Cell, rankingColumns } from './botting/columns.js';
import { bottingFigures } from './botting/report.js';
import { type Investigation, type InvestigationArgs, runInvestigation } from './botting/run.js';
import { analysedTokens, notCoveredCount } from './coverage.js';
import { withViewHistory } from './get-token-history.js';
import { INVESTIGATION_TTL_MS, recall, remember } from './investigation-cache.js';
import { bounded, idList, pick, SCOPES, scopeHint } from './shared.js';
import { type CallContext, defineTool } from './tool.js';

const SORTS = ['suspicion', 'viewers', 'marketCap', 'score', 'confidence', 'fees'] as const;
type SortBy = (typeof SORTS)[number];

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
    counts: object,
    calls: object,
    dataAgeSeconds: z.number().optional(),
    topReasons: z.array(z.object({ reason: z.string(), count: z.number() })).optional(),
    ...table,
    notCovered: strings,
    notCoveredUpstreamErrors: failureGroups,
    errors: failureGroups,
    notes: strings,
    shown: object,
    idsShortened: text,
  },
  async run(args, ctx) {
    // The data depends on the ids (as a set), hours, chain, platform and fees; the slice does not.
    const { mintIds, hours, chain, platform, includeCreatorFees } = args;
    const key = JSON.stringify([[...mintIds].sort(), hours, chain, platform, includeCreatorFees]);
    const caller = ctx.caller?.key;
    const hit = caller ? recall<Investigation>(caller, key) : undefined;
    const data = hit?.value ?? (await runInvestigation(args, ctx, { progress: true }));
    const kept = hit !== undefined || (data.complete && caller !== undefined);
    if (!hit && kept && caller) remember(caller, key, data);
    const age = hit ? Math.round(hit.ageMs / 1000) : undefined;
    return withViewHistory(ctx, args.chain, (c) => report(args, c, data, age, kept));
  },
});

type SliceArgs = InvestigationArgs & {
  sortBy: SortBy;
  levels?: string[] | undefined;
  liveOnly: boolean;
  offset: number;
};

/** Each order in words, and the value it sorts by (highest first; null last). */
const SORT: Record<SortBy, [string, (f: Finding, data: Investigation) => number | null]> = {
  suspicion: ['most suspicious first', () => null],
  viewers: ['most viewers first', (f, d) => exact(d.records.get(f.mintId)?.currentViewers)],
  marketCap: ['highest market cap first', (f, d) => exact(d.records.get(f.mintId)?.tokenMarketCap)],
  score: ['highest score first', (f) => f.score],
  confidence: ['highest confidence first', (f) => f.confidence],
  fees: ['highest native-coin fees first', (f, d) => d.fees.get(f.mintId)?.feesInNativeCoin ?? null],
};

function report(
  args: SliceArgs,
  ctx: CallContext & { format: 'concise' | 'detailed' },
  data: Investigation,
  ageSeconds: number | undefined,
  /** Whether a re-slice within the cache's lifetime is free (not after a failed request). */
  kept: boolean,
) {
  const { records, fees, calls, ranked } = data;
  const { chain, platform, hours, includeCreatorFees, sortBy, levels, liveOnly, offset } = args;
  const figures = bottingFigures('investigate_botting', data, args);
  const { covered, errors, notCovered, stats, reasons, failed, uncovered, flaggedAs } = figures;
  const flagLevels = figures.flagged;
  figures.showBoard(ctx, {
    title: 'Botting investigation',
    filters: { levels, liveOnly, sortBy },
    fees: includeCreatorFees ? fees : undefined,
  });
  const notes = [
    ...data.notes,
    ...data.lookupFailures.map((f) => `No streamer records for ${plural(f.ids, 'id')}: ${f.reason}`),
    ...data.feeNotes,
  ];
  const flagged = covered.filter((f) => flagLevels.levels.includes(f.level));
  const isLive = (f: Finding) => records.get(f.mintId)?.isCurrentlyLive === true;
  const viewersOf = (id: string) => exact(records.get(id)?.currentViewers);
  const flaggedLive = flagged.filter(isLive);
  const liveViewers = flaggedLive.reduce((n, f) => n + (viewersOf(f.mintId) ?? 0), 0);
  // Viewers (and fees) over every token asked, each level's share: the not-covered and failed ones too.
  const shares = shareLines(
    { findings: covered, notCovered, failed: errors.map((e) => e.id) },
    viewersOf,
    includeCreatorFees ? (id) => fees.get(id) : undefined,
  );
  const asked = new Set(levels?.map((l) => l.toUpperCase()));
  const filtered = ranked.filter(
    (f) => (!levels || asked.has(f.level.toUpperCase())) && (!liveOnly || isLive(f)),
  );
  const [sortText, sortValue] = SORT[sortBy];
  const value = (f: Finding) => sortValue(f, data);
  const sorted =
    sortBy === 'suspicion'
      ? filtered
      : [...filtered].sort((x, y) => (value(y) ?? -Infinity) - (value(x) ?? -Infinity));
  const page = sorted.slice(offset);
  const filterText = [levels && `levels ${levels.join(', ')}`, liveOnly && 'live only']
    .filter(Boolean)
    .join(', ');
  const matchedOff = sorted.filter((f) => !f.covered).length;
  const matched = sorted.length - matchedOff;
  // With a filter, the headline leads with what it matched: that is the answer to the question asked.
  const headline = filterText
    ? `Botting investigation: ${matched} of ${analysedTokens(covered.length)} ${matched === 1 ? 'matches' : 'match'} ${filterText}${
        matchedOff ? ` (and ${notCoveredCount(matchedOff)})` : ''
      }; in all, ${flagged.length} flagged ${flaggedAs}, ${flaggedLive.length} of them live now${figures.tail}`
    : `Botting investigation: ${flagged.length} of ${analysedTokens(covered.length)} flagged ${flaggedAs}, ${flaggedLive.length} of them live now${figures.tail}`;
  const flaggedLine = `Flagged ${flaggedAs} and live now: ${flaggedLive.length ? `${flaggedLive.length} (${grouped(liveViewers)} viewers)` : 'none'}`;
  // Whether this slice is already the list the next step would point at: live, exactly the flagged levels.
  const listsFlaggedLive =
    liveOnly &&
    asked.size === flagLevels.levels.length &&
    flagLevels.levels.every((l) => asked.has(l.toUpperCase()));
  const sliceLine = `${filterText ? `Filter ${filterText}: ${sorted.length} of ${ranked.length} findings match; ranked` : 'Ranked'} ${sortText}${
    offset
      ? page.length
        ? `; from offset ${offset} (row ${offset + 1})`
        : `; offset ${offset} is past the end: ${sorted.length} match, use an offset below ${sorted.length}`
      : ''
  }${notCovered.length && sortBy === 'suspicion' ? '; tokens not covered last' : ''}.`;
  const ageLine =
    ageSeconds !== undefined &&
    `Data from this investigation ${ageSeconds} s ago; no new upstream requests (kept ${TTL_MINUTES} minutes).`;
  const detailed = ctx.format === 'detailed';
  const counts = {
    ...figures.counts,
    ...shares.json,
    ...figures.flaggedFigures,
    flaggedLive: flaggedLive.length,
    flaggedLiveViewers: liveViewers,
    matching: sorted.length,
    ...(data.coverageApplies ? { matchingNotCovered: matchedOff } : {}),
  };
  const cut = {
    what: `ranked findings (${sortText})`,
    how: (shown: number) =>
      `Continue with offset ${offset + shown} (${kept ? `no new upstream requests for ${TTL_MINUTES} minutes` : 'asked afresh: a request of this investigation failed'}), or narrow with levels / liveOnly.`,
    offset,
  };
  const window = widerWindowHint(errors, hours, data.requestReasons);
  const scope = scopeHint(chain, platform);
  const next = `${window ? `${window} ` : ''}${flaggedLive.length && !listsFlaggedLive ? `levels ${JSON.stringify(flagLevels.levels)} with liveOnly true lists the ${flaggedLive.length} flagged live tokens (no new upstream requests); ` : ''}get_streamer_sessions${scope} on a flagged token for its history; get_streamer_core${scope} for its current state.`;
  const pointed = new Set(flaggedLive.map((f) => f.mintId));
  // Shortened ids never in the first rows or the rows the headline and next step point at.
  const render = (shorten: boolean) => {
    const ids = idColumn(page.length, 'ids', { ranked: true, pointed, shorten });
    const cellOf = (f: Finding, i: number, full: boolean): Cell => ({
      f,
      rank: offset + i + 1,
      r: records.get(f.mintId),
      fee: fees.get(f.mintId),
      full,
      id: ids.show(f.mintId, i),
    });
    return withReasons(page.length, (full) =>
      fitRows(page, ctx, cut, (rows) => {
        const columns = rankingColumns(includeCreatorFees, data.coverageApplies, detailed, full);
        const cells = rows.map((f, i) => cellOf(f, i, full));
        const idsShortened = ids.note(
          rows.map((f) => f.mintId),
          offset + 1,
        );
        return result({
          headline,
          lines: [
            ...(covered.length ? [levelsLine(stats), flaggedRuleLine(flagLevels), flaggedLine] : []),
            ...shares.lines,
            reasons.length > 0 &&
              `Most frequent reasons: ${reasons.map((r) => `${quote(r.reason, 60)} (${r.count})`).join('; ')}`,
            ...uncovered.lines,
            ...notes.map((n) => `Note: ${n}`),
            ranked.length > 0 && sliceLine,
            ageLine,
            ...(rows.length
              ? [
                  '',
                  ...textTable(columns, cells),
                  idsShortened,
                  ...(detailed
                    ? rows.map((f) => detailLine(f, records, fees))
                    : ['mcap abbreviated (k, M, B); response_format "detailed" shows it exact.']),
                ]
              : []),
            ...(errors.length ? ['', ...failed.lines] : []),
          ],
          query: {
            ...pick(args, 'chain', 'platform', 'hours', 'includeCreatorFees', 'sortBy'),
            ...(levels ? { levels } : {}),
            liveOnly,
            offset,
          },
          data: {
            counts,
            calls: ageSeconds === undefined ? calls : { botting: 0, streamers: 0, fees: 0 },
            ...(ageSeconds !== undefined ? { dataAgeSeconds: ageSeconds } : {}),
            ...(reasons.length ? { topReasons: reasons } : {}),
            ...(detailed
              ? {
                  items: rows.map((f, i) => ({
                    rank: offset + i + 1,
                    ...(cleanDeep(f.raw) as Record<string, unknown>),
                    streamer: cleanDeep(records.get(f.mintId) ?? null),
                    ...(includeCreatorFees ? { creatorFees: fees.get(f.mintId) ?? null } : {}),
                    ...(data.coverageApplies ? { covered: f.covered } : {}),
                  })),
                }
              : {
                  columns: columns.map((c) => c.key),
                  rows: cells.map((cell) => columns.map((c) => c.json?.(cell))),
                }),
            ...uncovered.json,
            ...(errors.length ? { errors: failed.json } : {}),
            ...(notes.length ? { notes } : {}),
            // An offset past the end shows nothing: where the ranking ends, for this channel's reader too.
            ...(page.length === 0 && offset > 0 && { shown: { from: null, to: null, of: sorted.length } }),
            ...(idsShortened ? { idsShortened } : {}),
          },
          next,
        });
      }),
    );
  };
  // Ids are shortened only when whole ones leave out rows that shortened ones let in.
  const whole = render(false);
  if (page.length <= WHOLE_ID_ROWS || whole.structured.truncated === undefined) return whole;
  const short = render(true);
  return rowsIn(short) > rowsIn(whole) ? short : whole;
}

const rowsIn = (r: { structured: Record<string, unknown> }) =>
  ((r.structured.rows ?? r.structured.items) as unknown[] | undefined)?.length ?? 0;

const BOTTING_SHOWN = ['mintId', 'confidenceLevel', 'confidence', 'score'];
const STREAMER_SHOWN = 'mintId isCurrentlyLive currentViewers tokenMarketCap coinName coinSymbol'.split(' ');

/** In detailed mode, one line per token: every reason and every field the table does not show. */
function detailLine(f: Finding, records: Map<string, StreamerRecord>, fees: Map<string, TokenFees>): string {
  const record = records.get(f.mintId);
  const fee = fees.get(f.mintId);
  const parts = [
    ...describeObject(f.raw, BOTTING_SHOWN, true).parts,
    ...(record ? describeObject(record, STREAMER_SHOWN, true).parts.map((p) => `streamer.${p}`) : []),
    ...(fee ? describeObject({ ...fee }, [], true).parts.map((p) => `creatorFees.${p}`) : []),
  ];
  return `  ${f.mintId}: ${parts.join('; ')}`;
}
