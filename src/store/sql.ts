// The store over SQL, the same for SQLite and PostgreSQL: a driver runs parameterised statements ($1, $2...)
// and transactions; this file holds every statement, the migrations' runner and the owner's salted hash.
// Values only ever reach SQL as parameters.
import { createHash, randomBytes } from 'node:crypto';
import { DAILY_COLUMNS, dailyFrom, MIGRATIONS, NewerSchemaError, SCHEMA_VERSION } from './schema.js';
import type * as T from './types.js';
import type { Observation, Store } from './types.js';
import { PUT_WATCHLIST, SELECT_WATCHLIST, watchlistOf, watchlistValues } from './watchlist-sql.js';

export { NewerSchemaError } from './schema.js';
export type { Driver, Query, Row } from './types.js';

const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Brings the schema up to date in one transaction; refuses a schema newer than the code. One up to date is
 * only read (another process's write lock does not hold the open). A store made again keeps `salt`.
 */
export async function migrate(driver: T.Driver, salt?: string): Promise<string> {
  await driver.query('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const rows = await driver.query("SELECT key, value FROM meta WHERE key IN ('schema_version', 'salt')");
  const meta = Object.fromEntries(rows.map((r) => [String(r.key), String(r.value)]));
  if (Number(meta.schema_version) > SCHEMA_VERSION) throw new NewerSchemaError(Number(meta.schema_version));
  if (Number(meta.schema_version) === SCHEMA_VERSION && meta.salt) return meta.salt;
  return driver.transaction(async (q) => {
    // Replicas opening one PostgreSQL at once migrate one after the other.
    if (driver.dialect === 'postgres') await q('SELECT pg_advisory_xact_lock(727001)');
    const found = Number((await q("SELECT value FROM meta WHERE key = 'schema_version'"))[0]?.value ?? 0);
    if (found > SCHEMA_VERSION) throw new NewerSchemaError(found);
    for (const m of MIGRATIONS) {
      if (m.version <= found) continue;
      for (const statement of m.statements) await q(statement);
    }
    if (found < SCHEMA_VERSION)
      await q(
        "INSERT INTO meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [String(SCHEMA_VERSION)],
      );
    await q("INSERT INTO meta (key, value) VALUES ('salt', $1) ON CONFLICT (key) DO NOTHING", [
      salt ?? randomBytes(32).toString('hex'),
    ]);
    return String((await q("SELECT value FROM meta WHERE key = 'salt'"))[0]?.value);
  });
}

const COLUMNS = [
  'owner',
  'mint',
  'chain',
  'source',
  'hours',
  'minute',
  'platform',
  'level',
  'confidence',
  'score',
  'viewers',
  'live',
  'market_cap',
  'price',
  'fees',
  'fees_native',
  'currency',
  'error',
] as const;
const PG_TYPES =
  'text,text,text,text,int,bigint,text,text,float8,float8,float8,int,float8,float8,float8,float8,text,text'.split(
    ',',
  );
const UPDATED = COLUMNS.slice(6)
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');
const CONFLICT = `ON CONFLICT (owner, mint, chain, source, hours, minute) DO UPDATE SET ${UPDATED}`;

const values = (owner: string, o: Observation): unknown[] => [
  owner,
  o.mint,
  o.chain,
  o.source,
  o.hours,
  o.minute,
  o.platform ?? null,
  o.level ?? null,
  o.confidence ?? null,
  o.score ?? null,
  o.viewers ?? null,
  o.live == null ? null : o.live ? 1 : 0,
  o.marketCap ?? null,
  o.price ?? null,
  o.fees ?? null,
  o.feesNative ?? null,
  o.currency ?? null,
  o.error ?? null,
];

const KEY = ['owner', 'mint', 'chain', 'source', 'hours', 'minute'] as const;
/** SQLite's write of one observation: new, or nothing (a repeat within the minute is then updated). */
const INSERT_NEW = `INSERT INTO observations (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT DO NOTHING`;
const UPDATE_REPEAT = `UPDATE observations SET ${COLUMNS.slice(KEY.length)
  .map((c, i) => `${c} = $${KEY.length + i + 1}`)
  .join(', ')} WHERE ${KEY.map((c, i) => `${c} = $${i + 1}`).join(' AND ')}`;
/** A new observation added to its day's roll-up: one more, and the day's highest values. */
const higher = (c: string) =>
  `${c} = CASE WHEN daily.${c} IS NULL OR excluded.${c} > daily.${c} THEN excluded.${c} ELSE daily.${c} END`;
const DAILY_ADD = `INSERT INTO daily (${DAILY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10)
  ON CONFLICT (owner, mint, chain, source, day, level) DO UPDATE SET n = daily.n + 1,
  ${['confidence', 'score', 'peak', 'live'].map(higher).join(', ')}`;
const dailyValues = (owner: string, o: Observation): unknown[] => [
  owner,
  o.mint,
  o.chain,
  o.source,
  Math.floor(o.minute / 1440),
  o.source === 'botting' ? (o.level ?? '') : '',
  o.confidence ?? null,
  o.score ?? null,
  o.viewers ?? null,
  o.live == null ? null : o.live ? 1 : 0,
];
const DAILY_CLEAR =
  'DELETE FROM daily WHERE owner = $1 AND mint = $2 AND chain = $3 AND source = $4 AND day = $5';
/** One day's roll-up made again from its observations: owner, mint, chain, source, first minute, end minute. */
const DAILY_REDO = `INSERT INTO daily (${DAILY_COLUMNS}) ${dailyFrom('owner = $1 AND mint = $2 AND chain = $3 AND source = $4 AND minute >= $5 AND minute < $6')}`;
const redoParams = (g: readonly unknown[]) => {
  const day = Number(g[4]);
  return [g[0], g[1], g[2], g[3], day * 1440, day * 1440 + 1440];
};

/** `$from, $from+1, ...` for a list parameter. */
const list = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

export async function openSql(driver: T.Driver, kind: Store['kind'], where: string): Promise<Store> {
  const salt = await migrate(driver);
  const pg = driver.dialect === 'postgres';
  // Long reads (a year of days) as arrays: node:sqlite builds them several times faster than objects.
  const arrays = async (sql: string, params: readonly unknown[]): Promise<unknown[][]> =>
    driver.arrays
      ? driver.arrays(sql, params)
      : (await driver.query(sql, params)).map((r) => Object.values(r));

  const store: Store = {
    kind,
    where,
    // Hashed each time (about a microsecond): a cache of keys would keep every key a stranger tried.
    async owner(key) {
      return createHash('sha256').update(salt).update('\0').update(key).digest('hex').slice(0, 32);
    },
    async record(owner, rows) {
      if (!rows.length) return;
      // The last word of one answer on a token, source, window and minute stands (one row, never two).
      const unique = new Map<string, Observation>();
      for (const o of rows) unique.set(`${o.mint}\0${o.chain}\0${o.source}\0${o.hours}\0${o.minute}`, o);
      const seen = new Map<string, { mint: string; chain: string; first: number; last: number }>();
      for (const o of unique.values()) {
        const k = `${o.mint}\0${o.chain}`;
        const s = seen.get(k) ?? { mint: o.mint, chain: o.chain, first: o.minute, last: o.minute };
        seen.set(k, { ...s, first: Math.min(s.first, o.minute), last: Math.max(s.last, o.minute) });
      }
      const tokenSql = `INSERT INTO tokens (owner, mint, chain, first_minute, last_minute) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (owner, mint, chain) DO UPDATE SET
        first_minute = CASE WHEN excluded.first_minute < tokens.first_minute THEN excluded.first_minute ELSE tokens.first_minute END,
        last_minute = CASE WHEN excluded.last_minute > tokens.last_minute THEN excluded.last_minute ELSE tokens.last_minute END`;
      const tokenRows = [...seen.values()].map((s) => [owner, s.mint, s.chain, s.first, s.last]);
      const all = [...unique.values()];
      // The days whose roll-up an answer touches (botting verdicts with a level, streamer records).
      const rolled = (o: Observation) =>
        o.source === 'streamer' || (o.source === 'botting' && o.level != null);
      const groupOf = (o: Observation) => [o.mint, o.chain, o.source, Math.floor(o.minute / 1440)] as const;
      const runMany = driver.runMany?.bind(driver);
      if (!pg && runMany) {
        // SQLite: each statement prepared once and run per row, synchronously, in the one transaction.
        await driver.transaction(async () => {
          const changed = runMany(
            INSERT_NEW,
            all.map((o) => values(owner, o)),
          );
          const repeats = all.filter((_, i) => changed[i] === 0);
          const fresh = all.filter((o, i) => changed[i] !== 0 && rolled(o));
          runMany(
            DAILY_ADD,
            fresh.map((o) => dailyValues(owner, o)),
          );
          if (repeats.length) {
            // A repeat within the minute replaces its observation, and its day is rolled up again.
            runMany(
              UPDATE_REPEAT,
              repeats.map((o) => values(owner, o)),
            );
            const dirty = new Map<string, readonly unknown[]>();
            for (const o of repeats.filter(rolled)) {
              const [mint, chain, source, day] = groupOf(o);
              dirty.set(`${mint}\0${chain}\0${source}\0${day}`, [owner, mint, chain, source, day]);
            }
            const groups = [...dirty.values()];
            runMany(DAILY_CLEAR, groups);
            runMany(DAILY_REDO, groups.map(redoParams));
          }
          runMany(tokenSql, tokenRows);
        });
        return;
      }
      await driver.transaction(async (q) => {
        if (pg) {
          // One statement for the whole answer: a column of values per field.
          const columns = COLUMNS.map(() => [] as unknown[]);
          for (const o of all)
            values(owner, o).forEach((v, i) => {
              columns[i]?.push(v);
            });
          await q(
            `INSERT INTO observations (${COLUMNS.join(', ')}) SELECT * FROM unnest(${PG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) ${CONFLICT}`,
            columns,
          );
          // The touched days rolled up again from their observations, in two statements.
          const dirty = new Map<string, readonly [string, string, string, number]>();
          for (const o of all.filter(rolled)) {
            const g = groupOf(o);
            dirty.set(g.join('\0'), g);
          }
          if (dirty.size) {
            const g = [...dirty.values()];
            const params = [
              owner,
              g.map((x) => x[0]),
              g.map((x) => x[1]),
              g.map((x) => x[2]),
              g.map((x) => x[3]),
            ];
            const touched =
              'unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) AS t(mint, chain, source, day)';
            await q(
              `DELETE FROM daily d USING ${touched} WHERE d.owner = $1 AND d.mint = t.mint AND d.chain = t.chain
               AND d.source = t.source AND d.day = t.day`,
              params,
            );
            await q(
              `INSERT INTO daily (${DAILY_COLUMNS}) ${dailyFrom(`owner = $1 AND (mint, chain, source, minute / 1440) IN (SELECT mint, chain, source, day FROM ${touched})`)}
               ON CONFLICT (owner, mint, chain, source, day, level) DO UPDATE SET n = excluded.n,
               confidence = excluded.confidence, score = excluded.score, peak = excluded.peak, live = excluded.live`,
              params,
            );
          }
        } else {
          const sql = `INSERT INTO observations (${COLUMNS.join(', ')}) VALUES (${list(1, COLUMNS.length)}) ${CONFLICT}`;
          for (const o of all) await q(sql, values(owner, o));
        }
        for (const t of tokenRows) await q(tokenSql, t);
      });
    },
    async levelDays(owner, mints, chain, since) {
      if (!mints.length) return [];
      // SQLite: one row per day, the day's level already picked (MAX's row; a tie keeps the key's first
      // level, as the tool's pick does) with all its verdicts counted: half the rows of a year to build.
      const where = `WHERE owner = $1 AND chain = $2 AND source = 'botting' AND day >= $3 AND mint IN (${list(4, mints.length)})`;
      const rows = await arrays(
        pg
          ? `SELECT mint, day, level, n, confidence, score FROM daily ${where}`
          : `SELECT mint, day, level, SUM(n), confidence, score, MAX(COALESCE(confidence, -1)) FROM daily ${where}
             GROUP BY mint, day`,
        [owner, chain, Math.floor(since / 1440), ...mints],
      );
      return rows.map(
        (r): T.LevelDay => ({
          mint: String(r[0]),
          day: Number(r[1]),
          level: String(r[2]),
          count: Number(r[3]),
          confidence: n(r[4]),
          score: n(r[5]),
        }),
      );
    },
    async streamDays(owner, mints, chain, since) {
      if (!mints.length) return [];
      const rows = await arrays(
        `SELECT mint, day, peak, live, n FROM daily
         WHERE owner = $1 AND chain = $2 AND source = 'streamer' AND day >= $3 AND mint IN (${list(4, mints.length)})`,
        [owner, chain, Math.floor(since / 1440), ...mints],
      );
      return rows.map(
        (r): T.StreamDay => ({
          mint: String(r[0]),
          day: Number(r[1]),
          peakViewers: n(r[2]),
          live: Number(r[3]) === 1,
          count: Number(r[4]),
        }),
      );
    },
    async seen(owner, mints, chain) {
      if (!mints.length) return [];
      const rows = await driver.query(
        `SELECT mint, first_minute, last_minute FROM tokens WHERE owner = $1 AND chain = $2
         AND mint IN (${list(3, mints.length)})`,
        [owner, chain, ...mints],
      );
      return rows.map(
        (r): T.Seen => ({ mint: String(r.mint), first: Number(r.first_minute), last: Number(r.last_minute) }),
      );
    },
    async watchlists(owner) {
      const rows = await driver.query(`${SELECT_WATCHLIST} WHERE owner = $1 ORDER BY name`, [owner]);
      return rows.map(watchlistOf);
    },
    async watchlist(owner, name) {
      const rows = await driver.query(`${SELECT_WATCHLIST} WHERE owner = $1 AND name = $2`, [owner, name]);
      return rows[0] ? watchlistOf(rows[0]) : undefined;
    },
    async putWatchlist(owner, w) {
      await driver.query(PUT_WATCHLIST, watchlistValues(owner, w));
    },
    async changeWatchlist(owner, name, decide) {
      return driver.transaction(async (q) => {
        // One change per owner at a time: the count of lists and the list itself are read under the lock.
        if (pg) await q('SELECT pg_advisory_xact_lock(727003, hashtext($1))', [owner]);
        const [row] = await q(`${SELECT_WATCHLIST} WHERE owner = $1 AND name = $2`, [owner, name]);
        const lists = Number(
          (await q('SELECT COUNT(*) AS n FROM watchlists WHERE owner = $1', [owner]))[0]?.n,
        );
        const change = decide(row ? watchlistOf(row) : undefined, lists);
        if (change.put) await q(PUT_WATCHLIST, watchlistValues(owner, change.put));
        if (change.delete) {
          await q('DELETE FROM watchlists WHERE owner = $1 AND name = $2', [owner, name]);
          await q('DELETE FROM checks WHERE owner = $1 AND name = $2', [owner, name]);
        }
        return change.value;
      });
    },
    async deleteWatchlist(owner, name) {
      return driver.transaction(async (q) => {
        const found = await q('SELECT name FROM watchlists WHERE owner = $1 AND name = $2', [owner, name]);
        await q('DELETE FROM watchlists WHERE owner = $1 AND name = $2', [owner, name]);
        await q('DELETE FROM checks WHERE owner = $1 AND name = $2', [owner, name]);
        return found.length > 0;
      });
    },
    async lastCheck(owner, name) {
      const rows = await driver.query('SELECT at, hours, tokens FROM checks WHERE owner = $1 AND name = $2', [
        owner,
        name,
      ]);
      const r = rows[0];
      if (!r) return undefined;
      return { at: Number(r.at), hours: Number(r.hours), tokens: JSON.parse(String(r.tokens)) };
    },
    async putCheck(owner, name, check: T.CheckSnapshot) {
      // Only for a list that still exists: a check that ends after its list was deleted leaves no row behind
      // (a list saved again under that name starts afresh).
      await driver.query(
        `INSERT INTO checks (owner, name, at, hours, tokens) SELECT $1, $2, $3, $4, $5
         WHERE EXISTS (SELECT 1 FROM watchlists WHERE owner = $1 AND name = $2)
         ON CONFLICT (owner, name) DO UPDATE SET at = excluded.at, hours = excluded.hours, tokens = excluded.tokens`,
        [owner, name, check.at, check.hours, JSON.stringify(check.tokens)],
      );
    },
    async claimSlot(owner, slot) {
      return driver.transaction(async (q) => {
        // The replicas' timers race for each interval: the one holding the lock claims it, the rest see it taken.
        if (pg && !(await q('SELECT pg_try_advisory_xact_lock(727002) AS got'))[0]?.got) return false;
        const taken = Number((await q('SELECT slot FROM schedule WHERE owner = $1', [owner]))[0]?.slot ?? -1);
        if (taken >= slot) return false;
        await q(
          'INSERT INTO schedule (owner, slot) VALUES ($1, $2) ON CONFLICT (owner) DO UPDATE SET slot = excluded.slot',
          [owner, slot],
        );
        return true;
      });
    },
    async prune(before, limit) {
      const id = pg ? 'ctid' : 'rowid';
      const rows = await driver.query(
        `DELETE FROM observations WHERE ${id} IN (SELECT ${id} FROM observations WHERE minute < $1 LIMIT $2)
         RETURNING owner, mint, chain, source, minute`,
        [before, limit],
      );
      // The days those observations belonged to are rolled up again from what is left (none: no row).
      const days = new Map<string, unknown[]>();
      for (const r of rows) {
        if (r.source !== 'botting' && r.source !== 'streamer') continue;
        const g = [r.owner, r.mint, r.chain, r.source, Math.floor(Number(r.minute) / 1440)];
        days.set(g.join('\0'), g);
      }
      if (days.size)
        await driver.transaction(async (q) => {
          for (const g of days.values()) {
            await q(DAILY_CLEAR, g);
            await q(DAILY_REDO, redoParams(g));
          }
        });
      return rows.length;
    },
    close: () => driver.close(),
  };
  return store;
}
