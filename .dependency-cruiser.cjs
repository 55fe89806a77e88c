// The architecture's rules, checked by `npm run check:deps` (part of `npm test`): a violation fails
// the test run. ARCHITECTURE.md draws the rooms these rules keep apart.
/** Folders with an index.ts: the one door other rooms import them through. */
const ROOMS_WITH_A_DOOR = [
  'analysis',
  'engine',
  'errors',
  'fs',
  'heuristics',
  'llm',
  'plan',
  'port',
  'sandbox',
  'sources',
  'verify',
];
/** Capabilities: rooms the port workflow uses, which never import it. */
const CAPABILITIES = [
  'analysis',
  'debian',
  'engine',
  'errors',
  'fs',
  'heuristics',
  'llm',
  'optimize',
  'plan',
  'probe',
  'process',
  'recipes',
  'sandbox',
  'sources',
  'verify',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A file-level import cycle (type-only imports count): split the shared part into its own file.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file.',
      from: { path: '^src/' },
      to: { couldNotResolve: true, dependencyTypesNot: ['core'] },
    },
    {
      name: 'engine-has-no-dependencies',
      severity: 'error',
      comment: 'The graph engine uses Node.js alone: no npm package.',
      from: { path: '^src/engine/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'plan-is-pure',
      severity: 'error',
      comment: 'The plan room holds values every room shares: it imports no other room.',
      from: { path: '^src/plan/' },
      to: { path: '^src/', pathNot: '^src/plan/' },
    },
    {
      name: 'errors-is-pure',
      severity: 'error',
      comment:
        'The errors room holds the base every error extends: it imports no other room and no npm package.',
      from: { path: '^src/errors/' },
      to: {
        path: '^(src/|node_modules/)',
        pathNot: '^src/errors/',
      },
    },
    {
      name: 'capability-imports-workflow',
      severity: 'error',
      comment: 'A capability imports the port workflow (issue 36: it gets plan values, never PortState).',
      from: { path: `^src/(${CAPABILITIES.join('|')})/` },
      to: { path: '^src/port/' },
    },
    {
      name: 'deep-import',
      severity: 'error',
      comment: "An import into another room's files past its index.ts (issue 36: one door per room).",
      from: { path: '^src/([^/]+)/' },
      to: {
        path: `^src/(${ROOMS_WITH_A_DOOR.join('|')})/.+`,
        pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/[^/]+/testing/index\\.ts$'],
      },
    },
    {
      name: 'testing-door-for-tests',
      severity: 'error',
      comment: "A room's testing door (testing/index.ts) is for other rooms' test fixtures only.",
      from: { path: '^src/([^/]+)/', pathNot: '^src/[^/]+/testing/' },
      to: { path: '^src/[^/]+/testing/index\\.ts$', pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
