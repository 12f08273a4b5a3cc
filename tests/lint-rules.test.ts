import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import {
  CORE_LAYERS,
  CORE_PACKAGES,
  CORE_SHARED_FILES,
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
  OUTSIDE_CORE,
} from '../eslint.config.mjs';

const eslint = new ESLint({ cwd: process.cwd() });

async function getRestricted(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports');
}

async function getRestrictedImportMessages(code: string, filePath: string) {
  return (await getRestricted(code, filePath)).map((m) => m.message);
}

/** Every message of the pure core's rules, with its line. */
async function getCoreMessages(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => CORE_RULES.has(m.ruleId ?? ''));
}
const CORE_RULES = new Set(['no-restricted-imports', 'no-restricted-globals', 'no-restricted-syntax']);

/** Lints one import per line into `file`; the lines (1-based) no core rule refused. */
async function getAllowedLines(sources: readonly string[], file: string): Promise<string[]> {
  const code =
    sources.map((source, i) => `import * as m${i} from '${source}';`).join('\n') + '\nexport {};\n';
  const refused = new Set((await getCoreMessages(code, file)).map((m) => m.line));
  return sources.filter((_, i) => !refused.has(i + 1));
}

const FOLDERS = Object.keys(CORE_LAYERS) as (keyof typeof CORE_LAYERS)[];

/** Packages that do IO or belong to the framework or the UI, and two the core never cleared. */
const IO_PACKAGES = [
  'pg',
  'pg-boss',
  '@prisma/client',
  'prisma/config',
  '@electric-sql/pglite',
  'pglite-prisma-adapter',
  'openai',
  'openai/resources',
  '@modelcontextprotocol/sdk/client/index.js',
  'next/server',
  'next',
  'react',
  'react-dom/client',
  '@xyflow/react',
  'zustand',
  'zundo',
  'server-only',
  'rate-limiter-flexible',
  'undici',
];
const NODE_BUILTINS = [
  'node:fs',
  'node:os',
  'node:child_process',
  'node:net',
  'node:http',
  'fs',
  'fs/promises',
  'os',
  'child_process',
  'net',
  'http',
  'https',
  'path',
  'dns',
  'worker_threads',
  'crypto',
];
/** Outside the core, as a file at lib/<folder>/<name>.ts and at lib/<folder>/sub/<name>.ts spell it. */
const OUTSIDE = [
  'server/compress',
  'server-context',
  'editor/store',
  'db/client',
  'db/generated/client',
  'llm/chat',
  'mcp/client',
  'http/errors',
  'queue/boss',
  'api/client',
  'bench/pages',
];
const OUTSIDE_ROOT = [
  'components/canvas/x',
  'app/api/x/route',
  'bin/cli',
  'tests/fuzz',
  'e2e/x',
  'scripts/load',
];
const outsideSources = (depth: number) => {
  const up = '../'.repeat(depth);
  return [
    ...OUTSIDE.map((p) => `${up}${p}`),
    ...OUTSIDE_ROOT.map((p) => `${up}../${p}`),
    ...OUTSIDE.map((p) => `@/lib/${p}`),
    ...OUTSIDE_ROOT.map((p) => `@/${p}`),
  ];
};
/** The core folders `folder` may not import: everything but itself and the folders below it. */
const above = (folder: keyof typeof CORE_LAYERS) =>
  FOLDERS.filter((other) => other !== folder && !(CORE_LAYERS[folder] as readonly string[]).includes(other));

describe('the pure-core boundary', () => {
  it('puts every folder the core could reach on one side or the other', () => {
    // A new folder must be classified in eslint.config.mjs, or the core could import it unseen.
    const known = new Set([...FOLDERS, ...OUTSIDE_CORE]);
    const libEntries = readdirSync('lib', { withFileTypes: true })
      .filter((e) => (e.isDirectory() || e.name.endsWith('.ts')) && !e.name.endsWith('.test.ts'))
      .map((e) => e.name.replace(/\.ts$/, ''));
    const shared = new Set(CORE_SHARED_FILES.map((f) => f.replace(/^lib\/|\.ts$/g, '')));
    expect(libEntries.filter((name) => !known.has(name) && !shared.has(name))).toEqual([]);
    // Folders .gitignore names (node_modules, Playwright's test-results, …) are made by tools, not code.
    const ignored = new Set(
      readFileSync('.gitignore', 'utf8')
        .split('\n')
        .map((line) => line.trim().replace(/^\/|\/$/g, ''))
        .filter((line) => /^[\w.-]+$/.test(line)),
    );
    const rootFolders = readdirSync('.', { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !ignored.has(e.name))
      .map((e) => e.name);
    // docs, prisma (schema and SQL) and public (JSON Schemas the core reads) hold no code to import.
    expect(
      rootFolders.filter((name) => !known.has(name) && !['lib', 'docs', 'prisma', 'public'].includes(name)),
    ).toEqual([]);
  });

  it('clears or refuses every dependency the app has', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string>>;
    const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
    const allowed = await getAllowedLines(names, 'lib/workflow/probe.ts');
    expect(allowed.sort()).toEqual([...CORE_PACKAGES].sort());
  });

  it('layers the core as docs/architecture.md draws it: tools ← workflow ← {planner, run, toolkits}', async () => {
    expect(JSON.stringify(CORE_LAYERS)).toBe(
      JSON.stringify({
        tools: [],
        workflow: ['tools'],
        planner: ['tools', 'workflow'],
        run: ['tools', 'workflow'],
        toolkits: ['tools', 'workflow'],
      }),
    );
    expect(await getAllowedLines(['../run/arguments', '@/lib/run/types'], 'lib/tools/probe.ts')).toEqual([]);
    expect(await getAllowedLines(['../planner/loop', '../toolkits/drift'], 'lib/run/probe.ts')).toEqual([]);
  });

  it('names what each refused import is', async () => {
    const sources = ['react', 'pg', 'node:os', '../server/compress', '../editor/store', 'left-pad'];
    const code =
      sources.map((source, i) => `import * as m${i} from '${source}';`).join('\n') + '\nexport {};\n';
    const messages = (await getCoreMessages(code, 'lib/workflow/probe.ts')).map((m) => [m.line, m.message]);
    expect(messages).toEqual([
      [1, expect.stringContaining('imports no React')],
      [2, expect.stringContaining('imports no database package')],
      [3, expect.stringContaining('imports no Node built-in')],
      [4, expect.stringContaining('imports nothing outside it')],
      [5, expect.stringContaining('imports nothing outside it')],
      [6, expect.stringContaining('only the packages cleared for it')],
    ]);
  });

  describe.each(FOLDERS)('lib/%s', (folder) => {
    const file = `lib/${folder}/probe.ts`;
    const nested = `lib/${folder}/sub/probe.ts`;

    it('refuses each IO, framework or UI package', async () => {
      expect(await getAllowedLines(IO_PACKAGES, file)).toEqual([]);
    });

    it('refuses each Node built-in, with and without node:', async () => {
      expect(await getAllowedLines(NODE_BUILTINS, file)).toEqual([]);
    });

    it('refuses code outside the core: the IO edge, the editor, routes, the CLI, tests and scripts', async () => {
      expect(await getAllowedLines(outsideSources(1), file)).toEqual([]);
      expect(await getAllowedLines(outsideSources(2), nested)).toEqual([]);
    });

    it('refuses the core folders above or beside it, and allows those below', async () => {
      const banned = above(folder);
      const sources = (depth: number) =>
        banned.flatMap((b) => [
          `${'../'.repeat(depth)}${b}/types`,
          `${'../'.repeat(depth)}${b}`,
          `@/lib/${b}/x`,
        ]);
      expect(await getAllowedLines(sources(1), file)).toEqual([]);
      expect(await getAllowedLines(sources(2), nested)).toEqual([]);
      const below = CORE_LAYERS[folder].flatMap((b) => [`../${b}/types`, `@/lib/${b}/types`]);
      expect(await getAllowedLines(below, file)).toEqual(below);
      const messages = await getCoreMessages(
        `import x from '../${banned[0] ?? 'tools'}/y';\nexport { x };\n`,
        file,
      );
      if (banned.length > 0)
        expect(messages.map((m) => m.message).join('\n')).toContain(`lib/${folder} imports`);
    });

    it.each([
      ['fetch', "export const load = () => fetch('https://example.org');"],
      ['process', 'export const secret = process.env.SECRET;'],
      ['globalThis', "export const load = () => globalThis.fetch('https://example.org');"],
      ['require', "export const fs = require('fs');"],
      ['Buffer', "export const bytes = Buffer.from('x');"],
    ])('refuses the %s global', async (name, code) => {
      const messages = await getCoreMessages(`${code}\n`, file);
      expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-globals']);
      expect(messages[0].message).toContain(name === 'process' ? 'pass configuration in' : 'IO');
    });

    it('refuses a dynamic import of anything but a module of its own folder', async () => {
      const code = [
        "export const a = () => import('pg');",
        "export const b = () => import('../db/client');",
        "export const c = () => import('./x/../../mcp/client');",
        'export const d = (name: string) => import(name);',
      ].join('\n');
      expect((await getCoreMessages(code, file)).map((m) => [m.line, m.ruleId])).toEqual([
        [1, 'no-restricted-syntax'],
        [2, 'no-restricted-syntax'],
        [3, 'no-restricted-syntax'],
        [4, 'no-restricted-syntax'],
      ]);
    });

    it('passes ordinary pure code', async () => {
      const code = [
        "import Ajv from 'ajv';",
        "import { parse } from 'jsonc-parser';",
        "import { err, ok, type Result } from '../result';",
        "import { countOf } from '../plural';",
        "import { helper } from './helper';",
        "import { deeper } from './formats/deeper';",
        "import schema from '../../public/schemas/workflow.v1.schema.json';",
        ...CORE_LAYERS[folder].map((b) => `import * as ${b} from '../${b}/types';`),
        "export const later = () => import('./on-demand-part');",
        'export function read(text: string, document: { title: string }): Result<unknown, string> {',
        '  const when = Date.now() + Math.random();',
        '  return text ? ok(JSON.parse(text) ?? [document.title, when]) : err(countOf(0, "x"));',
        '}',
        'export const all = [Ajv, parse, helper, deeper, schema];',
      ].join('\n');
      expect(await getCoreMessages(code + '\n', file)).toEqual([]);
    });
  });

  it("holds the shared files at lib/'s root to the same rules, importing no core folder", async () => {
    expect(
      await getAllowedLines(['pg', 'node:fs', './db/client', './tools/types', './result'], 'lib/result.ts'),
    ).toEqual(['./result']);
  });

  it('allows the same imports outside the core', async () => {
    const code =
      "import { useState } from 'react';\nimport pg from 'pg';\nexport const x = [useState, pg];\n";
    expect(await getCoreMessages(code, 'components/probe.tsx')).toEqual([]);
    expect(await getCoreMessages("import pg from 'pg';\nexport const x = pg;\n", 'lib/db/probe.ts')).toEqual(
      [],
    );
  });

  it("lets the core's own tests and fixtures use test tooling, and its fixtures nothing else", async () => {
    expect(
      await getAllowedLines(
        ['node:fs', 'fast-check', '@modelcontextprotocol/sdk/client/index.js'],
        'lib/run/probe.test.ts',
      ),
    ).toHaveLength(3);
    expect(
      await getAllowedLines(['fast-check', 'node:fs', '../db/client'], 'lib/run/__fixtures__/probe.ts'),
    ).toEqual(['fast-check']);
  });
});

describe('the no-test-code rule', () => {
  // The core's own rule refuses tests/ too (the pure-core boundary above).
  const productFiles = [
    'lib/editor/probe.ts',
    'lib/mcp/probe.ts',
    'app/api/probe/route.ts',
    'components/probe.tsx',
    'bin/probe.ts',
  ];

  it.each(productFiles)('fails %s when it imports the fuzz properties', async (file) => {
    const code = "import { FUZZ_TARGETS } from '@/tests/fuzz';\nexport const x = FUZZ_TARGETS;\n";
    expect((await getRestrictedImportMessages(code, file)).join('\n')).toContain('imports no test code');
  });

  it('fails a relative import of tests/ from lib/', async () => {
    const code =
      "import { workflowDraft } from '../../tests/fuzz/workflows';\nexport const x = workflowDraft;\n";
    const messages = await getRestrictedImportMessages(code, 'lib/editor/probe.ts');
    expect(messages.join('\n')).toContain('imports no test code');
  });

  it('still keeps lib/ from importing components/ next to it', async () => {
    const code =
      "import { Canvas } from '@/components/canvas/workflow-canvas';\nimport { x } from '@/tests/fuzz';\nexport const y = [Canvas, x];\n";
    const messages = await getRestrictedImportMessages(code, 'lib/editor/probe.ts');
    expect(messages).toHaveLength(2);
  });

  it('allows tests to import test code', async () => {
    const code = "import { FUZZ_TARGETS } from '@/tests/fuzz';\nexport const x = FUZZ_TARGETS;\n";
    expect(await getRestrictedImportMessages(code, 'lib/workflow/probe.test.ts')).toEqual([]);
    expect(await getRestrictedImportMessages(code, 'scripts/probe.ts')).toEqual([]);
  });
});

describe('the one-API-client rule', () => {
  async function getRestrictedGlobals(code: string, filePath: string) {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-globals').map((m) => m.message);
  }
  const call = "export async function load() {\n  return fetch('/api/workflows');\n}\n";

  it.each(['components/save/probe.tsx', 'lib/editor/probe.ts'])(
    'fails %s when it calls fetch itself',
    async (file) => {
      expect((await getRestrictedGlobals(call, file)).join('\n')).toContain('Call the API through lib/api');
    },
  );

  it('allows fetch in lib/api, on the server and in tests', async () => {
    for (const file of ['lib/api/probe.ts', 'lib/mcp/probe.ts', 'components/save/probe.test.ts']) {
      expect(await getRestrictedGlobals(call, file), file).toEqual([]);
    }
  });
});

describe('the one-way-for-outside-keys rule', () => {
  async function getRestrictedProperties(code: string, filePath: string) {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-properties').map((m) => m.message);
  }
  const checks = [
    'export const a = (o: object, k: string) => Object.hasOwn(o, k);\n',
    'export const b = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);\n',
    'export const c = (o: { hasOwnProperty(k: string): boolean }, k: string) => o.hasOwnProperty(k);\n',
  ];

  it.each(['lib/workflow/probe.ts', 'lib/tools/probe.ts', 'app/api/probe/route.ts', 'bin/probe.ts'])(
    'fails a hand-written own-member check in %s',
    async (file) => {
      for (const code of checks) {
        const messages = await getRestrictedProperties(code, file);
        expect(messages.join('\n'), code).toContain('getMember/hasMember');
      }
    },
  );

  it('allows it in lib/tools/json-value.ts and in tests', async () => {
    for (const file of ['lib/tools/json-value.ts', 'lib/workflow/probe.test.ts', 'tests/fuzz/probe.ts']) {
      expect(await getRestrictedProperties(checks[0], file), file).toEqual([]);
    }
  });
});

describe('the size limits', () => {
  async function getSizeRules(code: string, filePath: string) {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.map((m) => m.ruleId).filter((id) => id?.startsWith('max-lines'));
  }
  /** A function of `n` lines counted (its head, n − 2 statements, its end), `padding` between them. */
  const fn = (n: number, padding = '') =>
    [
      'export function probe(): number {',
      '  let x = 0;',
      ...Array.from({ length: n - 4 }, (_, i) => `${padding}  x += ${i};`),
      '  return x;',
      '}',
    ].join('\n') + '\n';
  /** A file of `n` counted lines, none of them in a long function. */
  const file = (n: number) =>
    Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';

  it.each([
    'lib/workflow/probe.ts',
    'lib/editor/probe.ts',
    'app/api/probe/route.ts',
    'components/probe.tsx',
    'scripts/bench/probe.ts',
    'bin/probe.ts',
    'proxy.ts',
  ])('fails a function past the limit and a file past the limit in %s', async (path) => {
    expect(await getSizeRules(fn(MAX_FUNCTION_LINES), path)).toEqual([]);
    expect(await getSizeRules(fn(MAX_FUNCTION_LINES + 1), path)).toEqual(['max-lines-per-function']);
    expect(await getSizeRules(file(MAX_FILE_LINES), path)).toEqual([]);
    expect(await getSizeRules(file(MAX_FILE_LINES + 1), path)).toEqual(['max-lines']);
  });

  it('counts neither blank lines nor comments', async () => {
    const padded = fn(MAX_FUNCTION_LINES, '\n  // why this step\n\n');
    expect(padded.split('\n').length).toBeGreaterThan(2.5 * MAX_FUNCTION_LINES);
    expect(await getSizeRules(padded, 'lib/run/probe.ts')).toEqual([]);
    const over = fn(MAX_FUNCTION_LINES + 1, '\n  // why this step\n\n');
    expect(await getSizeRules(over, 'lib/run/probe.ts')).toEqual(['max-lines-per-function']);
  });

  it('leaves tests alone and holds every product file, the planner and the load test included', async () => {
    const big = fn(MAX_FUNCTION_LINES + 1) + file(MAX_FILE_LINES);
    for (const path of ['lib/run/probe.test.ts', 'tests/probe.ts']) {
      expect(await getSizeRules(big, path), path).toEqual([]);
    }
    for (const path of [
      'lib/planner/offline/values.ts',
      'lib/planner/offline/probe.ts',
      'scripts/load/simulate.ts',
    ]) {
      expect(await getSizeRules(big, path), path).not.toEqual([]);
    }
  });
});
