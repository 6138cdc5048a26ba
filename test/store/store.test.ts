// The store's one interface on both databases: migrations, salted owners, one observation per minute,
// watchlists, checks, the schedule's claim, pruning, and a schema newer than the code left untouched.
import { afterEach, describe, expect, it } from 'vitest';
import { openHistory } from '../../src/store/index.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { Observation, Store } from '../../src/store/types.js';
import { DATABASES, type TestDatabase } from './databases.js';

const MINT = 'So11111111111111111111111111111111111111112';
const open = (db: TestDatabase): Promise<Store> =>
  db.kind === 'sqlite' ? openSqlite(db.url) : openPostgres(db.url);

describe.each(Object.keys(DATABASES) as Array<keyof typeof DATABASES>)('store on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  const fresh = async () => {
    const db = await DATABASES[kind]();
    cleanup.push(db.drop);
    const store = await open(db);
    cleanup.push(() => store.close());
    return { db, store };
  };

  it('keeps one observation per token, source, window and minute; owners are salted hashes', async () => {
    const { store } = await fresh();
    const owner = await store.owner('key-A');
    expect(owner).toMatch(/^[0-9a-f]{32}$/);
    expect(owner).not.toContain('key-A');
    expect(await store.owner('key-B')).not.toBe(owner);
    const minute = Math.floor(Date.now() / 60_000);
    const verdict = (level: string, confidence: number, m = minute): Observation => ({
      mint: MINT,
      chain: 'chain_a',
      source: 'botting',
      hours: 24,
      minute: m,
      level,
      confidence,
    });
    await store.record(owner, [verdict('LOW', 0.1), verdict('HIGH', 0.9)]);
    await store.record(owner, [verdict('HIGH', 0.91)]);
    await store.record(owner, [verdict('MEDIUM', 0.5, minute - 1440)]);
    const days = await store.levelDays(owner, [MINT], 'chain_a', minute - 2 * 1440);
    expect(days.map((d) => [d.level, d.count, d.confidence])).toEqual(
      expect.arrayContaining([
        ['HIGH', 1, 0.91],
        ['MEDIUM', 1, 0.5],
      ]),
    );
    expect(days).toHaveLength(2);
    expect(await store.levelDays(await store.owner('key-B'), [MINT], 'chain_a', 0)).toEqual([]);
    const [seen] = await store.seen(owner, [MINT], 'chain_a');
    expect(seen).toEqual({ mint: MINT, first: minute - 1440, last: minute });
    expect(await store.prune(minute - 60, 10)).toBe(1);
    expect(await store.levelDays(owner, [MINT], 'chain_a', 0)).toHaveLength(1);
  });

  it('keeps watchlists and checks; names are data; one claimant per slot', async () => {
    const { store } = await fresh();
    const owner = await store.owner('key');
    const name = `x'); DROP TABLE watchlists; --`;
    await store.putWatchlist(owner, {
      name,
      chain: 'chain_b',
      note: 'n',
      mintIds: [MINT],
      created: 1,
      updated: 2,
    });
    expect((await store.watchlists(owner)).map((w) => w.name)).toEqual([name]);
    await store.putCheck(owner, name, { at: 5, hours: 24, tokens: { [MINT]: { level: 'HIGH' } } });
    expect(await store.lastCheck(owner, name)).toEqual({
      at: 5,
      hours: 24,
      tokens: { [MINT]: { level: 'HIGH' } },
    });
    expect(await Promise.all([store.claimSlot(owner, 7), store.claimSlot(owner, 7)])).toEqual(
      expect.arrayContaining([true, false]),
    );
    expect(await store.claimSlot(owner, 7)).toBe(false);
    expect(await store.claimSlot(owner, 8)).toBe(true);
    expect(await store.deleteWatchlist(owner, name)).toBe(true);
    expect(await store.lastCheck(owner, name)).toBeUndefined();
    expect(await store.deleteWatchlist(owner, name)).toBe(false);
  });

  it('never writes to a schema newer than the code, and says so', async () => {
    const { db, store } = await fresh();
    await store.record(await store.owner('k'), []);
    await store.putWatchlist(await store.owner('k'), {
      name: 'a',
      chain: 'chain_a',
      note: '',
      mintIds: [MINT],
      created: 1,
      updated: 1,
    });
    // A later version of the server migrated this store.
    await (store as unknown as { close(): Promise<void> }).close();
    const raw = await open(db);
    await raw.close();
    const bump = kind === 'sqlite' ? sqliteExec : pgExec;
    await bump(db.url, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    const history = openHistory({ url: db.url, historyDays: 400, watchIntervalMinutes: 0 });
    cleanup.push(() => history.close());
    const opened = await history.store();
    expect(opened).toEqual({ unavailable: expect.stringContaining('version 99, newer than this server') });
  });
});

async function sqliteExec(path: string, sql: string) {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(path);
  db.exec(sql);
  db.close();
}

async function pgExec(url: string, sql: string) {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(sql);
  await c.end();
}
