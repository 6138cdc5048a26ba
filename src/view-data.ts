// A result's MCP Apps view data (`_meta`): upstream strings cleaned and capped, only ids asked, rows capped.
import {
  asArray,
  asRecord,
  groupFailures,
  type ItemError,
  notFoundHint,
  upstreamErrors,
} from './format/batch.js';
import { type Finding, type TokenFees, unanalysed } from './format/botting.js';
import { hourlyGrid } from './format/heatmap.js';
import type {
  BoardData,
  BoardRow,
  HeatmapGrid,
  LevelEntry,
  SeriesData,
  SessionRow,
  TokenNames,
} from './report/view-types.js';
import { type Coverage, NOT_COVERED, UNCOVERED_PLATFORM } from './tools/coverage.js';
import { NAMES } from './untrusted/names.js';
import { numberOf } from './untrusted/numbers.js';
import { idOf } from './untrusted/reader.js';
import { mainSeries, readSeries } from './untrusted/series.js';
import { clean } from './untrusted/text.js';

export const VIEW_DATA_KEY = 'streamer-analytics/view';

/** What one view's data may hold at most (the board's rows: at least investigate_botting's 500). */
export const VIEW_LIMITS = {
  rows: 2_000,
  failures: 2_000,
  reasons: 10,
  series: 25,
  points: 500,
  fields: 12,
  sessions: 50,
  grids: 8,
  days: 62,
} as const;
const CHARS = { id: 64, name: 80, symbol: 24, reason: 160, error: 160, field: 40, time: 40 } as const;

const numOr = (v: unknown) => numberOf(v) ?? null;
const textOr = (v: unknown, max: number) => (typeof v === 'string' && v ? clean(v, max) || null : null);

function namesOf(record: Record<string, unknown> | undefined): TokenNames {
  return { name: textOr(record?.coinName, CHARS.name), symbol: textOr(record?.coinSymbol, CHARS.symbol) };
}

function requestedOnly<T>(items: readonly T[], idOf: (item: T) => string, requested: readonly string[]) {
  const wanted = new Set(requested);
  const kept = items.filter((item) => wanted.has(idOf(item)));
  return { kept, unexpected: items.length - kept.length };
}

type Hint = (n: number) => string | undefined;
const hintOf = (errors: readonly ItemError[], hint?: Hint) =>
  notFoundHint(groupFailures(errors), hint) ?? null;

/** What the call asked beyond the data: the board opens with the slice the text describes. */
export interface BoardOptions {
  title: string;
  filters?: { levels?: string[] | undefined; liveOnly?: boolean; sortBy?: string };
  fees?: ReadonlyMap<string, TokenFees> | undefined;
  hint?: Hint;
  /** The report's levels (order, counts, flagged) and its most frequent reasons: drawn as they are. */
  levels: LevelEntry[];
  topReasons: Array<{ reason: string; count: number }>;
}

const recordFacts = (r: Record<string, unknown> | undefined) => ({
  ...namesOf(r),
  live: typeof r?.isCurrentlyLive === 'boolean' ? r.isCurrentlyLive : null,
  viewers: numOr(r?.currentViewers),
  marketCap: numOr(r?.tokenMarketCap),
});

/** The board: the findings, most suspicious first, joined with their records; then the not-covered tokens. */
export function boardData(
  split: Coverage,
  scope: BoardData['scope'],
  requested: readonly string[],
  records: ReadonlyMap<string, Record<string, unknown>>,
  options: BoardOptions,
): BoardData {
  const findings = requestedOnly(split.findings, (f) => f.mintId, requested);
  const failed = requestedOnly(split.errors, (e) => e.id, requested);
  const offFindings = requestedOnly(split.uncoveredFindings, (f) => f.mintId, requested);
  const offErrors = requestedOnly(split.uncoveredErrors, (e) => e.id, requested);
  const { filters, fees } = options;
  const feesOf = (id: string) => {
    if (!fees) return {};
    const fee = fees.get(id);
    return {
      feesNative: numOr(fee?.feesInNativeCoin),
      feesTotal: numOr(fee?.totalFees),
      feesCurrency: fee ? clean(fee.currency, 16) || null : null,
    };
  };
  const verdict = (f: Finding): BoardRow => ({
    mintId: f.mintId,
    level: clean(f.level, 16),
    confidence: f.confidence,
    score: f.score,
    reasons: f.reasons.slice(0, VIEW_LIMITS.reasons).map((why) => clean(why, CHARS.reason)),
    ...recordFacts(records.get(f.mintId)),
    ...feesOf(f.mintId),
  });
  const covered = findings.kept.slice(0, VIEW_LIMITS.rows).map(verdict);
  const uncovered = [
    ...offFindings.kept.map((f) => ({ ...verdict(f), covered: false, upstreamError: null })),
    ...offErrors.kept.map((e) => ({
      ...verdict(unanalysed(e)),
      mintId: clean(e.id, CHARS.id),
      covered: false,
      upstreamError: clean(e.error, CHARS.error),
    })),
  ].slice(0, Math.max(0, VIEW_LIMITS.rows - covered.length));
  const failures = failed.kept
    .slice(0, VIEW_LIMITS.failures)
    .map((e) => ({ id: clean(e.id, CHARS.id), error: clean(e.error, CHARS.error) }));
  return {
    kind: 'board',
    title: options.title,
    scope,
    ...(filters && {
      filters: {
        levels: filters.levels?.map((l) => clean(l, 32)) ?? null,
        liveOnly: filters.liveOnly === true,
        sortBy: filters.sortBy ?? null,
      },
    }),
    total: findings.kept.length,
    limits: { rows: VIEW_LIMITS.rows },
    unexpected: findings.unexpected + failed.unexpected + offFindings.unexpected + offErrors.unexpected,
    levels: options.levels.map((l) => ({ ...l, level: clean(l.level, 16) })),
    topReasons: options.topReasons.map((r) => ({ reason: clean(r.reason, CHARS.reason), count: r.count })),
    rows: [...covered, ...uncovered],
    failed: failed.kept.length,
    failures,
    failureGroups: groupFailures(failures),
    hint: hintOf(failed.kept, options.hint),
    notCovered: {
      count: offFindings.kept.length + offErrors.kept.length,
      platform: UNCOVERED_PLATFORM,
      reason: NOT_COVERED,
    },
  };
}

export function seriesData(
  data: unknown,
  requested: readonly string[],
  names: ReadonlyMap<string, TokenNames> = new Map(),
  hint?: Hint,
) {
  const asked = new Set(requested);
  const results = asArray(asRecord(data).results).map(asRecord);
  const mine = requestedOnly(results, (r) => idOf(r, asked) ?? '', requested);
  const seen = new Set<string>();
  const series: SeriesData[] = [];
  for (const r of mine.kept) {
    const mintId = idOf(r, asked) ?? '';
    if (seen.has(mintId) || series.length >= VIEW_LIMITS.series) continue;
    seen.add(mintId);
    const read = readSeries(mainSeries(r) ?? [], VIEW_LIMITS.fields);
    const from = Math.max(0, read.t.length - VIEW_LIMITS.points);
    const points = read.time === undefined ? [] : read.records.slice(from);
    const values: SeriesData['values'] = Object.create(null);
    for (const k of read.fields) values[clean(k, CHARS.field)] = points.map((p) => numberOf(p[k]) ?? null);
    const fields = Object.keys(values);
    const own = names.get(mintId);
    series.push({
      mintId,
      name: own?.name ?? textOr(r.coinName, CHARS.name),
      symbol: own?.symbol ?? textOr(r.coinSymbol, CHARS.symbol),
      t: read.t.slice(from),
      values,
      primary: fields.find(NAMES.audience) ?? fields[0] ?? null,
    });
  }
  const failures = requestedOnly(upstreamErrors(asRecord(data).errors, asked), (e) => e.id, requested);
  return {
    series,
    failures: failures.kept,
    failureGroups: groupFailures(failures.kept),
    hint: hintOf(failures.kept, hint),
    unexpected: mine.unexpected + failures.unexpected,
  };
}

/** A token's streaming sessions, the document's fields only, capped. */
export function sessionsData(data: unknown, mint: string): SessionRow[] {
  return asArray(data)
    .map(asRecord)
    .filter((s) => s.mintId === undefined || s.mintId === mint)
    .slice(0, VIEW_LIMITS.sessions)
    .map((s) => ({
      sessionId: textOr(s.sessionId, CHARS.id),
      startTime: textOr(s.startTime, CHARS.time),
      endTime: textOr(s.endTime, CHARS.time),
      duration: numOr(s.duration),
      peakViewers: numOr(s.peakViewers),
      averageViewers: numOr(s.averageViewers),
    }));
}

/** Every "a-b" keyed grid in a heatmap answer, wherever it sits. */
export function heatmapGrids(data: unknown) {
  const grids: HeatmapGrid[] = [];
  const visit = (value: unknown, path: string[], depth: number) => {
    const rec = asRecord(value);
    const keys = Object.keys(rec);
    if (grids.length >= VIEW_LIMITS.grids || depth > 4 || !keys.length) return;
    if (keys.every(NAMES.cell)) {
      const g = hourlyGrid(rec);
      if (g) grids.push({ title: path.join('.'), a: g.a, b: g.b, max: g.max, rows: g.rows, peak: g.peak });
      return;
    }
    for (const k of keys.slice(0, 50)) visit(rec[k], [...path, clean(k, CHARS.field)], depth + 1);
  };
  visit(data, [], 0);
  return grids;
}

export function namesIn(body: unknown, mintIds: readonly string[]): Map<string, TokenNames> {
  const records = asArray(asRecord(body).data).map(asRecord);
  return new Map(
    requestedOnly(records, (r) => String(r.mintId), mintIds).kept.map((r) => [String(r.mintId), namesOf(r)]),
  );
}
