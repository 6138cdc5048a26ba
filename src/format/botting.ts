// Botting analysis results (document: "Botting analysis result"), shared by analyze_botting and investigate_botting.
import { ENDPOINTS } from '../api/endpoints.js';
import type { LevelEntry } from '../report/view-types.js';
import { exact } from '../untrusted/numbers.js';
import { clean, dict, quote } from '../untrusted/text.js';
import { groupBy } from './aggregate.js';
import {
  accountFor,
  asArray,
  asRecord,
  groupFailures,
  type ItemError,
  NO_MATCH,
  NO_RESULT,
  NOT_FOUND,
} from './batch.js';
import { num } from './text.js';

export interface Finding {
  mintId: string;
  level: string;
  confidence: number | null;
  score: number | null;
  reasons: string[];
  raw: Record<string, unknown>;
  /** Botting analysis was asked on the token's own platform (src/tools/coverage.ts decides). */
  covered: boolean;
  /** A token kept in a ranking without a verdict: the upstream's message. */
  error?: string;
}

/** The one level the document shows; the set of levels and their order are not documented. */
const HIGH_LEVEL = 'HIGH';

/** A /botting/bulk answer's `data` read against the ids asked. */
export const accountFindings = (data: Record<string, unknown>, ids: readonly string[]) =>
  accountFor(parseFindings(data.results), (f) => f.mintId, data.errors, ids, asRecord(data.summary));

export function parseFindings(results: unknown): Finding[] {
  return asArray(results)
    .map(asRecord)
    .map((r) => ({
      mintId: clean(r.mintId, 64),
      level: clean(r.confidenceLevel ?? 'unknown', 16) || 'unknown',
      confidence: exact(r.confidence),
      score: exact(r.score),
      reasons: asArray(r.reasons).map((x) => clean(x, 160)),
      raw: r,
      covered: true,
    }));
}

/** Most suspicious first: by level (levels ordered by their mean confidence: not documented), score, confidence. */
export function rankFindings(findings: readonly Finding[]): Finding[] {
  const means = levelMeans(findings);
  const levelRank = (level: string) => means.get(level) ?? 0;
  return [...findings].sort(
    (a, b) =>
      levelRank(b.level) - levelRank(a.level) ||
      (b.score ?? -1) - (a.score ?? -1) ||
      (b.confidence ?? -1) - (a.confidence ?? -1),
  );
}

/** Each level's mean confidence (a missing one counts 0): what orders the levels. */
function levelMeans(findings: readonly Finding[]): Map<string, number> {
  const byLevel = [...groupBy(findings, (f) => f.level)];
  return new Map(
    byLevel.map(([level, fs]) => [level, fs.reduce((n, f) => n + (f.confidence ?? 0), 0) / fs.length]),
  );
}

/** The flagged levels, most suspicious first, and how they were chosen when it is more than "HIGH". */
type Flagging = { levels: string[]; rule?: string };

/** HIGH and every level whose mean confidence is at least HIGH's (an upstream's CRITICAL): not names. */
export function flagging(findings: readonly Finding[]): Flagging {
  const means = [...levelMeans(findings)].filter(([level]) => level !== '');
  means.sort((a, b) => b[1] - a[1]);
  const high = means.find(([level]) => level.toUpperCase() === HIGH_LEVEL);
  if (high) {
    const levels = means.filter(([, m]) => m >= high[1]).map(([level]) => level);
    const above = levels.filter((l) => l !== high[0]);
    return {
      levels,
      ...(above.length > 0 && {
        rule: `${high[0]} and ${above.join(', ')} (mean confidence at least ${high[0]}'s)`,
      }),
    };
  }
  const top = means[0];
  if (!top) return { levels: [] };
  const n = findings.filter((f) => f.level === top[0]).length;
  return {
    levels: [],
    rule: `none (no ${HIGH_LEVEL} verdict to compare the levels with); the most suspicious level here is ${top[0]} (${n} ${n === 1 ? 'token' : 'tokens'}, mean confidence ${num(roundConfidence(top[1]))})`,
  };
}

export const levelEntries = (stats: LevelStats, flagged: Flagging): LevelEntry[] =>
  Object.entries(stats.byLevel).map(([level, count]) => ({
    level,
    count,
    flagged: flagged.levels.includes(level),
  }));

export const flaggedName = (f: Flagging) => (f.levels.length ? f.levels.join(' or ') : HIGH_LEVEL);

export const flaggedRuleLine = (f: Flagging) => (f.rule ? `Flagged: ${f.rule}` : undefined);

export const flaggedCounts = (f: Flagging, findings: readonly Finding[]) => ({
  flagged: findings.filter((x) => f.levels.includes(x.level)).length,
  flaggedLevels: f.levels,
  ...(f.rule ? { flaggedRule: f.rule } : {}),
});

interface LevelStats {
  byLevel: Record<string, number>;
  /** Computed here, never the upstream's summary (its set of tokens is not documented). */
  averageConfidence: number | null;
  averageOver: number;
  /** Rounding changed the mean: the text marks it '≈'. */
  averageRounded?: boolean;
}

/** Significant digits of a computed mean confidence: natural on any scale (0.433 of 1, 32.2 of 100). */
const CONFIDENCE_DIGITS = 3;

const roundConfidence = (v: number) => Number(v.toPrecision(CONFIDENCE_DIGITS));

/** Counts per level (most suspicious first) and the mean confidence, both over `ranked` only. */
export function levelStats(ranked: readonly Finding[]): LevelStats {
  const byLevel = dict<number>();
  for (const f of ranked) byLevel[f.level] = (byLevel[f.level] ?? 0) + 1;
  const confidences = ranked.map((f) => f.confidence).filter((c): c is number => c !== null);
  if (!confidences.length) return { byLevel, averageConfidence: null, averageOver: 0 };
  const computed = confidences.reduce((a, b) => a + b, 0) / confidences.length;
  const rounded = roundConfidence(computed);
  return {
    byLevel,
    averageConfidence: rounded,
    averageOver: confidences.length,
    ...(rounded !== computed ? { averageRounded: true } : {}),
  };
}

const averageSource = (stats: LevelStats) =>
  `computed over the ${stats.averageOver} analysed ${stats.averageOver === 1 ? 'token' : 'tokens'}, ${CONFIDENCE_DIGITS} significant digits`;

export const levelCounts = (stats: LevelStats) => ({
  byLevel: stats.byLevel,
  ...(stats.averageConfidence !== null && {
    averageConfidence: stats.averageConfidence,
    averageConfidenceOf: averageSource(stats),
  }),
});

export function levelsLine(stats: LevelStats): string {
  const levels = Object.entries(stats.byLevel).map(([level, n]) => `${level} ${n}`);
  const average =
    stats.averageConfidence !== null
      ? ` (average confidence ${stats.averageRounded ? '≈' : ''}${num(stats.averageConfidence)}, ${averageSource(stats)})`
      : '';
  return `Confidence levels: ${levels.join(', ')}${average}`;
}

/** The first reasons of a finding, quoted, and how many more (`shown` Infinity: all, up to 160 each). */
export function reasonsText(reasons: readonly string[], shown = 2, max = 60): string {
  if (reasons.length === 0) return '(none)';
  if (shown >= reasons.length) return reasons.map((r) => quote(r, Math.max(max, 160))).join('; ');
  const first = reasons.slice(0, shown).map((r) => quote(r, max));
  return `${first.join('; ')}; +${reasons.length - shown} more`;
}

/** Up to 10 findings with every reason when they fit; else the first reasons only (`render` fits rows). */
export function withReasons<R extends { structured: Record<string, unknown> }>(
  count: number,
  render: (full: boolean) => R,
): R {
  if (count <= 10) {
    const full = render(true);
    if (full.structured.truncated === undefined) return full;
  }
  return render(false);
}

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
  covered: false,
  error: e.error,
});

export type TokenFees = { totalFees: number | null; currency: string; feesInNativeCoin: number | null };

const MAX_HOURS = ENDPOINTS.botting.bounds.hours.max;

/** Two or more tokens failed with one upstream message of their own: likely "no data in the window". */
export function widerWindowHint(
  errors: readonly ItemError[],
  hours: number,
  requestReasons: ReadonlySet<string> = new Set(),
): string | undefined {
  if (hours >= MAX_HOURS) return undefined;
  const own = (m: string) =>
    !NOT_FOUND.test(m) && m !== NO_RESULT && m !== NO_MATCH && !requestReasons.has(m);
  const [top] = groupFailures(errors.filter((e) => own(e.error)));
  if (!top || top.ids.length < 2) return undefined;
  return `${top.ids.length} tokens failed with one message (${quote(top.error, 80)}): if it means no data in the last ${hours} h, retry with a larger hours (up to ${MAX_HOURS}).`;
}
