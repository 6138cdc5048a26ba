import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every test process (and every server it spawns with its environment) keeps its default history store in a
// data folder made for this run, never in the real home's ~/.local/share (or LocalAppData).
const DATA_HOME = mkdtempSync(join(tmpdir(), 'streamer-analytics-test-data-'));

// The load tests (soak, shares, hostile callers, memory) measure a server under load against the clock: they
// run alone, after the others, so that no other test file competes with them for the machine's two cores (a
// starved server times out upstream requests and opens its circuit breaker, which is right for it and wrong
// for the measurement; the memory test's 3,000 calls took 116 s beside the others on a loaded machine, 23 s
// alone).
const LOAD = [
  'test/e2e/soak.test.ts',
  'test/e2e/shares.test.ts',
  'test/e2e/hostile-callers.test.ts',
  'test/api/memory.test.ts',
];
// The files that reach the server through test/helpers.ts `connect` and the simulator. Each fact is checked
// once, over modern-stdio against the simulator's dialect A; test/tools/channels.test.ts is the matrix that
// meets every protocol era, transport and dialect with a call of every tool, its errors and its outputSchema.
const SUITE = [
  'test/format/{fidelity,budget,batch,results,hostile}.test.ts',
  'test/tools/{investigate,tokens,wire,inputs,invalid,properties,apps,analysis}.test.ts',
  'test/api/resilience.test.ts',
  'test/e2e/{faults,hostile-upstream}.test.ts',
  'test/guidance.test.ts',
];
// The files of SUITE with a test that meets the simulator's dialect (src/simulator/dialect.ts: the batch
// elements of analytics and complete, liveMetrics, an error body, /health; traced by wrapping the dialect's
// functions over one run): they run once more against dialect B, over legacy-http, so that the other
// protocol era and the other transport meet them too (the facts that name a channel: guidance.test.ts's
// era, invalid.test.ts's transport). Tests that call the tools' own code, not the server, run only on
// modern-stdio (FIRST_CHANNEL), as before, and so do those whose calls reach no upstream (`once` in
// test/tools/analysis.test.ts). Not here: batch, hostile and hostile-upstream, whose tests answer with bodies
// of their own, and properties, whose requests are the same in both dialects (a dialect names answers).
const DIALECT_B = [
  'test/format/{fidelity,budget,results}.test.ts',
  'test/tools/{investigate,tokens,wire,inputs,invalid,apps,analysis}.test.ts',
  'test/api/resilience.test.ts',
  'test/e2e/faults.test.ts',
  'test/guidance.test.ts',
];

export default defineConfig({
  test: {
    // The JSON report is what .ci/run counts from; the default reporter is for people.
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    testTimeout: 20_000,
    env: { XDG_DATA_HOME: DATA_HOME, LOCALAPPDATA: DATA_HOME },
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
          // As in the channel projects below: no file here mocks, spies on or leaves changed what another
          // imports (test/format/shape.test.ts restores TZ), so a worker keeps the SDK, zod, the server and
          // the browser host page loaded from one file to the next instead of importing them afresh for each
          // (the project took 193 s instead of 296 s on a loaded 2-core machine, 95 s of CPU instead of 118).
          isolate: false,
        },
      },
      ...[
        { name: 'modern-stdio-a', include: SUITE, channel: 'modern-stdio', dialect: 'a' },
        { name: 'legacy-http-b', include: DIALECT_B, channel: 'legacy-http', dialect: 'b' },
      ].map(({ name, include, channel, dialect }) => ({
        extends: true as const,
        test: {
          name,
          include,
          env: { MCP_CHANNEL: channel, SIM_DIALECT: dialect },
          sequence: { groupOrder: 0 },
          // These files share nothing but what they import (each starts its own simulator and server in
          // its hooks): a worker runs one after another without loading the SDK, zod and the server
          // afresh for each, which was half of their time.
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
