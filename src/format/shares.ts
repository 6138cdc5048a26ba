// Viewers and creator fees over every token asked, and each level's share of them (investigate_botting):
// what an analyst asks ("what share of viewers do the flagged tokens account for") without adding rows.

import { decimalSum } from '../untrusted/numbers.js';
import { groupBy } from './aggregate.js';
import type { Finding, TokenFees } from './botting.js';
import { coin, label, money, num, pct } from './text.js';

/** The groups of tokens asked that shares are given for: each level, then not covered, then failed. */
export interface TokenGroups {
  findings: readonly Finding[];
  notCovered: readonly string[];
  failed: readonly string[];
}

interface Share {
  tokens: number;
  /** How many of them have a value. */
  withValue: number;
  /** Exact (viewers) or an exact decimal string turned number (fees). */
  value: number;
  share: number | null;
}

/** A figure summed over every token asked (those with a value), and each group's part of it. */
export function groupShares(groups: TokenGroups, amountOf: (id: string) => number | null) {
  const byLevel = groupBy(groups.findings, (f) => f.level);
  const values = (ids: readonly string[]) => ids.map(amountOf).filter((v): v is number => v !== null);
  const every = [...groups.findings.map((f) => f.mintId), ...groups.notCovered, ...groups.failed];
  const all = values(every);
  const total = Number(decimalSum(all));
  const part = (ids: readonly string[]): Share => {
    const vs = values(ids);
    const v = Number(decimalSum(vs));
    return {
      tokens: ids.length,
      withValue: vs.length,
      value: v,
      share: total > 0 ? Number((v / total).toFixed(4)) : null,
    };
  };
  return {
    total,
    withValue: all.length,
    asked: every.length,
    byLevel: Object.fromEntries(
      [...byLevel].map(([level, fs]) => [level, part(fs.map((f) => f.mintId))]),
    ) as Record<string, Share>,
    ...(groups.notCovered.length ? { notCovered: part(groups.notCovered) } : {}),
    ...(groups.failed.length ? { failed: part(groups.failed) } : {}),
  };
}

/** A fee record's currency, or what stands for none. */
export const currencyOf = (f: TokenFees) => f.currency || '(no currency)';

const sharesJson = (s: ReturnType<typeof groupShares>) => {
  const share = (p: Share) => ({ value: p.value, share: p.share });
  return {
    total: s.total,
    tokensWithValue: s.withValue,
    byLevel: Object.fromEntries(Object.entries(s.byLevel).map(([l, p]) => [l, share(p)])),
    ...(s.notCovered ? { notCovered: share(s.notCovered) } : {}),
    ...(s.failed ? { failed: share(s.failed) } : {}),
  };
};

/** Each level's part (and the not-covered and failed tokens'), as text; `onlyWithValue` drops empty ones. */
function partsText(s: ReturnType<typeof groupShares>, show: (v: number) => string, onlyWithValue: boolean) {
  const part = (name: string, p: Share) =>
    `${name} ${show(p.value)}${p.share !== null ? ` (${pct(p.share)})` : ''}`;
  const named: Array<[string, Share | undefined]> = [
    ...Object.entries(s.byLevel),
    ['not covered', s.notCovered],
    ['failed', s.failed],
  ];
  return named
    .filter((e): e is [string, Share] => e[1] !== undefined && (!onlyWithValue || e[1].withValue > 0))
    .map(([name, p]) => part(name, p))
    .join(', ');
}

/**
 * Viewers now (and, when joined, creator fees in native coin and in each fiat currency apart) over every
 * token asked, with each level's share, the not-covered and the failed tokens' too: one line each (the
 * currencies share one), the same figures in the JSON. Amounts in different currencies are never added.
 */
export function shareLines(
  groups: TokenGroups,
  viewersOf: (id: string) => number | null,
  feesOf?: (id: string) => TokenFees | undefined,
) {
  const lines: string[] = [];
  const json: Record<string, unknown> = {};
  const viewers = groupShares(groups, viewersOf);
  lines.push(
    `Viewers now: ${num(viewers.total)} over the ${viewers.asked} tokens asked (${viewers.withValue} with a value): ${partsText(viewers, num, false)}`,
  );
  json.viewersNow = sharesJson(viewers);
  if (!feesOf) return { lines, json };
  const native = groupShares(groups, (id) => feesOf(id)?.feesInNativeCoin ?? null);
  lines.push(
    `Creator fees in native coin: ${coin(native.total)} over the ${native.asked} tokens asked (${native.withValue} with a value): ${partsText(native, coin, false)}`,
  );
  json.feesInNativeCoin = sharesJson(native);
  const every = [...groups.findings.map((f) => f.mintId), ...groups.notCovered, ...groups.failed];
  const currencies = [
    ...new Set(
      every.flatMap((id) => {
        const f = feesOf(id);
        return f && f.totalFees !== null ? [currencyOf(f)] : [];
      }),
    ),
  ].sort();
  const perCurrency = currencies.map((currency) => ({
    currency,
    s: groupShares(groups, (id) => {
      const f = feesOf(id);
      return f && currencyOf(f) === currency ? f.totalFees : null;
    }),
  }));
  if (perCurrency.length) {
    lines.push(
      `Creator fees per currency (each apart): ${perCurrency
        .map(
          ({ currency, s }) =>
            `${label(currency, 16)} ${money(s.total)} over ${s.withValue} ${s.withValue === 1 ? 'token' : 'tokens'}: ${partsText(s, money, true)}`,
        )
        .join('; ')}`,
    );
    json.totalFeesByCurrency = perCurrency.map(({ currency, s }) => ({ currency, ...sharesJson(s) }));
  }
  return { lines, json };
}
