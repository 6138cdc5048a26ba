// Botting analysis results (document: "Botting analysis result"), shared by analyze_botting and investigate_botting.
import { asArray, asRecord } from './batch.js';
import { decimalSum } from './decimal.js';
import { clean, coin, dict, num, pct, quote } from './text.js';

export interface Finding {
  mintId: string;
  level: string;
  confidence: number | null;
  score: number | null;
  reasons: string[];
  raw: Record<string, unknown>;
  /** A token with no verdict kept in a ranking's data (not covered): the upstream's message, as sent. */
  error?: string;
}

/** The level the document shows; the full set is not documented, so only this one counts as "flagged". */
export const FLAGGED_LEVEL = 'HIGH';

const numOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function parseFindings(results: unknown): Finding[] {
  return asArray(results)
    .map(asRecord)
    .map((r) => ({
      mintId: clean(r.mintId, 64),
      level: clean(r.confidenceLevel ?? 'unknown', 16) || 'unknown',
      confidence: numOrNull(r.confidence),
      score: numOrNull(r.score),
      reasons: asArray(r.reasons).map((x) => clean(x, 160)),
      raw: r,
    }));
}

/**
 * Most suspicious first: by confidence level, then score, then confidence. The set of levels is not
 * documented, so levels are ordered by the mean confidence of their tokens in this very answer.
 */
export function rankFindings(findings: readonly Finding[]): Finding[] {
  const sums = new Map<string, { total: number; n: number }>();
  for (const f of findings) {
    const s = sums.get(f.level) ?? { total: 0, n: 0 };
    s.total += f.confidence ?? 0;
    s.n++;
    sums.set(f.level, s);
  }
  const levelRank = (level: string) => {
    const s = sums.get(level);
    return s ? s.total / s.n : 0;
  };
  return [...findings].sort(
    (a, b) =>
      levelRank(b.level) - levelRank(a.level) ||
      (b.score ?? -1) - (a.score ?? -1) ||
      (b.confidence ?? -1) - (a.confidence ?? -1),
  );
}

export interface LevelStats {
  byLevel: Record<string, number>;
  /**
   * The mean confidence of the findings counted, computed here (never the upstream's summary, whose set of
   * tokens is not documented and may include verdicts the counts leave out), rounded to 3 decimals.
   */
  averageConfidence: number | null;
  /** How many findings the mean is over (those with a numeric confidence). */
  averageOver: number;
  /** Rounding changed the mean: the text marks it '≈'. */
  averageRounded?: boolean;
}

/** Decimals of a computed mean confidence: one rule for every tool and channel. */
export const CONFIDENCE_DECIMALS = 3;

/** Counts per level (most suspicious first) and the mean confidence, both over `ranked` only. */
export function levelStats(ranked: readonly Finding[]): LevelStats {
  const byLevel = dict<number>();
  for (const f of ranked) byLevel[f.level] = (byLevel[f.level] ?? 0) + 1;
  const confidences = ranked.map((f) => f.confidence).filter((c): c is number => c !== null);
  if (!confidences.length) return { byLevel, averageConfidence: null, averageOver: 0 };
  const computed = confidences.reduce((a, b) => a + b, 0) / confidences.length;
  const rounded = Number(computed.toFixed(CONFIDENCE_DECIMALS));
  return {
    byLevel,
    averageConfidence: rounded,
    averageOver: confidences.length,
    ...(rounded !== computed ? { averageRounded: true } : {}),
  };
}

/** Where the mean confidence comes from, in both channels' words. */
export const averageSource = (stats: LevelStats) =>
  `computed over the ${stats.averageOver} analysed ${stats.averageOver === 1 ? 'token' : 'tokens'}, ${CONFIDENCE_DECIMALS} decimals`;

/** The structured counterpart of levelsLine's figures. */
export const levelCounts = (stats: LevelStats) => ({
  byLevel: stats.byLevel,
  ...(stats.averageConfidence !== null
    ? { averageConfidence: stats.averageConfidence, averageConfidenceOf: averageSource(stats) }
    : {}),
});

export function levelsLine(stats: LevelStats): string {
  const levels = Object.entries(stats.byLevel).map(([level, n]) => `${level} ${n}`);
  const average =
    stats.averageConfidence !== null
      ? ` (average confidence ${stats.averageRounded ? '≈' : ''}${num(stats.averageConfidence)}, ${averageSource(stats)})`
      : '';
  return `Confidence levels: ${levels.join(', ')}${average}`;
}

/**
 * The first reasons of a finding, quoted, and how many more there are (`shown` Infinity: all of them, each
 * up to 160 characters).
 */
export function reasonsText(reasons: readonly string[], shown = 2, max = 60): string {
  if (reasons.length === 0) return '(none)';
  const first = reasons.slice(0, shown).map((r) => quote(r, max));
  if (shown >= reasons.length) return reasons.map((r) => quote(r, Math.max(max, 160))).join('; ');
  const more = reasons.length - shown;
  return more > 0 ? `${first.join('; ')}; +${more} more` : first.join('; ');
}

/** Up to this many findings, reasons are shown whole when they fit the budget; more rows show the first ones. */
export const FEW_FINDINGS = 10;

/**
 * Renders findings with every reason when there are few and they fit; else with the first reasons only,
 * the rows cut to the budget (`render(full)` is a fitRows call). Reasons are cut only under pressure.
 */
export function withReasons<R extends { structured: Record<string, unknown> }>(
  count: number,
  render: (full: boolean) => R,
): R {
  if (count <= FEW_FINDINGS) {
    const full = render(true);
    if (full.structured.truncated === undefined) return full;
  }
  return render(false);
}

/** The reasons given most often across findings. */
export function topReasons(findings: readonly Finding[], n = 5): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>();
  for (const f of findings) for (const r of new Set(f.reasons)) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([reason, count]) => ({ reason, count }));
}

/** A token kept in a ranking without a verdict (its upstream failure), so that its record and fees join. */
export const unanalysed = (e: { id: string; error: string }): Finding => ({
  mintId: e.id,
  level: '',
  confidence: null,
  score: null,
  reasons: [],
  raw: { mintId: e.id, error: e.error },
  error: e.error,
});

/** The groups of tokens asked that shares are given for: each level, then not covered, then failed. */
export interface TokenGroups {
  findings: readonly Finding[];
  notCovered: readonly string[];
  failed: readonly string[];
}

interface Share {
  tokens: number;
  /** Exact (viewers) or an exact decimal string turned number (fees). */
  value: number;
  share: number | null;
}

/**
 * A figure summed over every token asked (those with a value), and each group's part of it: what an
 * analyst asks ("what share of viewers do the HIGH tokens account for") without adding rows.
 */
export function groupShares(groups: TokenGroups, amountOf: (id: string) => number | null) {
  const named: Array<[string, string[]]> = [];
  const byLevel = new Map<string, string[]>();
  for (const f of groups.findings) {
    const list = byLevel.get(f.level);
    if (list) list.push(f.mintId);
    else byLevel.set(f.level, [f.mintId]);
  }
  for (const [level, ids] of byLevel) named.push([level, ids]);
  const values = (ids: readonly string[]) => ids.map(amountOf).filter((v): v is number => v !== null);
  const every = [...groups.findings.map((f) => f.mintId), ...groups.notCovered, ...groups.failed];
  const all = values(every);
  const total = Number(decimalSum(all));
  const part = (ids: readonly string[]): Share => {
    const v = Number(decimalSum(values(ids)));
    return { tokens: ids.length, value: v, share: total > 0 ? Number((v / total).toFixed(4)) : null };
  };
  return {
    total,
    withValue: all.length,
    asked: every.length,
    byLevel: Object.fromEntries(named.map(([level, ids]) => [level, part(ids)])) as Record<string, Share>,
    ...(groups.notCovered.length ? { notCovered: part(groups.notCovered) } : {}),
    ...(groups.failed.length ? { failed: part(groups.failed) } : {}),
  };
}

/**
 * Viewers now (and native-coin fees when joined) over every token asked, with each level's share, the
 * not-covered and the failed tokens' too: one line each, the same figures in the JSON.
 */
export function shareLines(
  groups: TokenGroups,
  viewersOf: (id: string) => number | null,
  feesOf?: (id: string) => number | null,
) {
  const lines: string[] = [];
  const json: Record<string, unknown> = {};
  const figures: Array<[string, string, (id: string) => number | null, (v: number) => string]> = [
    ['viewersNow', 'Viewers now', viewersOf, num],
    ...(feesOf
      ? [
          ['feesInNativeCoin', 'Creator fees in native coin', feesOf, coin] as [
            string,
            string,
            (id: string) => number | null,
            (v: number) => string,
          ],
        ]
      : []),
  ];
  for (const [key, what, amountOf, show] of figures) {
    const s = groupShares(groups, amountOf);
    const part = (name: string, p: Share) =>
      `${name} ${show(p.value)}${p.share !== null ? ` (${pct(p.share)})` : ''}`;
    const parts = [
      ...Object.entries(s.byLevel).map(([level, p]) => part(level, p)),
      ...(s.notCovered ? [part('not covered', s.notCovered)] : []),
      ...(s.failed ? [part('failed', s.failed)] : []),
    ];
    lines.push(
      `${what}: ${show(s.total)} over the ${s.asked} tokens asked (${s.withValue} with a value): ${parts.join(', ')}`,
    );
    const share = (p: Share) => ({ value: p.value, share: p.share });
    json[key] = {
      total: s.total,
      tokensWithValue: s.withValue,
      byLevel: Object.fromEntries(Object.entries(s.byLevel).map(([l, p]) => [l, share(p)])),
      ...(s.notCovered ? { notCovered: share(s.notCovered) } : {}),
      ...(s.failed ? { failed: share(s.failed) } : {}),
    };
  }
  return { lines, json };
}
