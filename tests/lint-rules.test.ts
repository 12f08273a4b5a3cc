import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function getRestricted(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports');
}

async function getRestrictedImportMessages(code: string, filePath: string) {
  return (await getRestricted(code, filePath)).map((m) => m.message);
}

describe('the pure-core lint rule', () => {
  const pureFiles = ['lib/tools/probe.ts', 'lib/workflow/probe.ts', 'lib/planner/probe.ts'];

  it.each(pureFiles)('fails %s when it imports React', async (file) => {
    const messages = await getRestrictedImportMessages(
      "import { useState } from 'react';\nexport const x = useState;\n",
      file,
    );
    expect(messages.join('\n')).toContain('imports no React');
  });

  it.each(pureFiles)('fails %s when it imports Prisma', async (file) => {
    const messages = await getRestrictedImportMessages(
      "import { PrismaClient } from '@prisma/client';\nexport const x = PrismaClient;\n",
      file,
    );
    expect(messages.join('\n')).toContain('imports no Prisma');
  });

  it('fails a pure-core file that imports the openai SDK, React Flow, zustand, the MCP SDK or node:fs', async () => {
    const code = [
      "import OpenAI from 'openai';",
      "import { ReactFlow } from '@xyflow/react';",
      "import { create } from 'zustand';",
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
      "import fs from 'node:fs';",
      'export const all = [OpenAI, ReactFlow, create, Client, fs];',
    ].join('\n');
    const lines = new Set((await getRestricted(code, 'lib/workflow/probe.ts')).map((m) => m.line));
    expect([...lines].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('allows the same imports outside the pure core', async () => {
    const messages = await getRestrictedImportMessages(
      "import { useState } from 'react';\nexport const x = useState;\n",
      'components/probe.tsx',
    );
    expect(messages).toEqual([]);
  });

  it('allows Ajv and relative core imports inside the core', async () => {
    const code =
      "import Ajv from 'ajv';\nimport type { Issue } from '../result';\nexport const a: Issue | null = null;\nexport const b = Ajv;\n";
    expect(await getRestrictedImportMessages(code, 'lib/workflow/probe.ts')).toEqual([]);
  });
});

describe('the no-test-code rule', () => {
  const productFiles = [
    'lib/editor/probe.ts',
    'lib/workflow/probe.ts',
    'lib/tools/probe.ts',
    'lib/planner/probe.ts',
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

describe('the core direction lint rule', () => {
  it.each([
    "import type { WorkflowDocument } from '../workflow/types';",
    "import { buildNodeParameters } from '../workflow/params';",
    "import { runPlanner } from '../planner';",
    "import { runPlanner } from '../planner/loop';",
    "import { createOfflinePlanner } from '@/lib/planner/offline';",
  ])('fails lib/tools when it imports the workflow or planner layer: %s', async (line) => {
    const messages = await getRestrictedImportMessages(`${line}\nexport {};\n`, 'lib/tools/probe.ts');
    expect(messages.join('\n')).toContain('lib/tools imports neither lib/workflow nor lib/planner');
  });

  it.each(["import { runPlanner } from '../planner';", "import type { Planner } from '../planner/types';"])(
    'fails lib/workflow when it imports the planner: %s',
    async (line) => {
      const messages = await getRestrictedImportMessages(`${line}\nexport {};\n`, 'lib/workflow/probe.ts');
      expect(messages.join('\n')).toContain('lib/workflow never imports lib/planner');
    },
  );

  it('still applies the pure-core bans to lib/tools and lib/workflow', async () => {
    for (const file of ['lib/tools/probe.ts', 'lib/workflow/probe.ts']) {
      const messages = await getRestrictedImportMessages(
        "import { useState } from 'react';\nexport const x = useState;\n",
        file,
      );
      expect(messages.join('\n')).toContain('imports no React');
    }
  });

  it('allows the directions the core points in', async () => {
    const workflow =
      "import type { ToolDeclaration } from '../tools/types';\nimport { getParamPlan } from './params';\nexport type { ToolDeclaration };\nexport const a = getParamPlan;\n";
    expect(await getRestrictedImportMessages(workflow, 'lib/workflow/probe.ts')).toEqual([]);
    const planner =
      "import type { WorkflowDocument } from '../workflow/types';\nimport type { ToolDeclaration } from '../tools/types';\nexport type { WorkflowDocument, ToolDeclaration };\n";
    expect(await getRestrictedImportMessages(planner, 'lib/planner/probe.ts')).toEqual([]);
    const tools = "import { isJsonObject } from './json-schema';\nexport const a = isJsonObject;\n";
    expect(await getRestrictedImportMessages(tools, 'lib/tools/probe.ts')).toEqual([]);
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
