// The data an answer hands its view (types only): every rule is the server report's; the view derives none.
import type { HourlyGrid } from '../format/heatmap.js';

/** One confidence level, in the report's order (most suspicious first): covered tokens, flagged or not. */
export type LevelEntry = { level: string; count: number; flagged: boolean };

/** One failure reason and the ids that failed with it (src/format/batch.ts groups them). */
export type FailureGroup = { error: string; ids: string[] };

export type BoardRow = {
  mintId: string;
  level: string;
  confidence: number | null;
  score: number | null;
  reasons: string[];
  name: string | null;
  symbol: string | null;
  live: boolean | null;
  viewers: number | null;
  marketCap: number | null;
  /** Only when the call joined creator fees. */
  feesNative?: number | null;
  feesTotal?: number | null;
  feesCurrency?: string | null;
  /** false: a token on a platform the botting endpoint does not take; its level, if any, the upstream's. */
  covered?: boolean;
  /** A not-covered token's failure, the upstream's message. */
  upstreamError?: string | null;
};

export type BoardData = {
  kind: 'board';
  title: string;
  scope: { chain: string; platform: string; hours: number; requested: number };
  filters?: { levels: string[] | null; liveOnly: boolean; sortBy: string | null };
  total: number;
  limits: { rows: number };
  unexpected: number;
  levels: LevelEntry[];
  topReasons: Array<{ reason: string; count: number }>;
  rows: BoardRow[];
  failed: number;
  /** Every failed id with its reason (capped at the view's limit). */
  failures: Array<{ id: string; error: string }>;
  failureGroups: FailureGroup[];
  hint: string | null;
  notCovered?: { count: number; platform: string; reason: string };
  simulated?: boolean;
  /** From the history store (absent: the tool reads none); `changes`: check_watchlist's board only. */
  history?: ViewHistory;
  changes?: ViewChanges;
};

/** A token's recorded day: its date (UTC) and level (null: streamer records only, no verdict). */
export type HistoryDay = { date: string; level: string | null };

/** What the store holds of the view's tokens, read by the tool during its call; or why there is none. */
export type ViewHistory =
  | {
      days: number;
      /** The report's levels first (its order, its flags), then any other recorded level. */
      levels: LevelEntry[];
      /** Oldest first; a token with none is absent. */
      tokens: Record<string, HistoryDay[]>;
    }
  | { unavailable: string };

/** check_watchlist's changes (its text's list, whole, in order, in words); previousCheck null on a first check. */
export type ViewChanges = {
  previousCheck: string | null;
  list: Array<{ mintId: string; kind: string; text: string }>;
};

/** One "a-b" keyed grid of a heatmap answer (its path as its title); rows[a - a0][b - b0]. */
export type HeatmapGrid = { title: string } & Pick<HourlyGrid, 'a' | 'b' | 'max' | 'rows' | 'peak'>;

export type TokenNames = { name: string | null; symbol: string | null };

/** One token's series: times (epoch ms, ascending) and each numeric field's values at them. */
export type SeriesData = TokenNames & {
  mintId: string;
  t: number[];
  values: Record<string, Array<number | null>>;
  /** The field a viewer curve draws. */
  primary: string | null;
};

/** A session as the evidence panel lists it; `duration` in `durationUnit` when the report found one. */
export type SessionRow = {
  sessionId: string | null;
  startTime: string | null;
  endTime: string | null;
  duration: number | null;
  peakViewers: number | null;
  averageViewers: number | null;
};

export type EvidenceData = {
  kind: 'evidence';
  scope: { mint: string; period: string; hours: number; chain: string; platform: string };
  series: { series: SeriesData[] } | { error: string };
  sessions: SessionRow[] | { error: string };
  /** 'ms', 's' or 'min', as the sessions show it (get_streamer_sessions states the same); null: not shown. */
  durationUnit: { unit: string; evidence: string } | null;
  botting:
    | { level: string; confidence: number | null; score: number | null; reasons: string[] }
    | { error: string }
    | null;
  history?: ViewHistory;
};
