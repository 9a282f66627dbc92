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
/** A layer rule: no file under `from` imports a file under `to` (both path patterns). */
const layer = (name, comment, from, to) => ({ name, severity: 'error', comment, from: { path: from }, to: { path: to } });
const apart = 'The two process kinds share code only through shared/.';

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
    layer(
      'infra-stays-below',
      'shared/infra is the ground floor (config, db, queue, logging): it knows no noun and no platform piece.',
      '^shared/infra/',
      '^(shared/(domain|platform|app)|api|worker|bin)/',
    ),
    layer('platform-knows-no-noun', 'shared/platform is machinery several nouns use; it must not depend on any of them.', '^shared/platform/', '^(shared/(domain|app)|api|worker|bin)/'),
    layer('domain-below-app', 'shared/app is the composition root (services, runtime); the nouns never reach up into it.', '^shared/domain/', '^(shared/app|api|worker|bin)/'),
    layer(
      'changes-knows-no-noun',
      'The change feed reads objects through the readers each noun registers at composition (shared/app/change-readers.ts); ' +
        'it imports no noun but auth (the scopes that gate each kind).',
      '^shared/domain/changes/',
      '^shared/domain/(?!changes/|auth/|service[.]ts$)',
    ),
    layer('api-and-worker-apart', apart, '^api/', '^worker/'),
    layer('worker-and-api-apart', apart, '^worker/', '^api/'),
    layer('shared-knows-no-process', 'shared/ is what both processes use; it never reaches up into a process or the CLI.', '^shared/', '^(api|worker|bin)/'),
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
