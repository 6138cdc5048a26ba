// Which tokens botting analysis covers, decided once: /botting/bulk takes platform_a and platform_b, so on
// chain_b a token that streams on platform_c was not asked for on its own platform.
import type { ApiRequest } from '../api/client.js';
import { idLimit, requestFor } from '../api/endpoints.js';
import { failures, type ItemError } from '../format/batch.js';
import type { Finding } from '../format/botting.js';
import type { StreamerRecord } from '../format/streamer.js';
import { PLATFORM_CHAIN, SCOPES } from './shared.js';

export const LOOKUP_BATCH = idLimit('streamers');
/** The one platform /botting/bulk does not take: chain_b's platform_c. */
export const UNCOVERED_PLATFORM =
  (Object.keys(PLATFORM_CHAIN) as Array<keyof typeof PLATFORM_CHAIN>).find(
    (p) => !(SCOPES.botting.platforms as readonly string[]).includes(p),
  ) ?? 'platform_c';

/** Whether some tokens of `chain` may stream where botting analysis is not asked (a lookup says which). */
export const coverageApplies = (chain: string) => PLATFORM_CHAIN[UNCOVERED_PLATFORM] === chain;

const ASKED_ON_B = SCOPES.botting.platforms.filter((p) => PLATFORM_CHAIN[p] === 'chain_b').join(', ');
export const NOT_COVERED = `not covered: streams on ${UNCOVERED_PLATFORM}; the platform asked was ${ASKED_ON_B}`;
export const NOT_COVERED_CELL = `not covered (${UNCOVERED_PLATFORM})`;
export const notCoveredCount = (n: number) => `${n} ${NOT_COVERED_CELL}`;

/** Streamer records for the join and for coverage: on chain_b every platform, so platform_c shows. */
export function streamerLookup(tokenAddresses: string[], chain: string, asked: string): ApiRequest {
  const platform = coverageApplies(chain) ? 'all' : asked;
  return requestFor('streamers', { tokenAddresses, limit: LOOKUP_BATCH, page: 1, chain, platform });
}

/** The botting answer split by coverage: every count is over `findings` and `errors` only. */
export interface Coverage {
  findings: Finding[];
  errors: ItemError[];
  /** platform_c tokens: shown apart, never counted, never failures of the analysis. */
  uncoveredFindings: Finding[];
  uncoveredErrors: ItemError[];
  /** Every platform_c token asked, verdict or not, in that order. */
  notCovered: string[];
}

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

/** The not-covered tokens in both channels, apart from the failures, then the upstream's answer for them. */
export function notCoveredReport(c: Coverage, verdictsWhere: string) {
  const upstream = failures(c.uncoveredErrors);
  const verdicts = c.uncoveredFindings.map((f) => f.mintId);
  const one = c.notCovered.length === 1;
  const lines = c.notCovered.length
    ? [
        `Not covered (${c.notCovered.length}): ${one ? 'streams' : 'stream'} on ${UNCOVERED_PLATFORM} (${one ? 'its streamer record' : 'their streamer records'}); the platform asked was ${ASKED_ON_B}, so ${one ? 'it is' : 'they are'} in no level count or average. The upstream answered:`,
        ...upstream.lines.slice(1).map((l) => l.replace(/^ {2}(?=")/, '  error ')),
        verdicts.length > 0 &&
          `  a verdict (${verdicts.length}, ${verdictsWhere}): ${verdicts.slice(0, 10).join(', ')}${verdicts.length > 10 ? ` and ${verdicts.length - 10} more` : ''}`,
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

export const analysedTokens = (n: number) => `${n} analysed ${n === 1 ? 'token' : 'tokens'}`;
