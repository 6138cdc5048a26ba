// The history store under faults, through the built server: another process holding SQLite's write lock (no
// caller stalls, nothing answered is lost, a wait past the bound is said).
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { STORE_TIMEOUT_MS_FOR_TESTS } from '../../src/store/bounds.js';
import { ids, startSim } from '../helpers.js';
import { sqliteDatabase } from '../store/databases.js';

const ENTRY = fileURLToPath(new URL('../../dist/server/index.js', import.meta.url));

interface Outcome {
  text: string;
  isError: boolean;
  ms: number;
  tokens: Array<{ mintId: string; days: unknown[] }>;
}

async function callOf(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  timeout = 60_000,
): Promise<Outcome> {
  const started = performance.now();
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout });
  const structured = (r.structuredContent ?? {}) as { tokens?: Outcome['tokens'] };
  return {
    text: (r.content as Array<{ text: string }>)[0]?.text ?? '',
    isError: r.isError === true,
    ms: performance.now() - started,
    tokens: structured.tokens ?? [],
  };
}

let sim: Simulator;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => {});
});

const baseEnv = (url: string, extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: '/nonexistent',
  STREAMER_ANALYTICS_API_KEY: sim.apiKey,
  STREAMER_ANALYTICS_BASE_URL: sim.url,
  STREAMER_ANALYTICS_DATABASE_URL: url,
  ...extra,
});

async function stdio(env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ENTRY],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'store-faults', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  return client;
}

const sqlite = () => {
  const db = sqliteDatabase();
  closers.push(db.drop);
  return db;
};
/** Another process's hold on an SQLite file's write lock (this test process is not stalled by holding it). */
async function sqliteWriteLock(path: string) {
  const { DatabaseSync } = await import('node:sqlite');
  const other = new DatabaseSync(path);
  other.exec('BEGIN IMMEDIATE');
  const release = async () => {
    if (!other.isOpen) return;
    other.exec('COMMIT');
    other.close();
  };
  closers.push(release);
  return release;
}

const unkept = (o: Outcome) => o.text.split('\n').filter((l) => l.startsWith('History unavailable'));

/** Calls `name` until an answer says that an earlier answer was not kept (a write that failed after it was sent). */
async function untilUnkept(client: Client, args: Record<string, unknown>): Promise<Outcome> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const out = await callOf(client, 'analyze_botting', args);
    expect(out.isError).toBe(false);
    if (unkept(out).length || Date.now() > deadline) return out;
  }
}

describe('SQLite: another process holding the write lock', () => {
  it('stalls no caller, and what was answered meanwhile is written once the lock is let go', async () => {
    const db = sqlite();
    const client = await stdio(baseEnv(db.url));
    const [m1, m2, m3] = ids(sim, 'platform_a', 3) as [string, string, string];
    await callOf(client, 'analyze_botting', { mintIds: [m1] });
    // A read waits for the writes queued before it: the store is made and the first answer kept.
    expect((await callOf(client, 'get_token_history', { mintIds: [m1], days: 1 })).tokens).toHaveLength(1);

    const release = await sqliteWriteLock(db.url);
    const held = performance.now();
    const a = await callOf(client, 'analyze_botting', { mintIds: [m2] });
    // a's write begins as soon as it is answered and meets the lock; b is read and answered meanwhile.
    const b = await callOf(client, 'analyze_botting', { mintIds: [m3] });
    expect(a.isError || b.isError).toBe(false);
    expect(b.ms).toBeLessThan(2_000);
    // The lock held past both answers, longer than any one try: the writes wait, and are not given up.
    while (performance.now() - held < 1_500) await callOf(client, 'check_health', {});
    await release();

    const history = await callOf(client, 'get_token_history', { mintIds: [m1, m2, m3], days: 1 });
    expect(history.tokens.map((t) => t.mintId).sort()).toEqual([m1, m2, m3].sort());
    for (const o of [a, b, history]) expect(unkept(o)).toEqual([]);
  });

  it('a wait past the bound is said on the next answer (busy), the tools answer, and writing resumes', async () => {
    const db = sqlite();
    const client = await stdio(baseEnv(db.url, { [STORE_TIMEOUT_MS_FOR_TESTS]: '300' }));
    const [m1, m2] = ids(sim, 'platform_a', 2) as [string, string];
    await callOf(client, 'analyze_botting', { mintIds: [m1] });
    await callOf(client, 'get_token_history', { mintIds: [m1], days: 1 });

    const release = await sqliteWriteLock(db.url);
    const said = await untilUnkept(client, { mintIds: [m1] });
    expect(unkept(said)).toEqual([
      `History unavailable, an earlier answer was not kept: the SQLite file ${db.url} is busy: another process held its write lock for over 300 ms (SQLITE_BUSY).`,
    ]);
    await release();

    // The next answers are kept again (the failures already said are not said twice).
    await untilKept(client, m2);
    const history = await callOf(client, 'get_token_history', { mintIds: [m2], days: 1 });
    expect(history.isError).toBe(false);
    expect(history.tokens.map((t) => t.mintId)).toEqual([m2]);
  });
});

/** Calls until an answer has no "History unavailable" line (the failures of the lock's time said). */
async function untilKept(client: Client, mint: string) {
  for (let i = 0; i < 20; i++) {
    const out = await callOf(client, 'analyze_botting', { mintIds: [mint] });
    if (!unkept(out).length) return out;
  }
  throw new Error('every answer said history was unavailable');
}
