import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { GET as list, POST as create } from './route';
import { GET as read, PUT as update } from './[id]/route';

const backends = await getTestBackends();
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

const document = {
  task: 'optimise then phonons',
  nodes: [
    { id: 'step_1', tool: 'optimize_structure', position: { x: 0, y: 0 }, args: { relax_cell: false } },
    { id: 'step_2', tool: 'calculate_phonons', position: { x: 300, y: 0 }, args: {} },
  ],
  edges: [{ id: 'e1', source: 'step_1', sourceOutput: 'result', target: 'step_2', targetInput: 'structure' }],
  tools: {},
};

describe.each(backends)('/api/workflows on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('POST', () => {
    it('creates a workflow and reads it back by id', async () => {
      const res = await create(jsonRequest('/api/workflows', 'POST', { name: 'Seed', document }));
      expect(res.status).toBe(201);
      const { workflow } = await res.json();
      expect(workflow.id).toMatch(/^wf_[\w-]{22}$/);
      expect(workflow.version).toBe(1);

      const got = await read(jsonRequest(`/api/workflows/${workflow.id}`, 'GET'), ctx(workflow.id));
      expect(got.status).toBe(200);
      const body = await got.json();
      expect(body.workflow.document).toEqual(document);
      expect(body.workflow.task).toBe('optimise then phonons');

      const all = await (await list()).json();
      expect(all.workflows.map((w: { id: string }) => w.id)).toContain(workflow.id);
      expect(all.workflows.find((w: { id: string }) => w.id === workflow.id).nodeCount).toBe(2);
    });

    it('refuses a malformed body with 400 naming the bad field', async () => {
      const res = await create(jsonRequest('/api/workflows', 'POST', { name: 42 }));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('bad_request:name');
      expect(body.message).toContain('name: must be string');
    });

    it('refuses a missing name and a node without a tool, naming each field', async () => {
      const res = await create(
        jsonRequest('/api/workflows', 'POST', {
          document: { nodes: [{ id: 'a', position: { x: 0, y: 0 }, args: {} }], edges: [] },
        }),
      );
      expect(res.status).toBe(400);
      const { message } = await res.json();
      expect(message).toContain('name: is required');
      expect(message).toContain('document.nodes.0.tool: is required');
    });

    it('refuses invalid JSON with 400', async () => {
      const res = await create(jsonRequest('/api/workflows', 'POST', '{"name": '));
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('bad_request:json');
    });

    it('refuses an edge to a node that does not exist', async () => {
      const bad = { ...document, edges: [{ ...document.edges[0], target: 'step_9' }] };
      const res = await create(jsonRequest('/api/workflows', 'POST', { name: 'x', document: bad }));
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain('document.edges.0.target: no node "step_9"');
    });
  });

  describe('GET by id', () => {
    it('answers 404 for an unknown id', async () => {
      const res = await read(jsonRequest('/api/workflows/wf_nope', 'GET'), ctx('wf_nope'));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        code: 'not_found:workflow',
        message: 'No workflow with id "wf_nope".',
      });
    });
  });

  describe('PUT', () => {
    it('saves on the current version and refuses a stale one with 409 and the server copy', async () => {
      const { workflow } = await (
        await create(jsonRequest('/api/workflows', 'POST', { name: 'Put', document }))
      ).json();
      const moved = {
        ...document,
        nodes: [{ ...document.nodes[0], position: { x: 40, y: 50 } }, document.nodes[1]],
      };
      const ok = await update(jsonRequest('', 'PUT', { version: 1, document: moved }), ctx(workflow.id));
      expect(ok.status).toBe(200);
      expect((await ok.json()).workflow.version).toBe(2);

      const stale = await update(jsonRequest('', 'PUT', { version: 1, document }), ctx(workflow.id));
      expect(stale.status).toBe(409);
      const conflict = await stale.json();
      expect(conflict.code).toBe('conflict:version');
      expect(conflict.current.version).toBe(2);
      expect(conflict.current.document.nodes[0].position).toEqual({ x: 40, y: 50 });
    });
  });
});
