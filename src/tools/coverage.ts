// Which tokens botting analysis covers, decided once from the endpoint's documented platforms: /botting/bulk
// takes platform_a and platform_b, so on chain_b a token that streams on platform_c was not asked for on its
// own platform.
import type { ApiRequest } from '../api/client.js';
import { idLimit, requestFor } from '../api/endpoints.js';
import { failures, type ItemError } from '../format/batch.js';
import type { Finding } from '../format/botting.js';
import type { StreamerRecord } from '../format/streamer.js';
import { otherChainHint, PLATFORM_CHAIN, SCOPES } from './shared.js';

/** /streamers takes at most 100 token addresses a request. */
export const LOOKUP_BATCH = idLimit('streamers');

/** The one platform /botting/bulk does not take (its documented list: platform_a, platform_b): chain_b's platform_c. */
export const UNCOVERED_PLATFORM =
  (Object.keys(PLATFORM_CHAIN) as Array<keyof typeof PLATFORM_CHAIN>).find(
    (p) => !(SCOPES.botting.platforms as readonly string[]).includes(p),
  ) ?? 'platform_c';

/** Whether some tokens of `chain` may stream where botting analysis is not asked (then a lookup says which). */
export const coverageApplies = (chain: string) => PLATFORM_CHAIN[UNCOVERED_PLATFORM] === chain;

/** The platform botting analysis is asked with on chain_b (the document's botting platforms, chain_b's). */
const ASKED_ON_B = SCOPES.botting.platforms.filter((p) => PLATFORM_CHAIN[p] === 'chain_b').join(', ');

/** The server's own words for a platform_c token (always unquoted, beside the upstream's own answer, kept). */
export const NOT_COVERED = `not covered: streams on ${UNCOVERED_PLATFORM}; the platform asked was ${ASKED_ON_B}`;

/** A table cell's prefix for a platform_c token (the section above the table gives the reason). */
export const NOT_COVERED_CELL = `not covered (${UNCOVERED_PLATFORM})`;

/** "3 not covered (platform_c)": the words every headline uses. */
export const notCoveredCount = (n: number) => `${n} ${NOT_COVERED_CELL}`;

/**
 * The streamer records of up to 100 ids, for the join and for coverage: on chain_b every platform, so that
 * a record saying platform_c explains a failed or meaningless analysis.
 */
export const streamerLookup = (ids: string[], chain: string, platform: string): ApiRequest =>
  requestFor('streamers', {
    tokenAddresses: ids,
    limit: LOOKUP_BATCH,
    page: 1,
    chain,
    platform: coverageApplies(chain) ? 'all' : platform,
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

/** Splits findings and failures by coverage, marking each finding `covered`; nothing is renamed. */
export function splitCoverage(
  chain: string,
  findings: readonly Finding[],
  errors: readonly ItemError[],
  records: ReadonlyMap<string, StreamerRecord>,
): Coverage {
  const applies = coverageApplies(chain);
  const onC = (id: string) => applies && records.get(id)?.platform === UNCOVERED_PLATFORM;
  const uncoveredFindings = findings.filter((f) => onC(f.mintId)).map((f) => ({ ...f, covered: false }));
  const uncoveredErrors = errors.filter((e) => onC(e.id));
  return {
    findings: findings.filter((f) => !onC(f.mintId)),
    errors: errors.filter((e) => !onC(e.id)),
    uncoveredFindings,
    uncoveredErrors,
    notCovered: [...uncoveredFindings.map((f) => f.mintId), ...uncoveredErrors.map((e) => e.id)],
  };
}

/**
 * The not-covered tokens in both channels, apart from the failures: what the server knows once (the
 * platform asked, the one their records name), then the upstream's own answer for them (its error messages
 * quoted and grouped, or its verdicts, each shown as it gave it).
 */
export function notCoveredReport(c: Coverage, verdictsWhere: string) {
  const upstream = failures(c.uncoveredErrors);
  const verdicts = c.uncoveredFindings.map((f) => f.mintId);
  const one = c.notCovered.length === 1;
  const lines = c.notCovered.length
    ? [
        `Not covered (${c.notCovered.length}): ${one ? 'streams' : 'stream'} on ${UNCOVERED_PLATFORM} (${one ? 'its streamer record' : 'their streamer records'}); the platform asked was ${ASKED_ON_B}, so ${one ? 'it is' : 'they are'} in no level count or average. The upstream answered:`,
        // Each reason's first line is labelled; its wrapped ids and any note below it keep their indent.
        ...upstream.lines.slice(1).map((l) => l.replace(/^ {2}(?=")/, '  error ')),
        ...(verdicts.length
          ? [
              `  a verdict (${verdicts.length}, ${verdictsWhere}): ${verdicts.slice(0, 10).join(', ')}${verdicts.length > 10 ? ` and ${verdicts.length - 10} more` : ''}`,
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

/** A botting tool's next step for ids unknown where they were asked (both channels, the board too). */
export const unknownIdsHint = (
  tool: string,
  args: { chain: string; platform: string; mintIds: readonly string[] },
) => otherChainHint(tool, SCOPES.botting, args, args.mintIds.length);
