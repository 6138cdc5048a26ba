// History through the built server, on an SQLite file and on the real PostgreSQL: what one process records
// another reads after a restart, watchlists checked twice with exactly the scripted changes, keys kept
// apart over --http, concurrent writers, a kill during a write, store faults that leave the tools answering,
// replicas sharing watchlists and one scheduled re-check per interval, and the key in no row or file.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { appsClient } from '../../scripts/host/harness.js';
import { type HttpServerProcess, startHttpServer } from '../../scripts/http-server.js';
import type { HistoryDay, LevelEntry, ViewChanges, ViewHistory } from '../../src/report/view-types.js';
import type { Simulator } from '../../src/simulator/server.js';
import type { Change } from '../../src/tools/check-watchlist.js';
import { VIEW_DATA_KEY } from '../../src/views.js';
import { closers, it, ownSim } from '../concurrent.js';
import { ids, startSim } from '../helpers.js';
import { DATABASES, sqliteDatabase, type TestDatabase } from '../store/databases.js';

const ENTRY = fileURLToPath(new URL('../../dist/server/index.js', import.meta.url));
const ROOT = process.getuid?.() === 0;

interface Outcome {
  text: string;
  structured: Record<string, unknown>;
  isError: boolean;
}

async function callOf(client: Client, name: string, args: Record<string, unknown>): Promise<Outcome> {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  return {
    text: (r.content as Array<{ text: string }>)[0]?.text ?? '',
    structured: (r.structuredContent ?? {}) as Record<string, unknown>,
    isError: r.isError === true,
  };
}

// The tests run at once (test/concurrent.ts). They share this simulator; those that count its requests or
// change its data have one of their own (`ownSim`).
let sim: Simulator;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.close();
});

const baseEnv = (url: string, extra: Record<string, string> = {}, upstream: Simulator = sim) => ({
  PATH: process.env.PATH ?? '',
  HOME: '/nonexistent',
  STREAMER_ANALYTICS_API_KEY: upstream.apiKey,
  STREAMER_ANALYTICS_BASE_URL: upstream.url,
  STREAMER_ANALYTICS_DATABASE_URL: url,
  ...extra,
});

async function stdio(env: Record<string, string>, asUser?: number) {
  const transport = new StdioClientTransport({
    command: asUser === undefined ? process.execPath : 'setpriv',
    args:
      asUser === undefined
        ? [ENTRY]
        : [`--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', process.execPath, ENTRY],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'history-e2e', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, pid: transport.pid };
}

/** The built server with --http, stopped after the test. */
async function httpServer(env: Record<string, string>) {
  const server = await startHttpServer({ env });
  closers.push(() => server.stop());
  return server;
}

/** A server's environment with no key of its own: each caller brings one. */
const keyless = (db: TestDatabase, upstream: Simulator) => ({
  PATH: process.env.PATH ?? '',
  STREAMER_ANALYTICS_BASE_URL: upstream.url,
  STREAMER_ANALYTICS_DATABASE_URL: db.url,
});

async function http(server: HttpServerProcess, key?: string) {
  const client = new Client({ name: 'history-e2e', version: '1.0.0' });
  const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  closers.push(() => client.close());
  return client;
}

async function database(kind: keyof typeof DATABASES): Promise<TestDatabase> {
  const db = await DATABASES[kind]();
  closers.unshift(db.drop);
  return db;
}

/** Every text value in the store: the rows of every table, and (SQLite) the bytes of its files. */
async function storeContents(db: TestDatabase): Promise<string> {
  if (db.kind === 'sqlite') {
    const dir = join(db.url, '..');
    return readdirSync(dir)
      .map((f) => readFileSync(join(dir, f)).toString('latin1'))
      .join('\n');
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    const tables = (await c.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows.map(
      (r) => String(r.tablename),
    );
    const out: string[] = [];
    for (const t of tables) out.push(JSON.stringify((await c.query(`SELECT * FROM ${t}`)).rows));
    return out.join('\n');
  } finally {
    await c.end();
  }
}

/** How many watchlists the store holds, whoever's. */
async function watchlistRows(db: TestDatabase): Promise<number> {
  if (db.kind === 'sqlite') {
    const { DatabaseSync } = await import('node:sqlite');
    const file = new DatabaseSync(db.url, { readOnly: true });
    try {
      return Number((file.prepare('SELECT COUNT(*) AS n FROM watchlists').get() as { n: number }).n);
    } finally {
      file.close();
    }
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return Number((await c.query('SELECT COUNT(*) AS n FROM watchlists')).rows[0]?.n);
  } finally {
    await c.end();
  }
}

describe.each(Object.keys(DATABASES) as Array<keyof typeof DATABASES>)('history on %s', (kind) => {
  it('keeps a botting result across a restart, with its level and confidence; the key in no row or file', async () => {
    const db = await database(kind);
    const mints = ids(sim, 'platform_a', 3);
    const first = await stdio(baseEnv(db.url));
    const analysed = await callOf(first.client, 'analyze_botting', { mintIds: mints });
    expect(analysed.isError).toBe(false);
    expect(analysed.text).not.toContain('History unavailable');
    await first.client.close();

    const second = await stdio(baseEnv(db.url));
    const history = await callOf(second.client, 'get_token_history', { mintIds: mints });
    expect(history.isError).toBe(false);
    const tokens = history.structured.tokens as Array<{
      mintId: string;
      days: Array<{ level: string; confidence: number }>;
    }>;
    const withVerdict = mints.filter((m) => sim.data.byMint.get(m)?.botting);
    expect(tokens.map((t) => t.mintId).sort()).toEqual([...mints].sort());
    for (const m of withVerdict) {
      const token = tokens.find((t) => t.mintId === m);
      const expected = sim.data.byMint.get(m)?.botting;
      expect(token?.days.at(-1)).toMatchObject({
        level: expected?.confidenceLevel,
        confidence: expected?.confidence,
      });
    }
    expect(history.text).toContain('Token history (chain_a, last 30 days)');
    await second.client.close();
    expect(await storeContents(db)).not.toContain(sim.apiKey);
  });

  it('reports exactly the scripted changes between two checks of a watchlist', async () => {
    const sim = await ownSim();
    const db = await database(kind);
    const { client } = await stdio(baseEnv(db.url, {}, sim));
    const [a, b, c, d] = sim.data.tokens
      .filter((t) => t.platform === 'platform_a' && t.botting && t.currentViewers >= 100)
      .map((t) => t.mintId);
    if (!a || !b || !c || !d) throw new Error('the simulator has too few tokens for this test');
    const saved = await callOf(client, 'watchlist', { action: 'save', name: 'team "A"', mintIds: [a, b, c] });
    expect(saved.text).toMatch(/^Watchlist "team \\"A\\"" saved: 3 tokens on chain_a/);
    const added = await callOf(client, 'watchlist', { action: 'add', name: 'team "A"', mintIds: [d, a] });
    expect(added.structured.counts).toEqual({ added: 1, tokens: 4 });
    const removed = await callOf(client, 'watchlist', { action: 'remove', name: 'team "A"', mintIds: [c] });
    expect(removed.structured.counts).toEqual({ removed: 1, tokens: 3 });
    const shown = await callOf(client, 'watchlist', { action: 'show', name: 'team "A"' });
    expect(shown.structured.mintIds).toEqual([a, b, d]);

    const first = await callOf(client, 'check_watchlist', { name: 'team "A"' });
    expect(first.isError).toBe(false);
    expect(first.structured.previousCheck).toBeNull();
    expect((first.structured.changes as Array<{ kind: string }>).map((x) => x.kind)).toEqual([
      'new',
      'new',
      'new',
    ]);

    // Between the checks the upstream changes a's level and b's live status, and nothing else.
    const ta = sim.data.byMint.get(a);
    const tb = sim.data.byMint.get(b);
    if (!ta?.botting || !tb) throw new Error('unreachable');
    const before = { botting: ta.botting, live: tb.isCurrentlyLive };
    const newLevel = ta.botting.confidenceLevel === 'HIGH' ? 'LOW' : 'HIGH';
    ta.botting = { ...ta.botting, confidenceLevel: newLevel };
    tb.isCurrentlyLive = !tb.isCurrentlyLive;
    try {
      const second = await callOf(client, 'check_watchlist', { name: 'team "A"' });
      expect(second.isError).toBe(false);
      expect(second.structured.previousCheck).toBe(first.structured.checkedAt);
      expect(second.structured.changes).toEqual([
        { mintId: a, kind: 'level', from: before.botting.confidenceLevel, to: newLevel },
        before.live
          ? { mintId: b, kind: 'offline', from: true, to: false }
          : { mintId: b, kind: 'live', from: false, to: true },
      ]);
      expect(second.text).toMatch(/2 changes since the previous check at/);
      expect(second.text).toContain(`Changes: level 1, ${before.live ? 'offline' : 'live'} 1`);
    } finally {
      ta.botting = before.botting;
      tb.isCurrentlyLive = before.live;
    }
    const deleted = await callOf(client, 'watchlist', { action: 'delete', name: 'team "A"' });
    expect(deleted.text).toMatch(/^Watchlist "team \\"A\\"" deleted/);
    const listed = await callOf(client, 'watchlist', { action: 'list' });
    expect(listed.structured.watchlists).toEqual([]);
  });

  it("over --http keeps key A's watchlists and history from key B", async () => {
    const db = await database(kind);
    const server = await httpServer(keyless(db, sim));
    const mints = ids(sim, 'platform_a', 2);
    const keyA = await http(server, sim.apiKey);
    const keyB = await http(server, 'another-key-0000');
    expect((await callOf(keyA, 'analyze_botting', { mintIds: mints })).isError).toBe(false);
    await callOf(keyA, 'watchlist', { action: 'save', name: 'mine', mintIds: mints });
    const seenByA = await callOf(keyA, 'get_token_history', { mintIds: mints });
    expect((seenByA.structured.tokens as unknown[]).length).toBe(2);

    const seenByB = await callOf(keyB, 'get_token_history', { mintIds: mints });
    expect(seenByB.structured.tokens).toEqual([]);
    expect(seenByB.text).toContain('nothing was recorded');
    expect((await callOf(keyB, 'watchlist', { action: 'list' })).structured.watchlists).toEqual([]);
    const show = await callOf(keyB, 'watchlist', { action: 'show', name: 'mine' });
    expect(show.isError).toBe(true);
    expect(show.text).toContain('No watchlist named "mine"');
    expect((await callOf(keyB, 'watchlist', { action: 'delete', name: 'mine' })).isError).toBe(true);
    await callOf(keyB, 'watchlist', { action: 'save', name: 'mine', mintIds: [mints[0] as string] });
    expect((await callOf(keyA, 'watchlist', { action: 'show', name: 'mine' })).structured.mintIds).toEqual(
      mints,
    );
    expect(await storeContents(db)).not.toContain(sim.apiKey);
    expect(await storeContents(db)).not.toContain('another-key-0000');
  });

  it('over --http a made-up key writes nothing: the upstream refuses it, and no row is kept', async () => {
    const sim = await ownSim();
    const db = await database(kind);
    const server = await httpServer(keyless(db, sim));
    const mints = ids(sim, 'platform_a', 2);
    const madeUp = await http(server, 'made-up-key-1234');
    for (const args of [
      { action: 'save', name: 'theirs', mintIds: mints },
      { action: 'add', name: 'theirs', mintIds: mints },
      { action: 'delete', name: 'theirs' },
    ]) {
      const out = await callOf(madeUp, 'watchlist', args);
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(/^The streamer analytics API refused the API key/);
    }
    expect((await callOf(madeUp, 'watchlist', { action: 'list' })).structured.watchlists).toEqual([]);
    // The key's own: it writes after one request the upstream answers, then without asking again.
    const real = await http(server, sim.apiKey);
    sim.reset();
    expect((await callOf(real, 'watchlist', { action: 'save', name: 'mine', mintIds: mints })).isError).toBe(
      false,
    );
    expect(
      (await callOf(real, 'watchlist', { action: 'remove', name: 'mine', mintIds: mints.slice(1) })).isError,
    ).toBe(false);
    expect(sim.requests.map((r) => r.path)).toEqual(['/health']);
    const rows = await watchlistRows(db);
    expect(rows).toBe(1);
  });

  it('a store fault leaves the other tools answering, with one line saying why', async () => {
    const env =
      kind === 'sqlite'
        ? (() => {
            const db = sqliteDatabase();
            closers.push(db.drop);
            writeFileSync(db.url, 'this is not an SQLite database, whatever its name says'.repeat(100));
            return baseEnv(db.url);
          })()
        : // A PostgreSQL that is not running: nothing listens on this port.
          baseEnv('postgres://postgres@127.0.0.1:1/history');
    const { client } = await stdio(env);
    const out = await callOf(client, 'analyze_botting', { mintIds: ids(sim, 'platform_a', 2) });
    expect(out.isError).toBe(false);
    const lines = out.text.split('\n').filter((l) => l.startsWith('History unavailable'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(kind === 'sqlite' ? /not a readable database/ : /PostgreSQL is unreachable/);
    expect(out.structured.summary).toContain('History unavailable');
    const health = await callOf(client, 'check_health', {});
    expect(health.isError).toBe(false);
    const history = await callOf(client, 'get_token_history', { mintIds: ids(sim, 'platform_a', 1) });
    expect(history.isError).toBe(true);
    expect(history.text).toMatch(/^History unavailable: /);
  });
});

describe('history faults and concurrency (SQLite)', () => {
  it('off, and a read-only folder, leave every other tool answering with one line why', async () => {
    const off = await stdio(baseEnv('off'));
    const a = await callOf(off.client, 'analyze_botting', { mintIds: ids(sim, 'platform_a', 1) });
    expect(a.isError).toBe(false);
    expect(a.text.split('\n')[1]).toBe(
      'History unavailable, this answer was not kept: history is off (STREAMER_ANALYTICS_DATABASE_URL=off): nothing is kept.',
    );
    const h = await callOf(off.client, 'watchlist', { action: 'list' });
    expect(h.text).toMatch(/^History unavailable: history is off/);

    const db = sqliteDatabase();
    closers.push(db.drop);
    const folder = join(db.url, '..', 'locked');
    mkdirSync(folder);
    chmodSync(folder, 0o555);
    const ro = await stdio(baseEnv(join(folder, 'history.db')), ROOT ? 65_534 : undefined);
    const b = await callOf(ro.client, 'analyze_botting', { mintIds: ids(sim, 'platform_a', 1) });
    expect(b.isError).toBe(false);
    expect(b.text.split('\n')[1]).toMatch(
      /^History unavailable, this answer was not kept: cannot write the SQLite file/,
    );
    expect((await callOf(ro.client, 'check_health', {})).isError).toBe(false);
  });

  it('a store it cannot write names no path to the caller; the default file is created 0600 in a 0700 folder', async () => {
    const db = sqliteDatabase();
    closers.push(db.drop);
    const folder = join(db.url, '..', 'locked');
    mkdirSync(folder);
    chmodSync(folder, 0o555);
    const ro = await stdio(baseEnv(join(folder, 'history.db')), ROOT ? 65_534 : undefined);
    const b = await callOf(ro.client, 'analyze_botting', { mintIds: ids(sim, 'platform_a', 1) });
    expect(b.text.split('\n')[1]).toMatch(/the history store \(SQLite\) is unwritable/);
    const w = await callOf(ro.client, 'watchlist', { action: 'list' });
    expect(w.text).toMatch(/^History unavailable: /);
    for (const text of [b.text, w.text, JSON.stringify(b.structured), JSON.stringify(w.structured)])
      expect(text).not.toContain(join(db.url, '..'));

    // Unset: the platform's data folder, made private.
    const data = join(db.url, '..', 'data');
    const fresh = await stdio({ ...baseEnv(''), XDG_DATA_HOME: data });
    expect(
      (await callOf(fresh.client, 'analyze_botting', { mintIds: ids(sim, 'platform_a', 1) })).isError,
    ).toBe(false);
    await callOf(fresh.client, 'watchlist', { action: 'list' });
    const file = join(data, 'streamer-analytics-mcp', 'history.db');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  });

  it("run_analysis's history reads count against the program's request limit, as upstream requests do", async () => {
    const db = sqliteDatabase();
    closers.push(db.drop);
    const { client } = await stdio(baseEnv(db.url, { STREAMER_ANALYTICS_ANALYSIS_MAX_REQUESTS: '3' }));
    const [mint] = ids(sim, 'platform_a', 1);
    const read = `api.get_token_history({ mintIds: ['${mint}'] })`;
    const within = await callOf(client, 'run_analysis', {
      code: `await ${read}; await api.watchlist({ action: 'list' }); await ${read}; return 'read'`,
    });
    expect(within.isError).toBe(false);
    expect(within.structured.calls).toBe(3);
    const past = await callOf(client, 'run_analysis', {
      code: `for (let i = 0; i < 4; i++) await ${read}; return 'read'`,
    });
    expect(past.isError).toBe(true);
    expect(past.text).toMatch(/request limit/i);
  });

  it("a check keeps not-covered tokens apart from failures, gives failures' reasons, and names a window change", async () => {
    const db = sqliteDatabase();
    closers.push(db.drop);
    const { client } = await stdio(baseEnv(db.url));
    const [onB] = ids(sim, 'platform_b', 1);
    const [onC] = ids(sim, 'platform_c', 1);
    const unknown = 'Unknown1111111111111111111111111111111111111';
    if (!onB || !onC) throw new Error('the simulator has too few tokens for this test');
    await callOf(client, 'watchlist', {
      action: 'save',
      name: 'b',
      chain: 'chain_b',
      mintIds: [onB, onC, unknown],
    });
    const first = await callOf(client, 'check_watchlist', { name: 'b' });
    const counts = first.structured.counts as Record<string, number>;
    expect(counts.notCovered).toBe(1);
    expect(counts.failed).toBe(1);
    const failures = first.structured.failures as Array<{ reason: string; count: number }>;
    expect(failures).toHaveLength(1);
    expect(failures[0]?.count).toBe(1);
    expect(first.text).toContain(`Failed 1: ${JSON.stringify(failures[0]?.reason)} (1)`);
    expect(first.structured.changes).toContainEqual({
      mintId: onC,
      kind: 'new',
      from: null,
      to: 'not covered (platform_c)',
    });
    expect(first.structured.changes).toContainEqual({
      mintId: unknown,
      kind: 'new',
      from: null,
      to: 'failed',
    });
    expect(first.text).not.toContain('The previous check analysed');

    const second = await callOf(client, 'check_watchlist', { name: 'b', hours: 1 });
    expect(second.structured.previousHours).toBe(24);
    expect(second.text).toContain(
      'The previous check analysed the last 24 h, this one the last 1 h: a level change may come from the window, not the token.',
    );
    expect(second.structured.tokens).toBeUndefined();
    // detailed: every token's state now, after the changes (concise lists only the changes).
    const detailed = await callOf(client, 'check_watchlist', {
      name: 'b',
      hours: 1,
      response_format: 'detailed',
    });
    const now = detailed.structured.tokens as Array<Record<string, unknown>>;
    expect(now.map((t) => t.mintId)).toEqual([onB, onC, unknown]);
    expect(now[0]).toMatchObject({ mintId: onB, level: expect.any(String), confidence: expect.any(Number) });
    expect(now[1]).toMatchObject({ mintId: onC, level: null, notCovered: true });
    expect(now[2]).toMatchObject({ mintId: unknown, level: null, failed: failures[0]?.reason });
    expect(detailed.text).toContain('Each token now (3):');
    expect(detailed.structured.changes).toEqual([]);
    // History: the last 1 day is today alone, the most flagged token first.
    const h = await callOf(client, 'get_token_history', { mintIds: [onB, onC], chain: 'chain_b', days: 1 });
    expect(h.text).toMatch(/^Token history \(chain_b, last 1 day\): /);
    for (const t of h.structured.tokens as Array<{ days: unknown[] }>) expect(t.days).toHaveLength(1);
  });

  it('two processes write 500 verdicts each to one file at once: nothing lost, no error', async () => {
    const db = sqliteDatabase();
    closers.push(db.drop);
    const mints = ids(sim, 'platform_a', 50);
    const [one, two] = await Promise.all([stdio(baseEnv(db.url)), stdio(baseEnv(db.url))]);
    // 50 tokens x 10 windows each: every verdict is a row of its own.
    const run = (client: Client, hours: number[]) =>
      Promise.all(hours.map((h) => callOf(client, 'analyze_botting', { mintIds: mints, hours: h })));
    const outcomes = (
      await Promise.all([
        run(one.client, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        run(two.client, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]),
      ])
    ).flat();
    for (const o of outcomes) {
      expect(o.isError).toBe(false);
      expect(o.text).not.toContain('History unavailable');
    }
    // Each answer is written just after it is sent; a read of history waits for the writes queued before it.
    for (const c of [one.client, two.client])
      expect((await callOf(c, 'get_token_history', { mintIds: mints, days: 1 })).isError).toBe(false);
    const { DatabaseSync } = await import('node:sqlite');
    const file = new DatabaseSync(db.url, { readOnly: true });
    const row = file.prepare("SELECT COUNT(*) AS n FROM observations WHERE source = 'botting'").get() as {
      n: number;
    };
    file.close();
    expect(row.n).toBe(1000);
  });

  it('two processes add 300 ids each to one watchlist at once: one fits, the other is refused', async () => {
    const db = sqliteDatabase();
    closers.push(db.drop);
    const [one, two] = await Promise.all([stdio(baseEnv(db.url)), stdio(baseEnv(db.url))]);
    const batch = (from: number) =>
      Array.from({ length: 300 }, (_, i) => `Add${String(from + i).padStart(40, '0')}`);
    const first = await callOf(one.client, 'watchlist', {
      action: 'save',
      name: 'big',
      mintIds: batch(0).slice(0, 1),
    });
    expect(first.isError).toBe(false);
    // Both processes have their key accepted and the store open before the race.
    expect(
      (await callOf(two.client, 'watchlist', { action: 'add', name: 'big', mintIds: batch(0).slice(0, 1) }))
        .isError,
    ).toBe(false);
    const [a, b] = await Promise.all([
      callOf(one.client, 'watchlist', { action: 'add', name: 'big', mintIds: batch(1000) }),
      callOf(two.client, 'watchlist', { action: 'add', name: 'big', mintIds: batch(2000) }),
    ]);
    expect([a.isError, b.isError].sort()).toEqual([false, true]);
    expect((a.isError ? a : b).text).toMatch(
      /would make "big" 601 ids long; a watchlist holds at most 500\. Nothing was changed/,
    );
    const shown = await callOf(two.client, 'watchlist', { action: 'show', name: 'big' });
    expect(shown.structured.mintIds).toHaveLength(301);
  });

  it('a server killed during a write leaves a store that opens with every committed observation', async () => {
    const db = sqliteDatabase();
    closers.push(db.drop);
    const mints = ids(sim, 'platform_a', 50);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ENTRY],
      env: baseEnv(db.url),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'kill', version: '1.0.0' });
    await client.connect(transport);
    const answered: number[] = [];
    let fifth: () => void = () => {};
    const fiveAnswered = new Promise<void>((r) => {
      fifth = r;
    });
    const calls = Array.from({ length: 40 }, (_, i) =>
      callOf(client, 'analyze_botting', { mintIds: mints, hours: i + 1 }).then(
        () => {
          if (answered.push(i + 1) === 5) fifth();
        },
        () => {},
      ),
    );
    // Killed while calls are still being answered (and written).
    await fiveAnswered;
    const pid = transport.pid as number;
    const exited = new Promise((r) => {
      const t = setInterval(() => {
        try {
          process.kill(pid, 0);
        } catch {
          clearInterval(t);
          r(undefined);
        }
      }, 20);
    });
    process.kill(pid, 'SIGKILL');
    await exited;
    await Promise.allSettled(calls);
    await client.close().catch(() => {});
    const done = [...answered];
    const { DatabaseSync } = await import('node:sqlite');
    const file = new DatabaseSync(db.url);
    expect(file.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const windows = file
      .prepare("SELECT hours, COUNT(*) AS n FROM observations WHERE source = 'botting' GROUP BY hours")
      .all() as Array<{ hours: number; n: number }>;
    file.close();
    // Each answer's verdicts are written in one transaction just after it is sent: a window is kept whole
    // (50) or not at all, and only answered calls were kept. The writes of the first answers were done
    // before the fifth answer was sent.
    expect(windows.every((w) => w.n === 50 && done.includes(w.hours))).toBe(true);
    expect(windows.length).toBeGreaterThanOrEqual(1);
  });
});

describe('a team on PostgreSQL', () => {
  it('two --http replicas share the watchlists, and a scheduled re-check runs once per interval', async () => {
    const sim = await ownSim();
    const db = await database('postgres');
    const intervalMs = 1_500;
    const env = {
      ...baseEnv(db.url),
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_INTERNAL_WATCH_INTERVAL_MS: String(intervalMs),
      STREAMER_ANALYTICS_LOG_LEVEL: 'info',
    };
    const replicaA = await httpServer(env);
    const a = await http(replicaA);
    const mints = ids(sim, 'platform_a', 3);
    await callOf(a, 'watchlist', { action: 'save', name: 'team', mintIds: mints });
    const replicaB = await httpServer(env);
    const b = await http(replicaB);
    expect((await callOf(b, 'watchlist', { action: 'show', name: 'team' })).structured.mintIds).toEqual(
      mints,
    );

    // Every botting request the schedule makes.
    let botting = 0;
    sim.injectFor(
      (r) => {
        if (r.path === '/botting/bulk') botting++;
        return false;
      },
      { delayMs: 0 },
    );
    const checks = () =>
      [
        ...`${replicaA.stderr()}${replicaB.stderr()}`.matchAll(
          /"msg":"scheduled watchlist check","slot":(\d+)/g,
        ),
      ].map((m) => Number(m[1]));
    while (checks().length < 4) await new Promise((r) => setTimeout(r, 200));
    await Promise.all([replicaA.stop(), replicaB.stop()]);
    const slots = checks();
    // One check per interval in all, not one per replica: every interval's number appears once.
    expect(new Set(slots).size).toBe(slots.length);
    // And no replica checked without claiming the interval (one request may be under way at the stop).
    expect(botting).toBeLessThanOrEqual(slots.length + 1);
  });
});

describe('history in the views (SQLite, an MCP Apps client)', () => {
  const viewOf = (r: unknown) =>
    ((r as { _meta?: Record<string, unknown> })._meta?.[VIEW_DATA_KEY] ?? {}) as Record<string, unknown>;

  it("the board and the evidence carry each token's recorded levels; check_watchlist's board, its changes", async () => {
    const sim = await ownSim();
    const db = sqliteDatabase();
    closers.push(db.drop);
    const { client, close } = await appsClient('history-views', baseEnv(db.url, {}, sim));
    closers.push(close);
    const mints = sim.data.tokens
      .filter((t) => t.platform === 'platform_a' && t.botting && t.currentViewers >= 100)
      .slice(0, 3)
      .map((t) => t.mintId);
    const [a, b] = mints;
    if (!a || !b) throw new Error('the simulator has too few tokens for this test');
    const call = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args }, { timeout: 60_000 });

    // Nothing recorded yet: the view says so (an empty history, no failure).
    const first = viewOf(await call('investigate_botting', { mintIds: mints }));
    expect(first.history).toMatchObject({ days: 30, tokens: {} });
    // The first answer was recorded: the next board carries each token's day at its level.
    const board = viewOf(await call('investigate_botting', { mintIds: mints }));
    const history = board.history as Extract<ViewHistory, { tokens: unknown }>;
    const today = new Date().toISOString().slice(0, 10);
    for (const m of mints)
      expect(history.tokens[m]).toEqual([
        { date: today, level: sim.data.byMint.get(m)?.botting?.confidenceLevel },
      ]);
    // The report's levels first, as the board lists them.
    const boardLevels = board.levels as LevelEntry[];
    expect(history.levels.slice(0, boardLevels.length)).toEqual(boardLevels);

    const evidence = viewOf(
      await call('get_token_evidence', { mint: a, period: '1d', chain: 'chain_a', platform: 'platform_a' }),
    );
    expect((evidence.history as { tokens: Record<string, HistoryDay[]> }).tokens[a]).toHaveLength(1);

    await call('watchlist', { action: 'save', name: 'views', mintIds: mints });
    const checked = await call('check_watchlist', { name: 'views' });
    const firstChanges = viewOf(checked).changes as ViewChanges;
    expect(firstChanges.previousCheck).toBeNull();
    expect(firstChanges.list.map((c) => c.kind)).toEqual(['new', 'new', 'new']);
    const ta = sim.data.byMint.get(a);
    const tb = sim.data.byMint.get(b);
    if (!ta?.botting || !tb) throw new Error('unreachable');
    const before = { botting: ta.botting, live: tb.isCurrentlyLive };
    const newLevel = ta.botting.confidenceLevel === 'HIGH' ? 'LOW' : 'HIGH';
    ta.botting = { ...ta.botting, confidenceLevel: newLevel };
    tb.isCurrentlyLive = !tb.isCurrentlyLive;
    try {
      const again = await call('check_watchlist', { name: 'views' });
      const view = viewOf(again);
      const structured = again.structuredContent as { previousCheck: string; changes: Change[] };
      const changes = view.changes as ViewChanges;
      // One report, projected: the board's changes are the text's and structuredContent's, in their order.
      expect(changes.previousCheck).toBe(structured.previousCheck);
      expect(changes.list.map(({ mintId, kind }) => ({ mintId, kind }))).toEqual(
        structured.changes.map(({ mintId, kind }) => ({ mintId, kind })),
      );
      expect(changes.list).toHaveLength(2);
      expect(changes.list[0]?.text).toMatch(
        new RegExp(`^level (up|down) ${before.botting.confidenceLevel}→${newLevel}$`),
      );
      expect(changes.list[1]?.text).toBe(before.live ? 'offline' : 'live');
      expect((again.content as Array<{ text: string }>)[0]?.text).toContain(
        '2 changes since the previous check',
      );
      expect(view.title).toBe('Watchlist "views"');
    } finally {
      ta.botting = before.botting;
      tb.isCurrentlyLive = before.live;
    }
  });

  it('with history off, the views say no history is recorded and nothing breaks', async () => {
    const { client, close } = await appsClient('history-views-off', baseEnv('off'));
    closers.push(close);
    const result = await client.callTool({
      name: 'investigate_botting',
      arguments: { mintIds: ids(sim, 'platform_a', 2) },
    });
    expect(result.isError).toBeFalsy();
    expect(viewOf(result).history).toEqual({
      unavailable: 'history is off (STREAMER_ANALYTICS_DATABASE_URL=off): nothing is kept',
    });
  });
});
