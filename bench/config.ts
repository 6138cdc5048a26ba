// What `npm run bench` measures, and how much of it.
export const BENCH = {
  /** Spawns per variant for cold start (median reported). */
  coldStartSpawns: 15,
  /** Calls per variant for per-call overhead, interleaved. */
  overheadCalls: 2_000,
  /** Calls per variant before measuring, so every path is past the JIT's warm-up. */
  warmupCalls: 300,
  /** Instruction counts under callgrind (bench/instructions.ts): cold-start runs per server (median), idle time. */
  instructions: { coldRuns: Number(process.env.BENCH_COLD_RUNS ?? 3), idleMs: 15_000 },
  /** Nodes counted beside the running one (fetched from the npm registry as scripts/node-version.ts does). */
  instructionNodes: (process.env.BENCH_INSTRUCTION_NODES ?? '24').split(',').filter(Boolean),
  /** Streamable HTTP load: seconds per level (BENCH_HTTP_SECONDS overrides) and concurrent clients per level. */
  httpSeconds: Number(process.env.BENCH_HTTP_SECONDS ?? 10),
  httpClients: [1, 16, 64],
  /** Targets from the benchmark issue; compared side by side in one run. */
  targets: {
    coldStartBundledVsFloor: 4,
    /** Our own code per call: our tool minus a bare tool on the same SDK making the same request (paired). */
    overheadOverBareToolMs: 0.25,
    toolsListTokens: 2_200,
    /** Every tool the model sees (the ten endpoint tools, investigate_botting and run_analysis). */
    allToolsListTokens: 3_400,
    listStreamers100TextShare: 0.35,
    listStreamers100JsonShare: 0.6,
  },
};
