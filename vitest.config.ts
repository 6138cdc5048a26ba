import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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
// The files that reach the server through test/helpers.ts `connect` and the simulator (format/{fidelity,
// budget,batch,results,hostile}, tools/{investigate,tokens,wire,inputs,invalid,properties,apps,analysis},
// api/resilience, e2e/{faults,hostile-upstream}, guidance) check each fact once, over modern-stdio against
// the simulator's dialect A: helpers.ts's defaults, which the behaviour project states, so they run in it
// beside the other files, on its workers. test/tools/channels.test.ts is the matrix that meets every
// protocol era, transport and dialect with a call of every tool, its errors and its outputSchema.
// The files of those with a test that meets the simulator's dialect (src/simulator/dialect.ts: the batch
// elements of analytics and complete, liveMetrics, an error body, /health; traced by wrapping the dialect's
// functions over one run): they run once more against dialect B, over legacy-http, so that the other
// protocol era and the other transport meet them too (the facts that name a channel: guidance.test.ts's
// era, invalid.test.ts's transport). Tests that call the tools' own code, not the server, run only on
// modern-stdio (FIRST_CHANNEL), as before, and so do those whose calls reach no upstream (`once` in
// test/tools/analysis.test.ts). Not here: batch, hostile and hostile-upstream, whose tests answer with bodies
// of their own, and properties, whose requests are the same in both dialects (a dialect names answers).
// Within the format files and the fault matrix (e2e/faults), the tests that meet nothing of the dialect run
// on the first channel only (a trace of the dialect's functions over a legacy-http-b run found them): facts
// about formatting and retries, the same over every channel.
const DIALECT_B = [
  'test/format/{fidelity,budget,results}.test.ts',
  'test/tools/{investigate,tokens,wire,inputs,invalid,apps,analysis}.test.ts',
  'test/api/resilience.test.ts',
  'test/e2e/faults.test.ts',
  'test/guidance.test.ts',
];

// The order the files start in. The pool runs them in this order, a file on each free worker, and a worker
// keeps its modules from one file to the next only while the next is of the same project (else it is ended
// and another started: seconds of a loaded machine). So the projects run one after another, legacy-http-b
// first (its files are few) and behaviour last (its many short files fill the workers' ends evenly), and
// within a project the longest first, so that no long file starts last. How long a file takes is vitest's
// record of the last run (node_modules/.vite) where there is one; a fresh clone has none, and takes SLOWEST's
// order (the files of 1.5 s or more on a 2-core machine, longest first), then the larger files first.
const PROJECT_ORDER = ['legacy-http-b', 'behaviour', 'load'];
const SLOWEST = [
  'test/e2e/store-faults.test.ts',
  'test/browser/board.test.ts',
  'test/e2e/http.test.ts',
  'test/e2e/history.test.ts',
  'test/analysis/limits.test.ts',
  'test/browser/chart.test.ts',
  'test/transports/http-limits.test.ts',
  'test/tools/analysis.test.ts',
  'test/format/large-bodies.test.ts',
  'test/browser/heatmap.test.ts',
  'test/e2e/faults.test.ts',
  'test/e2e/bundle.test.ts',
  'test/e2e/analysis-http.test.ts',
  'test/browser/readable.test.ts',
  'test/browser/evidence.test.ts',
  'test/api/client.test.ts',
  'test/e2e/stdio.test.ts',
  'test/tools/investigate.test.ts',
  'test/e2e/eras.test.ts',
  'test/tools/apps.test.ts',
  'test/tools/channels.test.ts',
  'test/browser/history.test.ts',
  'test/tools/properties.test.ts',
  'test/tools/invalid.test.ts',
  'test/docs.test.ts',
  'test/store/harden.test.ts',
];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const { cache, config } = this.ctx;
    const projectRank = (f: TestSpecification) => {
      const i = PROJECT_ORDER.indexOf(f.project.name);
      return i < 0 ? PROJECT_ORDER.length : i;
    };
    const path = (f: TestSpecification) => relative(config.root, f.moduleId);
    const recorded = (f: TestSpecification) =>
      cache.getFileTestResults(`${f.project.name}:${path(f)}`)?.duration;
    const listed = (f: TestSpecification) => {
      const i = SLOWEST.indexOf(path(f));
      return i < 0 ? SLOWEST.length : i;
    };
    const size = (f: TestSpecification) => cache.getFileStats(`${f.project.name}:${path(f)}`)?.size ?? 0;
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (projectRank(a) !== projectRank(b)) return projectRank(a) - projectRank(b);
      const [ra, rb] = [recorded(a), recorded(b)];
      if (ra !== undefined && rb !== undefined) return rb - ra;
      return listed(a) - listed(b) || size(b) - size(a);
    });
  }
}

export default defineConfig({
  test: {
    // The JSON report is what .ci/run counts from; the default reporter is for people.
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    sequence: { sequencer: LongestFirst },
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
          exclude: LOAD,
          // The first channel and dialect (helpers.ts's defaults), stated so that a shell's own never applies.
          env: { MCP_CHANNEL: 'modern-stdio', SIM_DIALECT: 'a' },
          sequence: { groupOrder: 0 },
          // No file here mocks, spies on or leaves changed what another imports (test/format/shape.test.ts
          // restores TZ; each starts its own simulator and server in its hooks), so a worker keeps the SDK,
          // zod, the server and the browser host page loaded from one file to the next instead of importing
          // them afresh for each (the project took 193 s instead of 296 s on a loaded 2-core machine, 95 s of
          // CPU instead of 118).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'legacy-http-b',
          include: DIALECT_B,
          env: { MCP_CHANNEL: 'legacy-http', SIM_DIALECT: 'b' },
          sequence: { groupOrder: 0 },
          // As in the behaviour project.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'load', include: LOAD, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
