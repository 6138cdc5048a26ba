// Which tokens botting analysis covers: /botting/bulk takes platform_a and platform_b only, so a chain_b
// token that streams on platform_c gets no meaningful analysis (whatever the upstream answers for it: an
// error such as "Token not found", or a verdict on no data). One implementation, used by analyze_botting and
// investigate_botting: a /streamers lookup on chain_b across every platform, and the split it makes.
import type { ApiRequest } from '../api/client.js';
import { failures, type ItemError } from '../format/batch.js';
import type { Finding } from '../format/botting.js';
import type { StreamerRecord } from '../format/streamer.js';
import { type Chain, otherChainHint, SCOPES, SHAPES } from './shared.js';

/** /streamers takes at most 100 token addresses a request. */
export const LOOKUP_BATCH = 100;

/** The platform botting analysis does not take (the document: /botting/bulk platform_a, platform_b). */
export const UNCOVERED_PLATFORM = 'platform_c';

/**
 * The server's own words for a token on platform_c (never presented as the upstream's: always unquoted,
 * beside the upstream's own answer, which is kept).
 */
export const NOT_COVERED = 'not covered: streams on platform_c, which botting analysis does not take';

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

/** What the botting answer split by coverage holds: every count is over `findings` and `errors` only. */
export interface Coverage {
  /** Verdicts on covered tokens, in the order given. */
  findings: Finding[];
  /** Failures of covered tokens: the upstream's messages, as sent. */
  errors: ItemError[];
  /** Verdicts on platform_c tokens: shown apart, never counted. */
  uncoveredFindings: Finding[];
  /** Failures of platform_c tokens, with the upstream's own message: not failures of the analysis. */
  uncoveredErrors: ItemError[];
  /** Every platform_c token asked, verdict or not, in that order. */
  notCovered: string[];
}

/** Splits findings and failures by coverage (only chain_b has platform_c); nothing is renamed. */
export function splitCoverage(
  chain: string,
  findings: readonly Finding[],
  errors: readonly ItemError[],
  records: ReadonlyMap<string, StreamerRecord>,
): Coverage {
  const onC = (id: string) => chain === 'chain_b' && records.get(id)?.platform === UNCOVERED_PLATFORM;
  const uncoveredFindings = findings.filter((f) => onC(f.mintId));
  const uncoveredErrors = errors.filter((e) => onC(e.id));
  return {
    findings: findings.filter((f) => !onC(f.mintId)),
    errors: errors.filter((e) => !onC(e.id)),
    uncoveredFindings,
    uncoveredErrors,
    notCovered: [...uncoveredFindings.map((f) => f.mintId), ...uncoveredErrors.map((e) => e.id)],
  };
}

/** A table cell's prefix for a platform_c token (the section above the table gives the reason). */
export const NOT_COVERED_CELL = `not covered (${UNCOVERED_PLATFORM})`;

/** "3 not covered (platform_c)": the words every headline uses. */
export const notCoveredCount = (n: number) => `${n} not covered (${UNCOVERED_PLATFORM})`;

/**
 * The not-covered tokens in both channels, apart from the failures: the server's reason once, then the
 * upstream's own answer for them (its error messages quoted and grouped, or that it gave a verdict).
 */
export function notCoveredReport(c: Coverage, verdictsWhere: string) {
  const upstream = failures(c.uncoveredErrors);
  const verdicts = c.uncoveredFindings.map((f) => f.mintId);
  const one = c.notCovered.length === 1;
  const lines = c.notCovered.length
    ? [
        `Not covered (${c.notCovered.length}): ${one ? 'streams' : 'stream'} on ${UNCOVERED_PLATFORM}, which botting analysis does not take, so ${one ? 'it is' : 'they are'} in no level count or average. The upstream answered:`,
        // Each reason's first line is labelled; its wrapped ids and any note below it keep their indent.
        ...upstream.lines.slice(1).map((l) => l.replace(/^ {2}(?=")/, '  error ')),
        ...(verdicts.length
          ? [
              `  a verdict on no data (${verdicts.length}, ${verdictsWhere}): ${verdicts.slice(0, 10).join(', ')}${verdicts.length > 10 ? ` and ${verdicts.length - 10} more` : ''}`,
            ]
          : []),
      ]
    : [];
  return {
    lines,
    json: c.notCovered.length
      ? {
          notCovered: c.notCovered,
          ...(upstream.json.length ? { notCoveredUpstreamErrors: upstream.json } : {}),
        }
      : {},
  };
}

/** "1 analysed token" / "3 analysed tokens". */
export const analysedTokens = (n: number) => `${n} analysed ${n === 1 ? 'token' : 'tokens'}`;

/** A platform_c failure as the view lists it: the server's reason, then the upstream's message quoted. */
export const uncoveredError = (e: ItemError): ItemError => ({
  id: e.id,
  error: `${NOT_COVERED}; the upstream said ${JSON.stringify(e.error)}`,
});

/** A botting tool's next step for ids unknown where they were asked (both channels, the board too). */
export const unknownIdsHint =
  (tool: string, args: { chain: string; platform: string; mintIds: readonly string[] }) => (n: number) =>
    otherChainHint(tool, args.chain as Chain, args.platform, SCOPES.botting, n, args.mintIds.length);
