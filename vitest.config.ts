import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The JSON report is what .ci/run counts from; the default reporter is for people.
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    testTimeout: 20_000,
    // test/api/memory.test.ts measures the heap after a forced collection.
    execArgv: ['--expose-gc'],
    hookTimeout: 30_000,
  },
});
