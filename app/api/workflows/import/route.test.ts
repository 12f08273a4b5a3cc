import { getFixturePath } from '../../../../tests/fixtures/index';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { hashDeclaration } from '@/lib/tools/canonical-json';
import type { ToolDeclaration } from '@/lib/tools/types';
import { exportWorkflow } from '@/lib/workflow/export';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { POST as create } from '../route';
import { GET as read } from '../[id]/route';
import { GET as exportRoute } from '../[id]/export/route';
import { POST as importRoute } from './route';

const backends = await getTestBackends();

// The golden `optimize_structure` declaration (tests/fixtures).
const bare = JSON.parse(fs.readFileSync(getFixturePath('seed-optimize-structure/tools.json'), 'utf8'))[0];
const optimize: ToolDeclaration = {
  name: bare.name,
  description: bare.description,
  inputSchema: bare.parameters,
};

const document = {
  task: 'relax Cu',
  nodes: [
    {
      id: 'step_1',
      tool: 'optimize_structure',
      position: { x: 0, y: 0 },
      args: {
        input_structure: 'https://example.org/structures/Cu_bulk.cif',
        model_path: 'm.pt',
        relax_cell: false,
      },
    },
    { id: 'step_2', tool: 'optimize_structure', position: { x: 300, y: 0 }, args: { model_path: 'm.pt' } },
  ],
  edges: [
    { id: 'e1', source: 'step_1', sourceOutput: 'result', target: 'step_2', targetInput: 'input_structure' },
  ],
  tools: { optimize_structure: { declaration: optimize, hash: hashDeclaration(optimize) } },
} as unknown as WorkflowDocument;

describe.each(backends)('export and import on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('exports v1 node JSON as an attachment, only to the owner', async () => {
    const alice = createOwnerClient();
    const { workflow } = await (
      await alice.send(create, 'POST', '/api/workflows', { name: 'Cu relax / v1', document })
    ).json();
    const res = await alice.send(exportRoute, 'GET', `/api/workflows/${workflow.id}/export`, undefined, {
      id: workflow.id,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Cu-relax-v1.toolflow.json"');
    const file = await res.json();
    expect(file).toEqual(exportWorkflow(document, { id: workflow.id, name: 'Cu relax / v1' }));
    expect(file.nodes[1].input_parameters[0]).toMatchObject({
      name: 'input_structure',
      value: '',
      origin: 'edge',
    });

    // A name the home page cut off with an ellipsis (which decomposes to three dots).
    const cut = await (
      await alice.send(create, 'POST', '/api/workflows', {
        name: 'Relax with the model https://example.org/dpa.pt…',
        document,
      })
    ).json();
    const named = await alice.send(
      exportRoute,
      'GET',
      `/api/workflows/${cut.workflow.id}/export`,
      undefined,
      {
        id: cut.workflow.id,
      },
    );
    expect(named.headers.get('content-disposition')).toBe(
      'attachment; filename="Relax-with-the-model-httpsexample.orgdpa.pt.toolflow.json"',
    );

    const bob = createOwnerClient();
    const refused = await bob.send(exportRoute, 'GET', `/api/workflows/${workflow.id}/export`, undefined, {
      id: workflow.id,
    });
    expect(refused.status).toBe(403);
  });

  it('imports an export as a new workflow of the caller, and exports it again byte for byte', async () => {
    const alice = createOwnerClient();
    const file = exportWorkflow(document, { id: 'wf_elsewhere', name: 'From a file' });
    const res = await alice.send(importRoute, 'POST', '/api/workflows/import', file);
    expect(res.status).toBe(201);
    const { workflow, placeholders } = await res.json();
    expect(workflow.id).not.toBe('wf_elsewhere');
    expect(workflow.name).toBe('From a file');
    expect(placeholders).toEqual([]);
    const revision = await database.db.workflowRevision.findFirstOrThrow({
      where: { workflowId: workflow.id },
    });
    expect(revision.reason).toBe('import');
    const again = await (await alice.send(exportRoute, 'GET', '', undefined, { id: workflow.id })).json();
    expect(JSON.stringify(again)).toBe(JSON.stringify({ ...file, id: workflow.id }));
  });

  it('turns a node whose tool the file does not declare into a placeholder that keeps params and edges', async () => {
    const alice = createOwnerClient();
    const file = exportWorkflow(document, { id: 'wf_x', name: 'Missing tool' });
    const renamed = JSON.parse(JSON.stringify(file));
    renamed.nodes[1].tool_name = 'vanished_tool';
    renamed.nodes[1].placeholder = true;
    const res = await alice.send(importRoute, 'POST', '/api/workflows/import', renamed);
    expect(res.status).toBe(201);
    const { workflow, placeholders } = await res.json();
    expect(placeholders).toEqual(['step_2']);
    const stored = await (await alice.send(read, 'GET', '', undefined, { id: workflow.id })).json();
    const node = stored.workflow.document.nodes[1];
    expect(node.tool).toBe('vanished_tool');
    expect(node.placeholderParams.map((p: { name: string }) => p.name)).toEqual(
      file.nodes[1].input_parameters.map((p) => p.name),
    );
    expect(stored.workflow.document.edges).toHaveLength(1);
  });

  it('lists a node of an undeclared tool named "constructor" as a placeholder, and exports it again', async () => {
    const alice = createOwnerClient();
    const file = exportWorkflow(document, { id: 'wf_x', name: 'Prototype name' });
    const renamed = JSON.parse(JSON.stringify(file));
    renamed.nodes[1].tool_name = 'constructor';
    renamed.nodes[1].placeholder = true;
    const res = await alice.send(importRoute, 'POST', '/api/workflows/import', renamed);
    expect(res.status).toBe(201);
    const { workflow, placeholders } = await res.json();
    expect(placeholders).toEqual(['step_2']);
    const again = await alice.send(exportRoute, 'GET', '', undefined, { id: workflow.id });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ...renamed, id: workflow.id });
  });

  it('answers 422 with every problem and its JSON path, and writes nothing', async () => {
    const alice = createOwnerClient();
    await alice.send(create, 'POST', '/api/workflows', { name: 'so alice has a cookie' });
    const before = await database.db.workflow.count();
    const file = JSON.parse(JSON.stringify(exportWorkflow(document, { id: 'wf_x', name: 'Broken' })));
    file.nodes[0].step_index = 'one';
    file.edges[0].target_input = 5;
    delete file.nodes[1].position;
    const res = await alice.send(importRoute, 'POST', '/api/workflows/import', file);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.code).toBe('unprocessable:import');
    const paths = body.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/nodes/0/step_index', '/nodes/1/position', '/edges/0/target_input']),
    );
    expect(body.message).toContain('nothing was saved');
    for (const issue of body.issues) expect(issue.message.length).toBeGreaterThan(10);
    expect(await database.db.workflow.count()).toBe(before);
  });

  it('answers 422 for JSON that is not a workflow export', async () => {
    const res = await createOwnerClient().send(importRoute, 'POST', '/api/workflows/import', { tools: [] });
    expect(res.status).toBe(422);
    expect((await res.json()).issues[0].path).toBe('/format');
  });

  it('refuses a file over 5 MB with 413 before parsing it', async () => {
    const file = {
      ...exportWorkflow(document, { id: 'wf_x', name: 'Huge' }),
      task: 'x'.repeat(5 * 1024 * 1024),
    };
    const res = await createOwnerClient().send(importRoute, 'POST', '/api/workflows/import', file);
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('payload_too_large');
  });
});
