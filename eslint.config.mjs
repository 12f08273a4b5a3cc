import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import nextPlugin from '@next/eslint-plugin-next';

/** Packages the pure core (lib/tools, lib/workflow, lib/planner) must never import. */
export const PURE_CORE_BANNED = [
  {
    group: ['react', 'react/*', 'react-dom', 'react-dom/*'],
    message: 'The pure core imports no React (DESIGN §5).',
  },
  { group: ['next', 'next/*'], message: 'The pure core imports no Next.js (DESIGN §5).' },
  { group: ['@xyflow/*'], message: 'The pure core imports no React Flow (DESIGN §5).' },
  { group: ['zustand', 'zustand/*', 'zundo'], message: 'The pure core imports no zustand (DESIGN §5).' },
  {
    group: ['@prisma/*', 'prisma', '**/db/**', '**/generated/**'],
    message: 'The pure core imports no Prisma or database code (DESIGN §5).',
  },
  {
    group: ['openai', 'openai/*'],
    message: 'The pure core imports no openai SDK; use the injected port (DESIGN §5).',
  },
  { group: ['@modelcontextprotocol/*'], message: 'The pure core imports no MCP SDK (DESIGN §5).' },
  {
    group: ['server-only', '**/llm/**', '**/mcp/**', '**/editor/**', '**/components/**', '**/app/**'],
    message: 'The pure core imports no IO or UI modules (DESIGN §5).',
  },
  {
    group: ['node:*', 'fs', 'path', 'http', 'https', 'child_process', 'net'],
    message: 'The pure core does no IO (DESIGN §5).',
  },
];

/**
 * Direction inside the core: lib/tools (declarations, schemas) knows nothing of workflows or
 * planning, and lib/workflow (documents) knows nothing of the planner. The planner builds on
 * both, never the reverse.
 */
export const TOOLS_BANNED = [
  {
    group: ['**/workflow', '**/workflow/**', '**/planner', '**/planner/**'],
    message:
      'lib/tools imports neither lib/workflow nor lib/planner: the core points tools ← workflow ← planner.',
  },
];
export const WORKFLOW_BANNED = [
  {
    group: ['**/planner', '**/planner/**'],
    message: 'lib/workflow never imports lib/planner: the core points tools ← workflow ← planner.',
  },
];

export const PURE_CORE_FILES = [
  'lib/tools/**/*.ts',
  'lib/workflow/**/*.ts',
  'lib/planner/**/*.ts',
  'lib/toolkits/**/*.ts',
  'lib/run/**/*.ts',
  'tests/fuzz/**/*.ts',
  'lib/result.ts',
  'lib/plural.ts',
];

const LIB_NO_UI = {
  group: ['**/components/**', '**/app/**', '@/components/*', '@/app/*'],
  message: 'lib/ never imports components/ or app/ (STYLE.md).',
};

/** Test code (tests/, e2e/) never reaches the product: it would ship in the build (issue 13). */
export const NO_TEST_CODE = {
  group: ['**/tests/**', '@/tests/*', '**/e2e/**', '@/e2e/*'],
  message: 'Product code imports no test code (tests/, e2e/); move what both need into lib/.',
};

/** Browser code calls the API through lib/api (issue 13): one Result of {code, message, issues}. */
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

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
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
  {
    files: PURE_CORE_FILES,
    ignores: ['**/*.test.ts', '**/*.bench.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...PURE_CORE_BANNED, NO_TEST_CODE] }] },
  },
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
  // A later block replaces the rule's options rather than adding to them, so each repeats the
  // pure-core list.
  {
    files: ['lib/tools/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.bench.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...PURE_CORE_BANNED, ...TOOLS_BANNED, NO_TEST_CODE] }],
    },
  },
  {
    files: ['lib/workflow/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.bench.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...PURE_CORE_BANNED, ...WORKFLOW_BANNED, NO_TEST_CODE] },
      ],
    },
  },
);
