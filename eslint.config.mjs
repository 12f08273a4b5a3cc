import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import nextPlugin from '@next/eslint-plugin-next';
import { builtinModules } from 'node:module';

// ---- the pure core's boundary (docs/architecture.md, "Layers") ----
//
// Every pure folder imports no IO, framework or UI package, no Node built-in, nothing outside
// the core but the shared pure files at lib/'s root, and of the core only the folders below it.
// It reads no `fetch`, `process` or other IO global, and loads nothing dynamically but a module
// of its own folder. tests/lint-rules.test.ts probes each folder with each kind.

/**
 * The core's folders, each with the core folders it may import: lib/tools knows nothing of the
 * others; lib/workflow builds on lib/tools; the planner, the test-run and the toolkits each
 * build on both and on none of one another.
 */
export const CORE_LAYERS = {
  tools: [],
  workflow: ['tools'],
  planner: ['tools', 'workflow'],
  run: ['tools', 'workflow'],
  toolkits: ['tools', 'workflow'],
};

/** Pure files at lib/'s root that every core folder may import. */
export const CORE_SHARED_FILES = ['lib/result.ts', 'lib/plural.ts', 'lib/lru.ts', 'lib/on-demand.ts'];

/**
 * The packages the core may import: pure computation on values, no IO. validator and chrono-node
 * let the offline planner read e-mail addresses, URLs, dates and times by kind.
 */
export const CORE_PACKAGES = [
  'ajv',
  'ajv-formats',
  'jsonc-parser',
  'jsonrepair',
  '@noble/hashes',
  're2js',
  'validator',
  'chrono-node',
];
/** What the core's own test fixtures (`__fixtures__`) may import besides. */
const CORE_FIXTURE_PACKAGES = ['fast-check'];

/**
 * Folders outside the core (under lib/ or at the root): IO at the edge, UI, routes, the CLI,
 * tests and tooling. The core imports none of them, by a relative path or by `@/`.
 */
export const OUTSIDE_CORE = [
  'server',
  'server-context',
  'editor',
  'db',
  'generated',
  'llm',
  'mcp',
  'http',
  'queue',
  'api',
  'bench',
  'components',
  'app',
  'bin',
  'tests',
  'e2e',
  'scripts',
];

const alternatives = (names) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

/** Packages the core must not import, by kind: each `regex` matches the import's source. */
export const CORE_BANNED_PACKAGES = [
  {
    regex: '^(react|react-dom)(/|$)',
    message: 'The pure core imports no React: views are components/, the store is lib/editor.',
  },
  { regex: '^next(/|$)', message: 'The pure core imports no Next.js: routes are app/.' },
  { regex: '^@xyflow/', message: 'The pure core imports no React Flow: lib/editor/adapters.ts maps to it.' },
  { regex: '^(zustand|zundo)(/|$)', message: 'The pure core imports no zustand: the store is lib/editor.' },
  {
    regex: '^(@prisma/|prisma(/|$)|pg(/|$)|pg-boss(/|$)|@electric-sql/|pglite-prisma-adapter(/|$))',
    message: 'The pure core imports no database package (Prisma, pg, pg-boss, PGlite): queries are lib/db.',
  },
  {
    regex: '^openai(/|$)',
    message: 'The pure core imports no openai SDK: the planner talks through the ModelPort lib/llm gives it.',
  },
  {
    regex: '^@modelcontextprotocol/',
    message: 'The pure core imports no MCP SDK: lib/mcp calls servers, through the port lib/run is given.',
  },
  { regex: '^server-only$', message: 'The pure core is not server-only: it runs in the browser too.' },
  {
    regex: `^(node:|(${alternatives(NODE_BUILTINS)})(/|$))`,
    message: 'The pure core imports no Node built-in: it does no IO (files, network, processes, the OS).',
  },
];

/** Any other package not cleared for the core. */
const OTHER_PACKAGES = (allowed) => ({
  regex: `^(?![.#]|@/)(?!(${alternatives(allowed)})(/|$))${CORE_BANNED_PACKAGES.map(
    (p) => `(?!${p.regex.slice(1)})`,
  ).join('')}`,
  message: `The pure core imports only the packages cleared for it (${allowed.join(', ')}); one that does IO belongs at the edge (lib/db, lib/llm, lib/mcp), and a new pure one is added to CORE_PACKAGES in eslint.config.mjs.`,
});

/**
 * A relative or `@/` import that leaves the file's folder into one of `folders` (under lib/ or at
 * the root): after the `../` that climb out of it, the first folder named is one of them. A
 * module of the folder's own that happens to share a name (lib/tools/formats/mcp.ts) is not.
 * `fromLibRoot`: for files at lib/'s root, whose `./` already names lib/'s folders.
 */
const pathThrough = (folders, fromLibRoot = false) =>
  `^((\\.\\./)+|@/${fromLibRoot ? '|\\./' : ''})(lib/)?(${alternatives(folders)})(/|\\.|$)`;

const getOutsidePattern = (fromLibRoot = false) => ({
  regex: pathThrough(OUTSIDE_CORE, fromLibRoot),
  message:
    'The pure core imports nothing outside it (lib/server, lib/editor, lib/db, lib/llm, lib/mcp, lib/http, lib/queue, lib/api, components/, app/, bin/, tests/, e2e/, scripts/): pass what it needs in from there.',
});

/** The core folders `folder` may not import, as a pattern. */
function getLayerPattern(folder, fromLibRoot = false) {
  const below = CORE_LAYERS[folder];
  const banned = Object.keys(CORE_LAYERS).filter((other) => other !== folder && !below.includes(other));
  return {
    regex: pathThrough(banned, fromLibRoot),
    message: `lib/${folder} imports ${below.length ? `only ${below.map((b) => `lib/${b}`).join(' and ')} of the core` : 'no other core folder'}: the core points tools ← workflow ← {planner, run, toolkits}.`,
  };
}

/** Globals that reach outside the process's own values. */
export const CORE_BANNED_GLOBALS = [
  { name: 'fetch', message: 'The pure core does no IO: fetch at the edge and pass the data in.' },
  {
    name: 'process',
    message: 'The pure core reads no process state (env, cwd, argv): pass configuration in from the IO edge.',
  },
  ...[
    'require',
    'Buffer',
    '__dirname',
    '__filename',
    'globalThis',
    'window',
    'document',
    'navigator',
    'localStorage',
    'sessionStorage',
    'indexedDB',
    'XMLHttpRequest',
    'WebSocket',
    'EventSource',
  ].map((name) => ({ name, message: `The pure core does no IO and uses no host global ("${name}").` })),
];

const CORE_DYNAMIC_IMPORTS = {
  // A module of its own folder, loaded on demand; anything else goes through the static rules.
  selector: 'ImportExpression:not([source.value=/^\\.\\x2F(?!.*\\.\\.)/])',
  message: 'The pure core loads dynamically only a module of its own folder (`import("./x")`).',
};

/**
 * The lint rules of one core folder, or of the shared files at lib/'s root (`folder` undefined:
 * they import no core folder, as lib/tools).
 */
function getCoreRules(folder, packages) {
  const fromLibRoot = folder === undefined;
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...CORE_BANNED_PACKAGES,
          OTHER_PACKAGES(packages),
          getOutsidePattern(fromLibRoot),
          fromLibRoot
            ? {
                regex: pathThrough(Object.keys(CORE_LAYERS), true),
                message:
                  "The shared files at lib/'s root import no core folder: every core folder imports them.",
              }
            : getLayerPattern(folder),
        ],
      },
    ],
    'no-restricted-globals': ['error', ...CORE_BANNED_GLOBALS],
    'no-restricted-syntax': ['error', CORE_DYNAMIC_IMPORTS],
  };
}

const CORE_TESTS = ['**/*.test.ts', '**/*.bench.ts'];

/** One block per core folder (its product files, then its fixtures), and the shared files. */
const CORE_BLOCKS = [
  ...Object.keys(CORE_LAYERS).flatMap((folder) => [
    {
      files: [`lib/${folder}/**/*.ts`],
      ignores: [...CORE_TESTS, '**/__fixtures__/**'],
      rules: getCoreRules(folder, CORE_PACKAGES),
    },
    {
      files: [`lib/${folder}/**/__fixtures__/**/*.ts`],
      ignores: CORE_TESTS,
      rules: getCoreRules(folder, [...CORE_PACKAGES, ...CORE_FIXTURE_PACKAGES]),
    },
  ]),
  { files: CORE_SHARED_FILES, rules: getCoreRules(undefined, CORE_PACKAGES) },
];

/**
 * The fuzz properties (tests/fuzz) import every core folder, but do no IO either: they run in
 * the fuzz runner's workers with nothing but the core.
 */
const FUZZ_BLOCK = {
  files: ['tests/fuzz/**/*.ts'],
  ignores: CORE_TESTS,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...CORE_BANNED_PACKAGES,
          OTHER_PACKAGES([...CORE_PACKAGES, ...CORE_FIXTURE_PACKAGES]),
          { ...getOutsidePattern(), regex: pathThrough(OUTSIDE_CORE.filter((f) => f !== 'tests')) },
        ],
      },
    ],
    'no-restricted-globals': ['error', ...CORE_BANNED_GLOBALS],
  },
};

const LIB_NO_UI = {
  group: ['**/components/**', '**/app/**', '@/components/*', '@/app/*'],
  message: 'lib/ never imports components/ or app/ (docs/design.md §11.1).',
};

/** Test code (tests/, e2e/) never reaches the product: it would ship in the build. */
export const NO_TEST_CODE = {
  group: ['**/tests/**', '@/tests/*', '**/e2e/**', '@/e2e/*'],
  message: 'Product code imports no test code (tests/, e2e/); move what both need into lib/.',
};

/** Browser code calls the API through lib/api: one Result of {code, message, issues}. */
export const NO_RAW_FETCH = {
  name: 'fetch',
  message:
    'Call the API through lib/api (workflows.ts, toolkits.ts, plan.ts), which reads every answer and error alike.',
};

/** The product tree: what `next build` and the CLI can reach. */
export const PRODUCT_FILES = [
  'app/**/*.ts',
  'app/**/*.tsx',
  'components/**/*.ts',
  'components/**/*.tsx',
  'lib/**/*.ts',
  'lib/**/*.tsx',
  'bin/**/*.ts',
  'proxy.ts',
];

/** Tests and their fixtures, which may read the shared fixtures under tests/. */
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/*.bench.ts', '**/__fixtures__/**'];

// ---- size (docs/design.md §11.4) ----

/** Hard limits for product code, blank lines and comments not counted: past them, split. */
export const MAX_FILE_LINES = 600;
export const MAX_FUNCTION_LINES = 150;
/** Where the size limits hold: the product tree and the scripts that build, run and measure it. */
const SIZED_FILES = [...PRODUCT_FILES, 'scripts/**/*.ts', 'scripts/**/*.mjs'];
const SIZE_BLOCK = {
  files: SIZED_FILES,
  ignores: TEST_FILES,
  rules: {
    'max-lines': ['error', { max: MAX_FILE_LINES, skipBlankLines: true, skipComments: true }],
    'max-lines-per-function': [
      'error',
      { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true, IIFEs: true },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'dist/**',
      '.data/**',
      'lib/db/generated/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      'tests/lint-fixtures/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [LIB_NO_UI] }] },
  },
  {
    files: PRODUCT_FILES,
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE] }] },
  },
  {
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [LIB_NO_UI, NO_TEST_CODE] }] },
  },
  ...CORE_BLOCKS,
  FUZZ_BLOCK,
  SIZE_BLOCK,
  {
    // The browser reaches the API through lib/api only: one reader of answers and errors.
    files: ['components/**/*.ts', 'components/**/*.tsx', 'lib/editor/**/*.ts', 'lib/editor/**/*.tsx'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-globals': ['error', NO_RAW_FETCH] },
  },
  // One way to treat keys from outside (lib/tools/json-value.ts, docs/architecture.md): records
  // without a prototype, and getMember/hasMember for a record of unknown origin. A hand-written
  // own-member check is the sign of a record made the other way.
  {
    files: PRODUCT_FILES,
    ignores: [...TEST_FILES, 'lib/tools/json-value.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['hasOwn', 'hasOwnProperty'].map((property) => ({
          property,
          message:
            'Records keyed by outside names have no prototype (createRecord, parseJson, cloneJson in lib/tools/json-value.ts); a record of unknown origin is read with getMember/hasMember.',
        })),
      ],
    },
  },
);
