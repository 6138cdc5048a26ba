// The store's schema, versioned: each migration runs once, in order, in one transaction, when the store opens.
// The same SQL serves SQLite and PostgreSQL (types both accept); times are whole minutes or milliseconds.
// The observations key puts the minute before the window, so a range of days is an index range per token.
// `daily` is the roll-up kept on write (one row per owner, token, chain, source, day and level: botting
// verdicts with a level, and streamer records under level ''), so a 30-day read of 50 tokens reads ~1,500 rows.

/** A day's roll-up from its observations; `$where` narrows it (the migration's backfill takes every day). */
export const dailyFrom = (where: string) => `SELECT owner, mint, chain, source, minute / 1440 AS day,
  COALESCE(level, '') AS level, COUNT(*) AS n, MAX(confidence) AS confidence, MAX(score) AS score,
  MAX(viewers) AS peak, MAX(live) AS live
  FROM observations WHERE (source = 'streamer' OR (source = 'botting' AND level IS NOT NULL)) AND ${where}
  GROUP BY owner, mint, chain, source, minute / 1440, COALESCE(level, '')`;
export const DAILY_COLUMNS = 'owner, mint, chain, source, day, level, n, confidence, score, peak, live';

export const MIGRATIONS: ReadonlyArray<{ version: number; statements: string[] }> = [
  {
    version: 1,
    statements: [
      `CREATE TABLE observations (
        owner TEXT NOT NULL, mint TEXT NOT NULL, chain TEXT NOT NULL, source TEXT NOT NULL,
        hours INTEGER NOT NULL, minute BIGINT NOT NULL, platform TEXT, level TEXT,
        confidence DOUBLE PRECISION, score DOUBLE PRECISION, viewers DOUBLE PRECISION, live INTEGER,
        market_cap DOUBLE PRECISION, price DOUBLE PRECISION, fees DOUBLE PRECISION,
        fees_native DOUBLE PRECISION, currency TEXT, error TEXT,
        PRIMARY KEY (owner, mint, chain, source, minute, hours))`,
      'CREATE INDEX observations_by_minute ON observations (minute)',
      `CREATE TABLE tokens (
        owner TEXT NOT NULL, mint TEXT NOT NULL, chain TEXT NOT NULL,
        first_minute BIGINT NOT NULL, last_minute BIGINT NOT NULL,
        PRIMARY KEY (owner, mint, chain))`,
      `CREATE TABLE watchlists (
        owner TEXT NOT NULL, name TEXT NOT NULL, chain TEXT NOT NULL, note TEXT NOT NULL,
        mint_ids TEXT NOT NULL, created BIGINT NOT NULL, updated BIGINT NOT NULL,
        PRIMARY KEY (owner, name))`,
      `CREATE TABLE checks (
        owner TEXT NOT NULL, name TEXT NOT NULL, at BIGINT NOT NULL, hours INTEGER NOT NULL,
        tokens TEXT NOT NULL, PRIMARY KEY (owner, name))`,
      `CREATE TABLE schedule (owner TEXT PRIMARY KEY, slot BIGINT NOT NULL)`,
    ],
  },
  {
    version: 2,
    statements: [
      `CREATE TABLE daily (
        owner TEXT NOT NULL, mint TEXT NOT NULL, chain TEXT NOT NULL, source TEXT NOT NULL,
        day BIGINT NOT NULL, level TEXT NOT NULL, n BIGINT NOT NULL, confidence DOUBLE PRECISION,
        score DOUBLE PRECISION, peak DOUBLE PRECISION, live INTEGER,
        PRIMARY KEY (owner, mint, chain, source, day, level))`,
      `INSERT INTO daily (${DAILY_COLUMNS}) ${dailyFrom('1 = 1')}`,
    ],
  },
];

/** The newest schema this code knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

/** A store whose schema is newer than this code: it is never written to. */
export class NewerSchemaError extends Error {
  override name = 'NewerSchemaError';
  constructor(found: number) {
    super(
      `the store's schema is version ${found}, newer than this server knows (${SCHEMA_VERSION}); update streamer-analytics-mcp (nothing was written)`,
    );
  }
}
