// Botting analysis results (document: "Botting analysis result"), shared by analyze_botting and investigate_botting.
import { asArray, asRecord } from './batch.js';
import { clean, dict, num, quote } from './text.js';

export interface Finding {
  mintId: string;
  level: string;
  confidence: number | null;
  score: number | null;
  reasons: string[];
  raw: Record<string, unknown>;
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
  averageConfidence: number | null;
  /** The average was computed here and rounded (to 3 decimals): the text marks it '≈'. */
  averageRounded?: boolean;
}

/** Counts per level (most suspicious first) and the average confidence (the upstream's when it gives one). */
export function levelStats(ranked: readonly Finding[], upstreamAverage?: unknown): LevelStats {
  const byLevel = dict<number>();
  for (const f of ranked) byLevel[f.level] = (byLevel[f.level] ?? 0) + 1;
  const confidences = ranked.map((f) => f.confidence).filter((c): c is number => c !== null);
  const computed = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : null;
  const given = numOrNull(upstreamAverage);
  if (given !== null) return { byLevel, averageConfidence: given };
  if (computed === null) return { byLevel, averageConfidence: null };
  const rounded = Number(computed.toFixed(3));
  return { byLevel, averageConfidence: rounded, ...(rounded !== computed ? { averageRounded: true } : {}) };
}

export function levelsLine(stats: LevelStats): string {
  const levels = Object.entries(stats.byLevel).map(([level, n]) => `${level} ${n}`);
  const average =
    stats.averageConfidence !== null
      ? ` (average confidence ${stats.averageRounded ? '≈' : ''}${num(stats.averageConfidence)})`
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
