// The store's one narrow interface: what the history tools, the recorder and the schedule need of a database.
// SQLite (node:sqlite), PostgreSQL (pg) and demo mode's in-memory SQLite all implement it (src/store/sql.ts).

/** Where and how long history is kept (STREAMER_ANALYTICS_DATABASE_URL, _HISTORY_DAYS, _WATCH_INTERVAL_MINUTES). */
export interface StoreOptions {
  /** unset: the platform's data folder; a path or `file:` URL; `postgres://`; `off`. */
  url: string | undefined;
  historyDays: number;
  /** --http only; 0 is off. */
  watchIntervalMinutes: number;
  /** Why history is off when the configuration turned it off (a wrong database URL), not the user. */
  offReason?: string;
  /** The server's log: a store failure in full (the SQLite file's path included), which callers never see. */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

/** What a watchlist change decided: the list to write, or that it goes, and what the tool reports. */
export interface WatchlistChange<R> {
  put?: Watchlist;
  delete?: true;
  value: R;
}

/** What an upstream answer said of one token: a botting verdict, a streamer record, or creator fees. */
export type Source = 'botting' | 'streamer' | 'fees';

export interface Observation {
  mint: string;
  /** The chain asked for (a streamer record's own chain when it names one); '' for creator fees. */
  chain: string;
  source: Source;
  /** The botting window in hours; 0 for the other sources. */
  hours: number;
  /** Minutes since the epoch (UTC): one observation per token, source, window and minute. */
  minute: number;
  platform?: string | null;
  level?: string | null;
  confidence?: number | null;
  score?: number | null;
  viewers?: number | null;
  live?: boolean | null;
  marketCap?: number | null;
  price?: number | null;
  fees?: number | null;
  feesNative?: number | null;
  currency?: string | null;
  /** The upstream's message for a token it could not analyse. */
  error?: string | null;
}

export interface Watchlist {
  name: string;
  chain: string;
  note: string;
  mintIds: string[];
  created: number;
  updated: number;
}

/** A token's state at one check: what the next check compares with. */
export interface TokenState {
  level?: string;
  confidence?: number | null;
  error?: string;
  live?: boolean | null;
  viewers?: number | null;
  /** Streams on the platform botting analysis does not take: no verdict, no failure. */
  notCovered?: boolean;
}

export interface CheckSnapshot {
  at: number;
  hours: number;
  tokens: Record<string, TokenState>;
}

/** A day of a token's botting verdicts at one level (SQLite: the day's picked level, every verdict counted); the tool picks. */
export interface LevelDay {
  mint: string;
  day: number;
  level: string;
  count: number;
  confidence: number | null;
  score: number | null;
}

export interface StreamDay {
  mint: string;
  day: number;
  peakViewers: number | null;
  live: boolean;
  count: number;
}

export interface Seen {
  mint: string;
  first: number;
  last: number;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres' | 'memory';
  /** Where it is, safe to show (never a password). */
  readonly where: string;
  /** The owner of what a key fetches: a salted hash of the key (the salt is kept in the store). */
  owner(key: string): Promise<string>;
  /** Writes one answer's observations in one transaction; a repeat within the minute replaces, never adds. */
  record(owner: string, rows: readonly Observation[]): Promise<void>;
  levelDays(owner: string, mints: readonly string[], chain: string, sinceMinute: number): Promise<LevelDay[]>;
  streamDays(
    owner: string,
    mints: readonly string[],
    chain: string,
    sinceMinute: number,
  ): Promise<StreamDay[]>;
  seen(owner: string, mints: readonly string[], chain: string): Promise<Seen[]>;
  watchlists(owner: string): Promise<Watchlist[]>;
  watchlist(owner: string, name: string): Promise<Watchlist | undefined>;
  putWatchlist(owner: string, list: Watchlist): Promise<void>;
  deleteWatchlist(owner: string, name: string): Promise<boolean>;
  /**
   * Reads one watchlist and how many the owner has, decides, and writes, in one transaction that holds the
   * owner's lists (PostgreSQL: an advisory lock per owner; SQLite: BEGIN IMMEDIATE), so that concurrent
   * changes cannot pass the limits or lose each other's ids. `decide` is synchronous; what it throws
   * rolls the transaction back (nothing written) and reaches the caller as it was thrown.
   */
  changeWatchlist<R>(
    owner: string,
    name: string,
    decide: (existing: Watchlist | undefined, lists: number) => WatchlistChange<R>,
  ): Promise<R>;
  lastCheck(owner: string, name: string): Promise<CheckSnapshot | undefined>;
  putCheck(owner: string, name: string, check: CheckSnapshot): Promise<void>;
  /**
   * Claims one scheduled run (`slot`: the interval's number since the epoch) for `owner`; true for exactly
   * one caller across processes and replicas (PostgreSQL: under an advisory lock).
   */
  claimSlot(owner: string, slot: number): Promise<boolean>;
  /** Deletes at most `limit` observations older than `beforeMinute`; returns how many. */
  prune(beforeMinute: number, limit: number): Promise<number>;
  close(): Promise<void>;
}

/** The limits the issue sets on watchlists. */
export const MAX_WATCHLISTS = 100;
export const MAX_WATCHLIST_IDS = 500;

/** What the SQL store runs on (src/store/sql.ts): SQLite or PostgreSQL, parameters only. */
export type Row = Record<string, unknown>;
export type Query = (sql: string, params?: readonly unknown[]) => Promise<Row[]>;

export interface Driver {
  readonly dialect: 'sqlite' | 'postgres';
  query: Query;
  /** Runs `fn` in one transaction: SQLite BEGIN IMMEDIATE (one writer across processes), PostgreSQL one connection. */
  transaction<T>(fn: (q: Query) => Promise<T>): Promise<T>;
  /**
   * SQLite only, inside a transaction: runs one prepared statement once per row of parameters, synchronously,
   * and returns each run's count of changed rows (no promise, no re-preparing per row).
   */
  runMany?(sql: string, rows: readonly (readonly unknown[])[]): number[];
  /** A read's rows as arrays in column order (SQLite: far cheaper to build than objects); else `query`'s. */
  arrays?(sql: string, params: readonly unknown[]): Promise<unknown[][]>;
  close(): Promise<void>;
}
