// The run_analysis engine alone (no MCP, no upstream): what a run costs with warm workers, whether memory
// stays put over many runs, and what the first run pays. `node dist/bench/analysis.js` prints it as JSON;
// analysisBench() is there for bench/run.ts. The tool's own overhead (beyond the same upstream requests) is
// measured through the server, with the tool.
import { fileURLToPath } from 'node:url';
import type { AnalysisHost } from '../src/analysis/index.js';
import { createSandboxPool } from '../src/analysis/index.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const rssMiB = () => round(process.memoryUsage.rss() / 1024 / 1024, 1);

/** An upstream-like answer: 100 rows of six-decimal amounts, answered at once. */
const rows = Array.from({ length: 100 }, (_, i) => ({
  mintId: `mint${i}`,
  chain: i % 2 ? 'chain_a' : 'chain_b',
  fees: Number(((i * 7919) % 100_000) / 1_000_000 + i).toFixed(6),
  viewers: (i * 37) % 1500,
}));
const host: AnalysisHost = { call: async () => ({ data: rows, total: rows.length }) };
const API = ['list_streamers', 'get_creator_fees'];
/** What a typical program does: two calls, a filter, exact sums, a ranking. */
const TYPICAL = `
  const [a, b] = await Promise.all([api.list_streamers({ limit: 100 }), api.get_creator_fees({ limit: 100 })]);
  const live = a.data.filter((r) => r.viewers > 500);
  const top = sortBy(b.data, 'fees', 'desc').slice(0, 5);
  return { live: live.length, share: sum(top, 'fees') / sum(b.data, 'fees'), best: maxBy(a.data, 'viewers').mintId };`;

export interface AnalysisBench {
  firstRunMs: number;
  returnOneMedianMs: number;
  typicalMedianMs: number;
  rssAfter10MiB: number;
  rssAfter1000MiB: number;
  rssGrowthMiB: number;
  workersRetired: string;
}

export async function analysisBench(runs = 200): Promise<AnalysisBench> {
  const pool = await createSandboxPool();
  const opts = { apiNames: API, timeoutMs: 30_000 };
  try {
    let started = performance.now();
    const first = await pool.run('return 1', host, opts);
    const firstRunMs = performance.now() - started;
    if (!first.ok) throw new Error(`the first run failed: ${first.message}`);
    await pool.warmUp();
    const time = async (code: string) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        started = performance.now();
        const outcome = await pool.run(code, host, opts);
        times.push(performance.now() - started);
        if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`);
      }
      return round(median(times));
    };
    const returnOneMedianMs = await time('return 1');
    const typicalMedianMs = await time(TYPICAL);
    // RSS over many typical runs: the process's, workers included (they are its threads).
    const gc = (globalThis as { gc?: () => void }).gc;
    for (let i = 0; i < 10; i++) await pool.run(TYPICAL, host, opts);
    gc?.();
    const rssAfter10MiB = rssMiB();
    for (let i = 0; i < 990; i++) await pool.run(TYPICAL, host, opts);
    gc?.();
    const rssAfter1000MiB = rssMiB();
    return {
      firstRunMs: round(firstRunMs),
      returnOneMedianMs,
      typicalMedianMs,
      rssAfter10MiB,
      rssAfter1000MiB,
      rssGrowthMiB: round(rssAfter1000MiB - rssAfter10MiB, 1),
      workersRetired: 'by memory growth past 32 MiB or after 1,000 runs (src/analysis/pool.ts)',
    };
  } finally {
    await pool.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await analysisBench(), null, 2));
}
