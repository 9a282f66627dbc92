import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

/**
 * The suite as Stryker runs it for one module: only the test files that guard that module (listed
 * by test/mutation/run.ts in MUTATION_TESTS), no JSON report. Stryker itself forces one thread.
 * Built by hand, not with mergeConfig, which would append to `include` instead of replacing it.
 */
const tests = (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('MUTATION_TESTS is empty: run mutation testing through `npm run mutate`');

export default defineConfig({ ...base, test: { ...base.test, include: tests, reporters: ['default'], outputFile: undefined } });
