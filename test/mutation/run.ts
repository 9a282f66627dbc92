import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/*
 * `npm run mutate [module...]`: StrykerJS over the modules whose rules matter most, one module at a
 * time, each against only the test files that guard it (unit tests, and the integration files
 * where the rule is only reachable through the API). Not part of CI: it is CPU-heavy (one test
 * process, per-test coverage so each mutant reruns only the tests that reach it).
 */

interface MutationModule {
  mutate: string[];
  tests: string[];
}

export const mutationModules: Record<string, MutationModule> = {
  calendar: {
    mutate: ['shared/calendar/calendar.rules.ts', 'shared/calendar/calendar.schema.ts'],
    tests: ['test/unit/calendar-rules.test.ts', 'test/unit/calendar-rules-edges.test.ts', 'test/integration/calendar-accept.test.ts'],
  },
  wire: {
    mutate: ['shared/http/wire.ts', 'shared/http/validation.ts'],
    tests: ['test/unit/wire.test.ts', 'test/unit/wire-messages.test.ts', 'test/unit/validation.test.ts', 'test/unit/dates.test.ts'],
  },
  auth: {
    mutate: ['api/middleware/auth.ts', 'api/middleware/guard.ts', 'shared/auth/scopes.ts'],
    tests: ['test/integration/auth.test.ts'],
  },
  // The schedule part of update-task: what counts as a change of dt/tm/hr, and the new start/end.
  'tasks-schedule': {
    mutate: ['shared/tasks/tasks.schedule.ts', 'shared/tasks/tasks.service.ts:73-102'],
    tests: ['test/unit/tasks-schedule.test.ts', 'test/integration/tasks-update-schedule.test.ts', 'test/integration/tasks-update-cleaner.test.ts'],
  },
};

const allTests = process.argv.includes('--all-tests');
const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, '.data/mutation');

function strykerConfig(name: string, m: MutationModule) {
  return {
    $schema: '../../node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    testRunner: 'vitest',
    vitest: { configFile: 'test/mutation/vitest.config.ts', related: false },
    plugins: ['@stryker-mutator/vitest-runner'],
    mutate: m.mutate,
    // perTest reruns only the tests that reached a mutant; `--all-tests` runs every listed file per
    // mutant, as a cross-check. Either way Stryker 9.6 with vitest 4.1 here reports some mutants
    // Survived that fail tests when applied by hand (validation.ts:46 `if (false)` fails 7 unit
    // tests; calendar.schema.ts:52 `if (true)` fails 14 calendar-accept tests): scores are a floor.
    coverageAnalysis: allTests ? 'all' : 'perTest',
    concurrency: 1,
    // A loaded machine slows every run alike; a mutant that loops is still caught by the factor.
    timeoutMS: 20_000,
    timeoutFactor: 3,
    tempDirName: '.data/stryker-tmp',
    cleanTempDir: 'always',
    ignorePatterns: ['.data', 'bench', '.git'],
    reporters: ['progress-append-only', 'clear-text', 'json', 'html'],
    jsonReporter: { fileName: `.data/mutation/${name}.json` },
    htmlReporter: { fileName: `.data/mutation/${name}.html` },
    clearTextReporter: { allowEmojis: false, logTests: false, reportMutants: true, reportScoreTable: true },
  };
}

interface Report {
  files: Record<string, { mutants: Array<{ status: string }> }>;
}

/** Stryker's score: killed and timed-out mutants over all the valid ones (covered or not). */
function score(report: Report) {
  const statuses = Object.values(report.files).flatMap((f) => f.mutants.map((m) => m.status));
  const count = (...s: string[]) => statuses.filter((x) => s.includes(x)).length;
  const detected = count('Killed', 'Timeout');
  const valid = count('Killed', 'Timeout', 'Survived', 'NoCoverage');
  return { detected, survived: count('Survived'), noCoverage: count('NoCoverage'), valid, score: valid ? (100 * detected) / valid : 100 };
}

const wanted = process.argv.slice(2).filter((a) => a !== '--all-tests');
for (const name of wanted) if (!mutationModules[name]) throw new Error(`unknown module ${name}; known: ${Object.keys(mutationModules).join(', ')}`);
const names = wanted.length > 0 ? wanted : Object.keys(mutationModules);
mkdirSync(out, { recursive: true });
const summary: string[] = [];
for (const name of names) {
  const m = mutationModules[name] as MutationModule;
  const configFile = path.join(out, `${name}.stryker.json`);
  writeFileSync(configFile, JSON.stringify(strykerConfig(name, m), null, 2));
  const run = spawnSync('npx', ['stryker', 'run', configFile], { cwd: root, stdio: 'inherit', env: { ...process.env, MUTATION_TESTS: m.tests.join(',') } });
  if (run.status !== 0) {
    summary.push(`${name}: stryker exited ${run.status}`);
    continue;
  }
  const s = score(JSON.parse(readFileSync(path.join(out, `${name}.json`), 'utf8')) as Report);
  summary.push(`${name}: ${s.score.toFixed(1)}% (${s.detected}/${s.valid} detected, ${s.survived} survived, ${s.noCoverage} not covered)`);
}
console.log(`\nMutation scores\n${summary.join('\n')}`);
