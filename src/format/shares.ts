// Viewers and creator fees over every token asked, and each level's share of them (investigate_botting).
import { decimalSum } from '../untrusted/numbers.js';
import { groupBy } from './aggregate.js';
import type { Finding, TokenFees } from './botting.js';
import { coin, label, money, num, pct } from './text.js';

/** The groups of tokens asked that shares are given for: each level, then not covered, then failed. */
type TokenGroups = { findings: readonly Finding[]; notCovered: readonly string[]; failed: readonly string[] };

/** A group's sum over its tokens with a value (`withValue`), and its share of the total. */
type Share = { withValue: number; value: number; share: number | null };

/** A figure summed over every token asked (those with a value), and each group's part of it. */
function groupShares(groups: TokenGroups, every: readonly string[], amountOf: (id: string) => number | null) {
  const values = (ids: readonly string[]) => ids.map(amountOf).filter((v): v is number => v !== null);
  const all = values(every);
  const total = Number(decimalSum(all));
  const part = (ids: readonly string[]): Share => {
    const vs = values(ids);
    const value = Number(decimalSum(vs));
    return { withValue: vs.length, value, share: total > 0 ? Number((value / total).toFixed(4)) : null };
  };
  const byLevel = groupBy(groups.findings, (f) => f.level);
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
type Shares = ReturnType<typeof groupShares>;

export const currencyOf = (f: TokenFees) => f.currency || '(no currency)';

const sharesJson = (s: Shares) => {
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
function partsText(s: Shares, show: (v: number) => string, onlyWithValue: boolean) {
  const named: Array<[string, Share | undefined]> = [
    ...Object.entries(s.byLevel),
    ['not covered', s.notCovered],
    ['failed', s.failed],
  ];
  return named
    .filter((e): e is [string, Share] => e[1] !== undefined && (!onlyWithValue || e[1].withValue > 0))
    .map(([name, p]) => `${name} ${show(p.value)}${p.share !== null ? ` (${pct(p.share)})` : ''}`)
    .join(', ');
}

/** Viewers now and creator fees (native coin; each currency apart, never added), with each group's share. */
export function shareLines(
  groups: TokenGroups,
  viewersOf: (id: string) => number | null,
  feesOf?: (id: string) => TokenFees | undefined,
) {
  const every = [...groups.findings.map((f) => f.mintId), ...groups.notCovered, ...groups.failed];
  const overall = (title: string, s: Shares, show: (v: number) => string) =>
    `${title}: ${show(s.total)} over the ${s.asked} tokens asked (${s.withValue} with a value): ${partsText(s, show, false)}`;
  const viewers = groupShares(groups, every, viewersOf);
  const lines = [overall('Viewers now', viewers, num)];
  const json: Record<string, unknown> = { viewersNow: sharesJson(viewers) };
  if (!feesOf) return { lines, json };
  const native = groupShares(groups, every, (id) => feesOf(id)?.feesInNativeCoin ?? null);
  lines.push(overall('Creator fees in native coin', native, coin));
  json.feesInNativeCoin = sharesJson(native);
  const priced = every.flatMap((id) => feesOf(id) ?? []).filter((f) => f.totalFees !== null);
  const currencies = [...new Set(priced.map(currencyOf))].sort();
  const perCurrency = currencies.map((currency) => ({
    currency,
    s: groupShares(groups, every, (id) => {
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
