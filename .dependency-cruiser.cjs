/**
 * The import rules of the layers (issue 34). `npm run deps` checks them; `npm run check` runs it
 * before the tests, so a new import circle or a layer crossed fails the build.
 *
 *   bin ─┬─> api ──┐
 *        └─> worker ┴─> shared/app ─> shared/domain ─> shared/platform ─> shared/infra
 *
 * A layer imports only layers below it (docs/architecture.md "Layers"); api and worker never
 * import each other; no file takes part in an import circle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a loop cannot be read, tested or moved one at a time.',
      from: { path: '^(api|worker|shared|bin)/' },
      to: { circular: true },
    },
    {
      name: 'infra-stays-below',
      severity: 'error',
      comment: 'shared/infra is the ground floor (config, db, queue, logging): it knows no noun and no platform piece.',
      from: { path: '^shared/infra/' },
      to: { path: '^(shared/(domain|platform|app)|api|worker|bin)/' },
    },
    {
      name: 'platform-knows-no-noun',
      severity: 'error',
      comment: 'shared/platform is machinery several nouns use; it must not depend on any of them.',
      from: { path: '^shared/platform/' },
      to: { path: '^(shared/(domain|app)|api|worker|bin)/' },
    },
    {
      name: 'domain-below-app',
      severity: 'error',
      comment: 'shared/app is the composition root (services, runtime); the nouns never reach up into it.',
      from: { path: '^shared/domain/' },
      to: { path: '^(shared/app|api|worker|bin)/' },
    },
    {
      name: 'changes-knows-no-noun',
      severity: 'error',
      comment:
        'The change feed reads objects through the readers each noun registers at composition (shared/app/change-readers.ts); ' +
        'it imports no noun but auth (the scopes that gate each kind).',
      from: { path: '^shared/domain/changes/' },
      to: { path: '^shared/domain/(?!changes/|auth/|service[.]ts$)' },
    },
    {
      name: 'api-and-worker-apart',
      severity: 'error',
      comment: 'The two process kinds share code only through shared/.',
      from: { path: '^api/' },
      to: { path: '^worker/' },
    },
    {
      name: 'worker-and-api-apart',
      severity: 'error',
      comment: 'The two process kinds share code only through shared/.',
      from: { path: '^worker/' },
      to: { path: '^api/' },
    },
    {
      name: 'shared-knows-no-process',
      severity: 'error',
      comment: 'shared/ is what both processes use; it never reaches up into a process or the CLI.',
      from: { path: '^shared/' },
      to: { path: '^(api|worker|bin)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|bench|sdk|drizzle)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
