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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A test that cannot reach Postgres or Redis fails; nothing is skipped.
    passWithNoTests: false,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: '.data/vitest-report.json' },
  },
});
