// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
