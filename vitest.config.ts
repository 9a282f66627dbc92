import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Two test files at a time (vitest's default is one on a 2-core machine): the suite mostly waits
    // on Postgres, Redis and child processes. On this machine it took 939 s one at a time and 725 s
    // two at a time, every test passing (2026-11-28), which keeps .ci/run well under 20 minutes.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A test that cannot reach Postgres or Redis fails; nothing is skipped.
    passWithNoTests: false,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: '.data/vitest-report.json' },
  },
});
