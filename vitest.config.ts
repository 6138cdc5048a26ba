import { defineConfig } from 'vitest/config';

// The load tests (soak, memory) measure time and memory: they run alone, after the others, so that no
// other test file competes with them for the machine's two cores (a starved server times out upstream
// requests and opens its circuit breaker, which is right for it and wrong for the measurement).
const LOAD = ['test/e2e/soak.test.ts', 'test/api/memory.test.ts'];

export default defineConfig({
  test: {
    // The JSON report is what .ci/run counts from; the default reporter is for people.
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    testTimeout: 20_000,
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
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'load', include: LOAD, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
