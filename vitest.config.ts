import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // One test file at a time (vitest's default on 2 cores). Two at a time was tried (2026-11-28):
    // CI then failed three tests that only fail on an overloaded machine (a 5 s connect time-out,
    // a terminated backend's error reaching the next test), so the suite stays serial.
    maxWorkers: 1,
    // The files share that one process and its module cache: importing the service's modules anew
    // for each of 178 files was 167 of the suite's 684 s (2026-11-28; 451 s without). No test file
    // mocks modules or sets process.env, and the suite passed in a shuffled order this way too.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A test that cannot reach Postgres or Redis fails; nothing is skipped.
    passWithNoTests: false,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: '.data/vitest-report.json' },
  },
});
