import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The load tests (soak, shares, hostile callers, memory) measure a server under load against the clock: they
// run alone, after the others, so that no other test file competes with them for the machine's two cores (a
// starved server times out upstream requests and opens its circuit breaker, which is right for it and wrong
// for the measurement; the memory test's 2,000 calls passed its 60 s alongside the others on a loaded machine).
const LOAD = [
  'test/e2e/soak.test.ts',
  'test/e2e/shares.test.ts',
  'test/e2e/hostile-callers.test.ts',
  'test/api/memory.test.ts',
];
// The behaviour suite: the files that reach the server through test/helpers.ts `connect`. It runs once per
// channel: both protocol eras (a v2 client pinned to 2026-07-28, a v1 client on the 2025 handshake), each
// over stdio and over --http.
const SUITE = [
  'test/format/{fidelity,budget,batch,results,hostile}.test.ts',
  'test/tools/{investigate,tokens,wire,inputs,invalid,properties,apps,analysis}.test.ts',
  'test/api/resilience.test.ts',
  'test/e2e/{faults,hostile-upstream}.test.ts',
  'test/guidance.test.ts',
];
const CHANNELS = ['modern-stdio', 'modern-http', 'legacy-stdio', 'legacy-http'];
// The simulator's dialect per channel (src/simulator/dialect.ts), crossed so that each era and each
// transport meets both namings of what the document leaves unstated, without running the suite twice.
const DIALECT: Record<string, string> = {
  'modern-stdio': 'a',
  'modern-http': 'b',
  'legacy-stdio': 'b',
  'legacy-http': 'a',
};

export default defineConfig({
  test: {
    // The JSON report is what .ci/run counts from; the default reporter is for people.
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    testTimeout: 20_000,
    // Most of a test's time is spent waiting (on the simulator's latency, on a spawned server, on Chromium),
    // not computing: one file per core plus one keeps a 2-core machine busy, where vitest's default (one
    // worker per core, less one) runs the files one at a time.
    maxWorkers: availableParallelism() + 1,
    // test/api/memory.test.ts measures the heap after a forced collection.
    execArgv: ['--expose-gc'],
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'behaviour',
          include: ['test/**/*.test.ts'],
          exclude: [...LOAD, ...SUITE],
          sequence: { groupOrder: 0 },
        },
      },
      ...CHANNELS.map((channel) => ({
        extends: true as const,
        test: {
          name: channel,
          include: SUITE,
          env: { MCP_CHANNEL: channel, SIM_DIALECT: DIALECT[channel] ?? 'a' },
          sequence: { groupOrder: 0 },
          // These files share nothing but what they import (each starts its own simulator and server in
          // its hooks): a worker runs one after another without loading the SDK, zod and the server
          // afresh for each, which was half of a channel's time.
          isolate: false,
        },
      })),
      {
        extends: true,
        test: { name: 'load', include: LOAD, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
