// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What makes a test's world: only test/support calls these (see the test-world block below). */
const worldMakers =
  '/^(createTestDatabase|createTestRuntime|startTestApi|startPipeline|testQueueConnection|testClusterQueueConnection|startRedisCluster|createApp|createRuntime|startApiServer|startWorker)$/';

export default tseslint.config(
  { ignores: ['node_modules/**', 'drizzle/**', '.data/**', 'eslint.config.js', '.dependency-cruiser.cjs', 'api/console/static/**', 'sdk/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // Tests read JSON bodies loosely; the assertions are what type-check them.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // One test world (issue 34 item 6): a test file gets its database, API, pipeline, runtimes,
    // servers, queues and workers from useWorld (test/support/world.ts) and its tools, which close
    // them after the file. Only test/support makes them. Not covered: the fault and HA harness
    // (test/faults/*.ts but its *.test.ts, `npm run test:faults` / `npm run ha`: it runs the service
    // as processes over a database and Redis of its own) and bench/ (benchmarks, not tests).
    files: ['test/**/*.test.ts', 'test/probe/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportSpecifier[imported.name=${worldMakers}], CallExpression[callee.name=${worldMakers}], Property[key.name=${worldMakers}]`,
          message: 'Tests get databases, APIs, pipelines, runtimes, servers, queues and workers from useWorld (test/support/world.ts) and its tools (startApi, runtime, startWorker, startServer, queue, database, connect, deadDatabase).',
        },
        {
          selector: 'Literal[value=/create database/i], TemplateElement[value.raw=/create database/i]',
          message: 'A test database comes from useWorld (test/support/world.ts): useWorld({ blank: true }) or world.database() for one of its own.',
        },
      ],
    },
  },
  {
    // A noun's public surface is its folder's index.ts (shared/domain/<noun>/index.ts): code outside
    // the folder imports from there. The drizzle schema and metrics (shared/infra) read a noun's leaf
    // files (enums, warning texts) directly, so that no import cycle runs through an index.
    files: ['**/*.ts'],
    ignores: ['shared/domain/**', 'shared/infra/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '/domain/[^/]+/(?!index\\.js$)[^/]+$', message: 'Import a domain noun through its index.js.' },
            { regex: '/platform/[^/]+/(?!index\\.js$)[^/]+$', message: 'Import a platform piece through its index.js.' },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/domain/*/**/*.ts', 'shared/platform/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$)[^/]+$', message: 'Import another noun (or platform piece) through its index.js.' },
            { regex: '/platform/[^/]+/(?!index\\.js$)[^/]+$', message: 'Import a platform piece through its index.js.' },
          ],
        },
      ],
    },
  },
);
