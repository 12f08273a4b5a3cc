import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { startScriptedServer } from '@/lib/llm/testing/server';
import { checkReply, checkRequest } from '@/lib/llm/testing/spec';
import { createPlannedDocument } from '@/lib/planner/operations';
import type { PlanEvent } from '@/lib/planner/types';
import { BUILTIN_TOOLKITS } from '@/lib/toolkits/builtin';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { POST as createWorkflow } from '../workflows/route';
import { POST as addToolkit } from '../toolkits/route';
import { POST as plan } from './route';

const backends = await getTestBackends();
const CU = 'https://example.org/structures/Cu_bulk.cif';
const DPA = 'https://example.org/models/dpa-2.4-7M.pt';
const SEED_TASK = `Optimise the structure at ${CU} with model ${DPA}, then compute its phonons.`;

type Line = PlanEvent | { type: 'document'; document: WorkflowDocument };

async function readLines(res: Response): Promise<Line[]> {
  return (await res.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

describe.each(backends)('POST /api/plan on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('streams an offline plan as NDJSON with the built-in toolkit, then the resulting document', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const res = await createOwnerClient().send(plan, 'POST', '/api/plan', {
      task: SEED_TASK,
      toolkitIds: ['tk_builtin_materials'],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('x-toolflow-planner')).toBe('offline');
    const lines = await readLines(res);
    expect(lines.map((l) => l.type)).toEqual([
      'start',
      'progress',
      'step',
      'step',
      'edge',
      'progress',
      'text',
      'done',
      'document',
    ]);
    expect(lines[0]).toMatchObject({ type: 'start', planner: 'offline' });
    const document = lines.at(-1) as { document: WorkflowDocument };
    expect(document.document.task).toBe(SEED_TASK);
    expect(document.document.nodes.map((n) => [n.id, n.tool])).toEqual([
      ['step_1', 'optimize_structure'],
      ['step_2', 'calculate_phonons'],
    ]);
    expect(document.document.edges.map((e) => e.id)).toEqual([
      'step_1.optimized_structure->step_2.input_structure',
    ]);
  });

  it('plans with declarations sent in the request, in any supported format', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const tools = [
      {
        type: 'function',
        function: {
          name: 'git_status',
          description: 'Show the working tree status',
          parameters: {
            type: 'object',
            required: ['repo_path'],
            properties: { repo_path: { type: 'string', description: 'Path to the repository' } },
          },
        },
      },
    ];
    const res = await createOwnerClient().send(plan, 'POST', '/api/plan', {
      task: 'show the status of ~/code/app',
      tools,
    });
    const lines = await readLines(res);
    const step = lines.find((l) => l.type === 'step');
    expect(step).toMatchObject({ step: { tool: 'git_status', args: { repo_path: '~/code/app' } } });
  });

  it('edits a saved workflow through an OpenAI-compatible endpoint, streaming the operations', async () => {
    const materials = BUILTIN_TOOLKITS.find((t) => t.key === 'materials')!.tools;
    const doc = createPlannedDocument(
      'optimise',
      [
        {
          op: 'add_step',
          step: {
            id: 'step_1',
            tool: 'optimize_structure',
            args: { input_structure: CU, model_path: DPA },
            unknownArgs: [],
            issues: [],
          },
        },
      ],
      materials,
    );
    if (!doc.ok) throw new Error('fixture');
    const alice = createOwnerClient();
    const created = await alice.send(createWorkflow, 'POST', '/api/workflows', {
      name: 'Cu',
      document: doc.value,
    });
    const { workflow } = await created.json();
    const server = await startScriptedServer({
      turns: [
        {
          tool_calls: [
            { name: 'update_step', arguments: { step_id: 'step_1', args: { relax_cell: true } } },
            {
              name: 'calculate_phonons',
              arguments: { input_structure: '{{step_1.optimized_structure}}', model_path: DPA },
            },
          ],
        },
        { text: 'Done.' },
      ],
    });
    try {
      vi.stubEnv('OPENAI_API_KEY', 'scripted');
      vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
      const res = await alice.send(plan, 'POST', '/api/plan', {
        task: 'relax the cell and add phonons',
        workflowId: workflow.id,
        toolkitIds: ['tk_builtin_materials'],
      });
      expect(res.headers.get('x-toolflow-planner')).toBe('openai');
      const lines = await readLines(res);
      expect(lines.filter((l) => l.type === 'operation')).toEqual([
        {
          type: 'operation',
          operation: { op: 'update_step', stepId: 'step_1', args: { relax_cell: true }, unset: [] },
        },
      ]);
      const { document } = lines.at(-1) as { document: WorkflowDocument };
      expect(document.nodes.map((n) => [n.id, n.args.relax_cell])).toEqual([
        ['step_1', true],
        ['step_2', undefined],
      ]);
      expect(document.edges.map((e) => e.id)).toEqual(['step_1.optimized_structure->step_2.input_structure']);
      expect([
        ...server.requests.flatMap(checkRequest),
        ...server.replies.flatMap((r, i) => checkReply(r, i)),
      ]).toEqual([]);
      const system = (server.requests[0].body as { messages: { content: string }[] }).messages[0].content;
      expect(system).toContain('# Current workflow\n- step_1: optimize_structure');
    } finally {
      await server.close();
    }
  });

  it("refuses to plan in another browser's workflow", async () => {
    const alice = createOwnerClient();
    const created = await alice.send(createWorkflow, 'POST', '/api/workflows', { name: 'mine' });
    const { workflow } = await created.json();
    const res = await createOwnerClient().send(plan, 'POST', '/api/plan', {
      task: 'x',
      workflowId: workflow.id,
      toolkitIds: ['tk_builtin_git'],
    });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('forbidden:workflow');
  });

  it('plans with every toolkit the caller sees when the request names none, as the home page does', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const alice = createOwnerClient();
    const bob = createOwnerClient();
    const declarations = (name: string) => ({
      tools: [
        {
          name,
          description: 'Frobnicate a widget by its serial number',
          inputSchema: { type: 'object', properties: { serial: { type: 'string' } }, required: ['serial'] },
        },
      ],
    });
    expect(
      (
        await alice.send(addToolkit, 'POST', '/api/toolkits', {
          name: 'Mine',
          declarations: declarations('frobnicate_widget'),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await bob.send(addToolkit, 'POST', '/api/toolkits', {
          name: 'Theirs',
          declarations: declarations('frobnicate_gadget'),
        })
      ).status,
    ).toBe(201);

    // A built-in toolkit's task, with no toolkitIds: the seed's two steps, wired.
    const seed = await readLines(await alice.send(plan, 'POST', '/api/plan', { task: SEED_TASK }));
    const seedDoc = seed.at(-1) as { document: WorkflowDocument };
    expect(seedDoc.document.nodes.map((n) => n.tool)).toEqual(['optimize_structure', 'calculate_phonons']);
    const seedDone = seed.find((l) => l.type === 'done') as Extract<PlanEvent, { type: 'done' }>;
    expect(seedDone.missingValues).toEqual([]);

    // The caller's own toolkit is among them, and another browser's is not.
    const res = await alice.send(plan, 'POST', '/api/plan', {
      task: 'Frobnicate the widget with serial SN-42',
    });
    expect(res.status).toBe(200);
    const lines = await readLines(res);
    const done = lines.find((l) => l.type === 'done') as Extract<PlanEvent, { type: 'done' }>;
    expect(done.steps.map((st) => st.tool)).toEqual(['frobnicate_widget']);
    expect(JSON.stringify(lines)).not.toContain('frobnicate_gadget');
  });

  it('ends a plan that makes nothing with the planner’s reason on done, not blaming a model', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const lines = await readLines(
      await createOwnerClient().send(plan, 'POST', '/api/plan', { task: 'asdf qwerty' }),
    );
    const done = lines.find((l) => l.type === 'done') as Extract<PlanEvent, { type: 'done' }>;
    expect(done).toMatchObject({ stopReason: 'no_tool_calls', steps: [], missingValues: [] });
    expect(done.message).toMatch(/^No tool matches the task/);
    expect(JSON.stringify(lines)).not.toMatch(/the model/i);
  });

  it('says what is missing: no tools, an unknown toolkit, a bad field, unreadable declarations', async () => {
    const client = createOwnerClient();
    const none = await client.send(plan, 'POST', '/api/plan', { task: 'x', toolkitIds: [] });
    expect(none.status).toBe(400);
    expect((await none.json()).message).toContain('There are no tools to plan with');
    const unknown = await client.send(plan, 'POST', '/api/plan', { task: 'x', toolkitIds: ['tk_nope'] });
    expect(unknown.status).toBe(404);
    const bad = await client.send(plan, 'POST', '/api/plan', { task: 'x', llm: 'claude', toolkitIds: [] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/^Invalid request: llm/);
    const unreadable = await client.send(plan, 'POST', '/api/plan', { task: 'x', tools: { foo: 1 } });
    expect(unreadable.status).toBe(422);
    expect((await unreadable.json()).code).toBe('unprocessable:declarations');
  });

  it('says how to enable the OpenAI planner when it is asked for without a key', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    const res = await createOwnerClient().send(plan, 'POST', '/api/plan', {
      task: 'x',
      llm: 'openai',
      toolkitIds: ['tk_builtin_git'],
    });
    expect(res.status).toBe(503);
    expect((await res.json()).message).toContain('needs OPENAI_API_KEY');
  });
});
