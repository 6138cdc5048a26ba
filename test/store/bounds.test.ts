// The store's bounds, on real databases: SQLite waits for another connection's write lock without stopping
// the event loop; PostgreSQL bounds each operation, and a migration's wait for a lock (its statements are
// not bounded: a backfill may take minutes).
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_TIMEOUT_MS_FOR_TESTS } from '../../src/store/bounds.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';
import { postgresDatabase, sqliteDatabase } from './databases.js';

const MINT = 'So11111111111111111111111111111111111111112';
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => {});
});

/** Opens with the operations' bound set to `ms` (read when a store opens; the variable is put back). */
async function withBound(ms: number, open: () => Promise<Store>): Promise<Store> {
  const before = process.env[STORE_TIMEOUT_MS_FOR_TESTS];
  process.env[STORE_TIMEOUT_MS_FOR_TESTS] = String(ms);
  try {
    const store = await open();
    cleanup.push(() => store.close());
    return store;
  } finally {
    if (before === undefined) delete process.env[STORE_TIMEOUT_MS_FOR_TESTS];
    else process.env[STORE_TIMEOUT_MS_FOR_TESTS] = before;
  }
}

const verdict = (hours: number) => ({
  mint: MINT,
  chain: 'chain_a',
  source: 'botting' as const,
  hours,
  minute: Math.floor(Date.now() / 60_000),
  level: 'HIGH',
  confidence: 0.9,
});

describe('SQLite', () => {
  it("a write waits for another connection's lock with the event loop free, and lands once it is let go", async () => {
    const db = sqliteDatabase();
    cleanup.push(db.drop);
    const store = await withBound(5_000, () => openSqlite(db.url));
    const owner = await store.owner('k');
    const { DatabaseSync } = await import('node:sqlite');
    const other = new DatabaseSync(db.url);
    cleanup.push(async () => other.isOpen && other.close());
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const written = store.record(owner, [verdict(24)]);
    // The loop turns while the write waits: the timers fire, and the lock is let go from one of them.
    while (ticks < 20) await new Promise((r) => setTimeout(r, 10));
    other.exec('COMMIT');
    await written;
    clearInterval(ticker);
    expect(await store.levelDays(owner, [MINT], 'chain_a', 0)).toHaveLength(1);
  });
});

describe('PostgreSQL', () => {
  it("bounds each operation (a statement waiting on a lock gives up), and a migration's wait for a lock", async () => {
    const db = await postgresDatabase();
    cleanup.push(db.drop);
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    cleanup.push(() => other.end());
    // Another replica migrating: it holds the migration's lock for longer than the operations' bound. The
    // open's wait for it is bounded (lock_timeout): it fails, and is tried again later (src/store/index.ts).
    await other.query('SELECT pg_advisory_lock(727001)');
    const opening = performance.now();
    await expect(withBound(300, () => openPostgres(db.url))).rejects.toMatchObject({ code: '55P03' });
    expect(performance.now() - opening).toBeLessThan(3_000);
    await other.query('SELECT pg_advisory_unlock(727001)');
    const store = await withBound(300, () => openPostgres(db.url));
    const owner = await store.owner('k');
    await store.record(owner, [verdict(24)]);

    await other.query('BEGIN');
    await other.query('LOCK TABLE watchlists IN ACCESS EXCLUSIVE MODE');
    const started = performance.now();
    const put = store.putWatchlist(owner, {
      name: 'w',
      chain: 'chain_a',
      note: '',
      mintIds: [MINT],
      created: 1,
      updated: 1,
    });
    await expect(put).rejects.toThrow(/statement timeout/);
    expect(performance.now() - started).toBeLessThan(3_000);
    await other.query('COMMIT');
    expect(await store.levelDays(owner, [MINT], 'chain_a', 0)).toHaveLength(1);
  });
});
