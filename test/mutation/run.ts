import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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
    // The per-day rules live in calendar.days.ts (reading a day) and calendar.rules.ts (past, order).
    mutate: ['shared/domain/calendar/calendar.days.ts', 'shared/domain/calendar/calendar.rules.ts', 'shared/domain/calendar/calendar.schema.ts'],
    tests: [
      'test/unit/calendar-rules.test.ts',
      'test/unit/calendar-rules-edges.test.ts',
      'test/unit/calendar-days.property.test.ts',
      'test/unit/calendar-schema.test.ts',
      // The schema's OpenAPI metadata (types, enums, patterns, descriptions) is guarded here.
      'test/unit/openapi-document.test.ts',
      'test/integration/calendar-accept.test.ts',
    ],
  },
  wire: {
    mutate: ['shared/infra/http/wire.ts', 'shared/infra/http/validation.ts'],
    tests: ['test/unit/wire.test.ts', 'test/unit/wire-messages.test.ts', 'test/unit/validation.test.ts', 'test/unit/dates.test.ts'],
  },
  auth: {
    mutate: ['api/middleware/auth.ts', 'api/middleware/guard.ts', 'shared/domain/auth/scopes.ts'],
    tests: [
      'test/unit/auth-blocks.test.ts',
      'test/unit/scopes.test.ts',
      'test/integration/auth.test.ts',
      'test/integration/auth-throttle.test.ts',
      'test/integration/openapi-scopes.test.ts',
    ],
  },
  // The schedule part of update-task: what counts as a change of dt/tm/hr, and the new start/end.
  'tasks-schedule': {
    mutate: ['shared/domain/tasks/tasks.schedule.ts', 'shared/domain/tasks/tasks.service.ts:73-103'],
    tests: [
      'test/unit/tasks-schedule.test.ts',
      'test/integration/tasks-update-schedule.test.ts',
      'test/integration/tasks-update-cleaner.test.ts',
      'test/integration/tasks-update.test.ts',
    ],
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
    // mutant, as a cross-check.
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

interface Position {
  line: number;
  column: number;
}
interface Mutant {
  id: string;
  status: string;
  static?: boolean;
  coveredBy?: string[];
  statusReason?: string;
  replacement?: string;
  testsCompleted?: number;
  location: { start: Position; end: Position };
}
interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
  testFiles?: Record<string, { tests: unknown[] }>;
}

/** Offset of a 1-based line and column in a text. */
function offsetOf(text: string, at: Position): number {
  let offset = 0;
  for (let line = 1; line < at.line; line++) offset = text.indexOf('\n', offset) + 1;
  return offset + at.column - 1;
}

/**
 * Stryker 9.6's vitest runner scores a mutant that stops the code under test from starting (a
 * route table that throws, a module that fails to load: the tests of a file fail in its
 * `beforeAll` or at collection) as Survived, counting only the tests that did run and passed
 * (stryker-js#5492, #6213). A survivor that completed fewer tests than it should have (all of them
 * for a static mutant, its covering ones otherwise) is such a non-measurement: each one is applied
 * by hand in a copy of the project and the module's tests run on it with plain vitest; a failing
 * run makes it Killed. With `--check-survivors` every survivor is checked that way (slow: one
 * vitest run each), as a cross-check of the runner.
 */
function checkByHand(name: string, m: MutationModule, report: Report, all: boolean): string[] {
  const totalTests = Object.values(report.testFiles ?? {}).reduce((n, f) => n + f.tests.length, 0);
  const incomplete = (x: Mutant) => (x.testsCompleted ?? 0) < (x.static ? totalTests : (x.coveredBy?.length ?? 0));
  const suspects = Object.entries(report.files).flatMap(([file, f]) =>
    f.mutants.filter((x) => x.status === 'Survived' && (all || incomplete(x))).map((x) => ({ file, source: f.source, x })),
  );
  if (suspects.length === 0) return [];
  // Outside the project: a copy cannot go into a folder of what it copies.
  const sandbox = mkdtempSync(path.join(os.tmpdir(), `pops-mutate-${name}-`));
  cpSync(root, sandbox, { recursive: true, filter: (src) => !/[/\\](\.data|node_modules|\.git)$/.test(src) });
  symlinkSync(path.join(root, 'node_modules'), path.join(sandbox, 'node_modules'), 'dir');
  const lines: string[] = [];
  try {
    for (const { file, source, x } of suspects) {
      const target = path.join(sandbox, file);
      const mutated = source.slice(0, offsetOf(source, x.location.start)) + (x.replacement ?? '') + source.slice(offsetOf(source, x.location.end));
      writeFileSync(target, mutated);
      const run = spawnSync('npx', ['vitest', 'run', '-c', 'test/mutation/vitest.config.ts', '--bail', '1'], {
        cwd: sandbox,
        stdio: 'ignore',
        timeout: 600_000,
        env: { ...process.env, MUTATION_TESTS: m.tests.join(',') },
      });
      writeFileSync(target, source);
      const where = `${file}:${x.location.start.line}:${x.location.start.column}`;
      if (run.status !== 0) {
        x.status = 'Killed';
        x.statusReason = `killed by hand: the module's tests fail with it applied (vitest exit ${run.status ?? run.signal})`;
        lines.push(`  ${where} killed by hand`);
      } else {
        lines.push(`  ${where} survives by hand too`);
      }
    }
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
  return lines;
}

/** Stryker's score: killed and timed-out mutants over all the valid ones (covered or not). */
function score(report: Report) {
  const statuses = Object.values(report.files).flatMap((f) => f.mutants.map((m) => m.status));
  const count = (...s: string[]) => statuses.filter((x) => s.includes(x)).length;
  const detected = count('Killed', 'Timeout');
  const valid = count('Killed', 'Timeout', 'Survived', 'NoCoverage');
  return { detected, survived: count('Survived'), noCoverage: count('NoCoverage'), valid, score: valid ? (100 * detected) / valid : 100 };
}

const checkAllSurvivors = process.argv.includes('--check-survivors');
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
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
  const reportFile = path.join(out, `${name}.json`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
  const before = score(report);
  const checked = checkByHand(name, m, report, checkAllSurvivors);
  writeFileSync(reportFile, JSON.stringify(report));
  const s = score(report);
  summary.push(
    `${name}: ${s.score.toFixed(1)}% (${s.detected}/${s.valid} detected, ${s.survived} survived, ${s.noCoverage} not covered;` +
      ` Stryker alone ${before.score.toFixed(1)}%, ${checked.length} survivors checked by hand)`,
    ...checked,
  );
}
console.log(`\nMutation scores\n${summary.join('\n')}`);
