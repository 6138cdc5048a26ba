// History's bars (issue 31), on SQLite files in a fresh folder:
// - recording a 500-token investigation (10 botting answers of 50, 5 streamer answers of 100) adds at most 5 ms
//   to the answer (the write is queued and runs just after the answer is sent; its own time is reported too);
// - get_token_history for 50 tokens answers within 50 ms with a year of hourly observations of 500 tokens.
// Run: `npm run build && npx node dist/bench/history.js` (prints JSON; writes it to bench/results/history.json).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiRequest } from '../src/api/client.js';
import { openHistory } from '../src/store/index.js';
import { DAILY_COLUMNS, dailyFrom } from '../src/store/schema.js';
import { readHistory } from '../src/tools/get-token-history.js';

const KEY = 'bench-key-0000';
/** Tokens seeded with a year of hourly observations: 500 (the bar); fewer for a quick look (HISTORY_BENCH_TOKENS). */
const SEEDED = Number(process.env.HISTORY_BENCH_TOKENS ?? 500);
const mint = (i: number) => `Bench${String(i).padStart(39, '0')}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** What a 500-token investigation receives: botting in 50s, streamer records in 100s. */
function investigationAnswers(): Array<{ req: ApiRequest; body: Record<string, unknown> }> {
  const out: Array<{ req: ApiRequest; body: Record<string, unknown> }> = [];
  for (let c = 0; c < 10; c++) {
    const ids = Array.from({ length: 50 }, (_, i) => mint(c * 50 + i));
    out.push({
      req: {
        method: 'POST',
        path: '/botting/bulk',
        body: { mintIds: ids, hours: 24, chain: 'chain_a', platform: 'platform_a' },
      },
      body: {
        success: true,
        data: {
          results: ids.map((mintId, i) => ({
            mintId,
            confidence: (i % 100) / 100,
            confidenceLevel: i % 3 ? 'LOW' : 'HIGH',
            score: i,
            reasons: ['viewers flat while chat idle'],
          })),
          errors: [],
          summary: { totalRequested: 50, successful: 50, failed: 0 },
        },
      },
    });
  }
  for (let c = 0; c < 5; c++) {
    const ids = Array.from({ length: 100 }, (_, i) => mint(c * 100 + i));
    out.push({
      req: {
        method: 'POST',
        path: '/streamers',
        body: { tokenAddresses: ids, chain: 'chain_a', platform: 'platform_a' },
      },
      body: {
        success: true,
        data: ids.map((mintId, i) => ({
          mintId,
          currentViewers: i * 10,
          isCurrentlyLive: i % 2 === 0,
          tokenMarketCap: 1e6 + i,
          tokenPrice: 0.001 * i,
          chain: 'chain_a',
          platform: 'platform_a',
        })),
      },
    });
  }
  return out;
}

async function recording(dir: string) {
  const history = openHistory({ url: join(dir, 'record.db'), historyDays: 400, watchIntervalMinutes: 0 });
  const answers = investigationAnswers();
  const times: number[] = [];
  // The write itself, after the answer: until a read (which waits for queued writes) may begin.
  const written: number[] = [];
  for (let run = 0; run < 25; run++) {
    // A different minute each run, so every run writes its 1,000 rows (not a replacement of the last).
    const realNow = Date.now;
    Date.now = () => realNow() + run * 60_000;
    try {
      const call = history.call(KEY);
      const started = performance.now();
      for (const a of answers) call.observe(a.req, a.body);
      const line = await call.flush();
      times.push(performance.now() - started);
      if (line) throw new Error(line);
      await call.use(async () => undefined);
      written.push(performance.now() - started);
    } finally {
      Date.now = realNow;
    }
  }
  await history.close();
  // The first run opens the store (and migrates): the cost of the first call of a process, not of each.
  return {
    firstMs: times[0] ?? 0,
    medianMs: median(times.slice(1)),
    maxMs: Math.max(...times.slice(1)),
    writtenAfterAnswerMedianMs: median(written.slice(1)),
  };
}

async function reading(dir: string) {
  const path = join(dir, 'year.db');
  const history = openHistory({ url: path, historyDays: 400, watchIntervalMinutes: 0 });
  const store = await history.store();
  if ('unavailable' in store) throw new Error(store.unavailable);
  const owner = await store.owner(KEY);
  const now = Math.floor(Date.now() / 60_000);
  const hours = 365 * 24;
  const seeded = performance.now();
  // A year of hourly observations of 500 tokens: one botting verdict and one streamer record an hour each.
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(path, { timeout: 10_000 });
  db.exec('BEGIN');
  const tokens = Array.from({ length: SEEDED }, (_, i) => `('${mint(i * (500 / SEEDED))}', ${i})`).join(',');
  db.prepare(
    `WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < ${hours - 1}),
     t(mint, i) AS (VALUES ${tokens})
     INSERT INTO observations (owner, mint, chain, source, hours, minute, level, confidence, score)
     SELECT ?, mint, 'chain_a', 'botting', 24, ? - n * 60, CASE WHEN (n + i) % 5 = 0 THEN 'HIGH' ELSE 'LOW' END,
       ((n + i) % 100) / 100.0, (n + i) % 100 FROM t, h`,
  ).run(owner, now);
  db.prepare(
    `WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < ${hours - 1}),
     t(mint, i) AS (VALUES ${tokens})
     INSERT INTO observations (owner, mint, chain, source, hours, minute, viewers, live)
     SELECT ?, mint, 'chain_a', 'streamer', 0, ? - n * 60, (n * 7 + i) % 5000, (n + i) % 2 FROM t, h`,
  ).run(owner, now);
  db.prepare(
    `INSERT INTO tokens (owner, mint, chain, first_minute, last_minute)
     SELECT owner, mint, chain, MIN(minute), MAX(minute) FROM observations GROUP BY owner, mint, chain`,
  ).run();
  // The daily roll-up the store keeps on write, made here in one statement as the migration does.
  db.prepare(`INSERT INTO daily (${DAILY_COLUMNS}) ${dailyFrom('1 = 1')}`).run();
  db.exec('COMMIT');
  db.close();
  const seedMs = performance.now() - seeded;
  const mintIds = Array.from({ length: 50 }, (_, i) => mint(i * 10));
  if (SEEDED < 500)
    mintIds.splice(
      0,
      50,
      ...Array.from({ length: Math.min(50, SEEDED) }, (_, i) => mint(i * (500 / SEEDED))),
    );
  const measure = async (days: number) => {
    const times: number[] = [];
    for (let run = 0; run < 7; run++) {
      const started = performance.now();
      const read = await readHistory(store, owner, { mintIds, chain: 'chain_a', days });
      times.push(performance.now() - started);
      if (read.tokens.length !== mintIds.length) throw new Error('the seeded history was not read');
    }
    return { medianMs: median(times), maxMs: Math.max(...times) };
  };
  const result = {
    tokensSeeded: SEEDED,
    rows: SEEDED * hours * 2,
    seedMs,
    days30: await measure(30),
    days365: await measure(365),
  };
  await history.close();
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'history-bench-'));
try {
  const record = await recording(dir);
  process.stderr.write(`recording a 500-token investigation: ${JSON.stringify(record)}\n`);
  const read = await reading(dir);
  const out = {
    recording500: { ...record, barMs: 5, pass: record.medianMs <= 5 },
    tokenHistory50: { ...read, barMs: 50, pass: read.days30.medianMs <= 50 },
  };
  const text = JSON.stringify(out, null, 2);
  process.stdout.write(`${text}\n`);
  const results = join(process.cwd(), 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'history.json'), `${text}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
