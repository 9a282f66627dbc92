import { describe, expect, it } from 'vitest';
import { CONFIG_ERROR_EXIT_CODE } from '../../shared/infra/config.js';
import { runEntry } from '../support/cli.js';

const entries: Array<[string, string[]]> = [
  ['bin/start.ts', []],
  ['bin/api.ts', []],
  ['bin/worker.ts', []],
  ['bin/migrate.ts', []],
  ['bin/cli.ts', ['company', 'create', '--name', 'X']],
];

/** Nothing that could reach a real service: the processes must stop before connecting anywhere. */
const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: '/nonexistent/pops-config-test' };

describe('a bad configuration', () => {
  it('stops every process kind the same way: one plain message naming each bad key, exit code 2', async () => {
    const env = { ...baseEnv, LOG_LEVEL: 'bogus', PORT: 'eighty', DATABASE_URL: 'postgres://127.0.0.1:1/none' };
    const runs = await Promise.all(entries.map(([script, args]) => runEntry(script, args, env)));
    runs.forEach((run, i) => {
      const name = entries[i]![0];
      expect(run.code, `${name}: ${run.stderr}`).toBe(CONFIG_ERROR_EXIT_CODE);
      expect(run.stderr, name).toMatch(/^Invalid environment:\n {2}PORT: .*\n {2}LOG_LEVEL: .*\n$/);
      expect(run.stdout, name).toBe('');
    });
  }, 180_000);

  it('is also how api, worker and migrate refuse to run without DATABASE_URL', async () => {
    const needDatabase = entries.filter(([script]) => ['bin/api.ts', 'bin/worker.ts', 'bin/migrate.ts'].includes(script));
    const runs = await Promise.all(needDatabase.map(([script, args]) => runEntry(script, args, baseEnv)));
    runs.forEach((run, i) => {
      const name = needDatabase[i]![0];
      expect(run.code, `${name}: ${run.stderr}`).toBe(CONFIG_ERROR_EXIT_CODE);
      expect(run.stderr, name).toMatch(/^[^\n]*needs DATABASE_URL[^\n]*\n$/);
    });
  }, 180_000);
});
