// Which tokens botting analysis covers: /botting/bulk takes platform_a and platform_b only, so a chain_b
// token that streams on platform_c gets no meaningful analysis (a failure, or a verdict on no data). One
// implementation, used by analyze_botting and investigate_botting: a /streamers lookup on chain_b across
// every platform, and the marks it puts on findings and failures.
import type { ApiRequest } from '../api/client.js';
import type { ItemError } from '../format/batch.js';
import type { Finding } from '../format/botting.js';
import type { StreamerRecord } from '../format/streamer.js';
import { SHAPES } from './shared.js';

/** /streamers takes at most 100 token addresses a request. */
export const LOOKUP_BATCH = 100;

/** What a token on platform_c is told, in both channels, next to its result. */
export const NOT_COVERED = 'streams on platform_c, which botting analysis does not cover';

/**
 * The streamer records of up to 100 ids, for the join and for coverage: on chain_b every platform, so that
 * a record saying platform_c explains a failed or meaningless analysis.
 */
export const streamerLookup = (ids: string[], chain: string, platform: string): ApiRequest => ({
  method: 'POST',
  path: '/streamers',
  shape: SHAPES.streamers,
  body: {
    tokenAddresses: ids,
    limit: LOOKUP_BATCH,
    page: 1,
    chain,
    platform: chain === 'chain_b' ? 'all' : platform,
  },
});

/**
 * Marks the tokens that stream on platform_c: a failure's reason becomes the coverage gap; a finding is
 * returned in the list of ids not covered (its verdict rests on no data). Only chain_b has platform_c.
 */
export function markCoverage(
  chain: string,
  findings: readonly Finding[],
  errors: ItemError[],
  records: ReadonlyMap<string, StreamerRecord>,
): string[] {
  if (chain !== 'chain_b') return [];
  const onC = (id: string) => records.get(id)?.platform === 'platform_c';
  for (const e of errors) if (onC(e.id)) e.error = NOT_COVERED;
  return findings.filter((f) => onC(f.mintId)).map((f) => f.mintId);
}

/** The line both tools print when findings rest on platform_c tokens (not counted as analysed). */
export const notCoveredLine = (ids: readonly string[]) =>
  `Not covered: ${ids.length === 1 ? '1 token streams' : `${ids.length} tokens stream`} on platform_c, which botting analysis does not cover, so ${ids.length === 1 ? 'its verdict rests' : 'their verdicts rest'} on no data and ${ids.length === 1 ? 'is' : 'are'} left out of every count above: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}.`;

/**
 * Findings split by coverage: the covered ones (ranked as given) are what every count and average is
 * over; the ones on platform_c follow them in the table, marked, never counted as flagged.
 */
export function byCoverage<F extends { mintId: string }>(
  ranked: readonly F[],
  notCovered: readonly string[],
) {
  const off = new Set(notCovered);
  const covered = ranked.filter((f) => !off.has(f.mintId));
  const uncovered = ranked.filter((f) => off.has(f.mintId));
  return { covered, uncovered, ordered: [...covered, ...uncovered], isCovered: (id: string) => !off.has(id) };
}

/** "1 analysed token" / "3 analysed tokens". */
export const analysedTokens = (n: number) => `${n} analysed ${n === 1 ? 'token' : 'tokens'}`;
