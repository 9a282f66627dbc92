import { defineConfig } from 'vitest/config';

/* Probes (`npm run probe:terminations`): long scenarios run as commands, never by npm test. */
export default defineConfig({
  test: {
    include: ['test/probe/**/*.probe.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 60_000,
    passWithNoTests: false,
  },
});
