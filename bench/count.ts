// The instruction counts alone, for one build: `node dist/bench/count.js [entry] [out.json]` (after
// `npm run build`). The entry defaults to this build's server; another build's (BENCH_BASELINE's
// dist/server/index.js) is counted on the same floors. BENCH_COLD_RUNS, BENCH_WARMUP_CALLS,
// BENCH_COUNTED_CALLS and BENCH_SKIP_PER_CALL shorten a run on a busy machine. `npm run bench` runs the same
// harness (bench/instructions.ts) and writes bench/results.json. Counted on the Node that runs it: Node 24's
// binary (scripts/node-version.ts) running this file counts on Node 24.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBareServer } from '../scripts/pack.js';
import { BENCH } from './config.js';
import { instructionCounts, instructionRows } from './instructions.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = process.argv[2] || join(root, 'dist/server/index.js');
const out = process.argv[3] || undefined;
const counts = await instructionCounts({
  node: process.execPath,
  entry,
  bare: await bundleBareServer(join(root, 'dist')),
  upstream: join(root, 'dist/bench/upstream.js'),
  coldRuns: BENCH.instructions.coldRuns,
  warmupCalls: Number(process.env.BENCH_WARMUP_CALLS ?? BENCH.warmupCalls),
  countedCalls: Number(process.env.BENCH_COUNTED_CALLS ?? BENCH.overheadCalls),
  idleMs: BENCH.instructions.idleMs,
  skipPerCall: process.env.BENCH_SKIP_PER_CALL === '1',
  log: (line) => console.log(line),
});
const result = { date: new Date().toISOString(), node: process.version, entry, counts };
if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
for (const row of instructionRows(counts)) console.log(row.join(' | '));
