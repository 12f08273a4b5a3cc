/**
 * docs/design.md §2.1: a node lists a tool's parameters in declaration order. Planned from a built-in
 * toolkit, saved, exported and shared, the order must survive every hop, on a fresh database and
 * on one whose built-ins an earlier release stored through `::jsonb` (keys sorted).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  getTestBackends,
  jsonRequest,
  useTestDatabase as openTestDatabase,
  type TestBackend,
} from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { BUILTIN_TOOLKITS, getToolkitHash } from '@/lib/toolkits/builtin';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { POST as createWorkflow } from '../workflows/route';
import { GET as exportWorkflow } from '../workflows/[id]/export/route';
import { POST as createShare } from '../workflows/[id]/shares/route';
import { GET as exportShared } from '../shares/[token]/export/route';
import { POST as plan } from './route';

const backends = await getTestBackends();
const TASK =
  'Optimise the structure at https://example.org/Cu.cif with model https://example.org/dpa.pt, then compute its phonons.';

/** Each built-in tool's non-system parameter names, in the order the code declares them. */
function getDeclaredOrder(tool: string): string[] {
  for (const toolkit of BUILTIN_TOOLKITS) {
    const found = toolkit.tools.find((t) => t.name === tool);
    if (found) {
      const properties = (found.inputSchema as { properties: Record<string, unknown> }).properties;
      return Object.keys(properties).filter((name) => name !== 'executor' && name !== 'storage');
    }
  }
  throw new Error(`no built-in tool ${tool}`);
}

type ExportedNode = { tool_name: string; input_parameters: { name: string }[] };

/** What an earlier release wrote for the built-ins: the same content, through ::jsonb. */
async function openEarlierReleaseDatabase(backend: TestBackend) {
  const database = await openTestDatabase(backend);
  for (const toolkit of BUILTIN_TOOLKITS) {
    await database.db.$executeRaw`
      INSERT INTO "Toolkit" ("id", "ownerId", "name", "sourceKind", "sourceRef", "format", "declarations", "contentHash", "fetchedAt", "updatedAt")
      VALUES (${`tk_builtin_${toolkit.key}`}, NULL, ${toolkit.name}, 'builtin', ${toolkit.key}, NULL,
              ${JSON.stringify(toolkit.tools)}::jsonb, ${getToolkitHash(toolkit.tools)}, NOW(), NOW())`;
  }
  return database;
}

describe.each(backends)('declaration order from plan to export on $name', (backend) => {
  afterEach(() => vi.unstubAllEnvs());

  for (const [label, open] of [
    ['a fresh database', () => openTestDatabase(backend)],
    ['a database written by an earlier release', () => openEarlierReleaseDatabase(backend)],
  ] as const) {
    it(`keeps every node's input_parameters in declaration order on ${label}`, async () => {
      const database = await open();
      try {
        vi.stubEnv('OPENAI_API_KEY', '');
        const alice = createOwnerClient();
        const planned = await alice.send(plan, 'POST', '/api/plan', {
          task: TASK,
          toolkitIds: ['tk_builtin_materials'],
          llm: 'offline',
        });
        const lines = (await planned.text())
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        const document = lines.at(-1).document as WorkflowDocument;
        expect(document.nodes.map((n) => n.tool)).toEqual(['optimize_structure', 'calculate_phonons']);

        const created = await alice.send(createWorkflow, 'POST', '/api/workflows', { name: 'Cu', document });
        const { workflow } = await created.json();
        const exported = await alice.send(exportWorkflow, 'GET', '', undefined, { id: workflow.id });
        const nodes = (await exported.json()).nodes as ExportedNode[];

        const shared = await alice.send(createShare, 'POST', '', {}, { id: workflow.id });
        const { token } = await shared.json();
        const viaLink = await exportShared(jsonRequest('', 'GET'), { params: Promise.resolve({ token }) });
        const sharedNodes = (await viaLink.json()).nodes as ExportedNode[];

        for (const list of [nodes, sharedNodes]) {
          expect(list).toHaveLength(2);
          for (const node of list) {
            // Ordered entries: toEqual on objects would not see a reordering.
            expect(node.input_parameters.map((p) => p.name)).toEqual(getDeclaredOrder(node.tool_name));
          }
        }
        expect(nodes[0].input_parameters.map((p) => p.name).slice(0, 3)).toEqual([
          'input_structure',
          'model_path',
          'head',
        ]);
      } finally {
        await database.close();
      }
    });
  }
});
