import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as list, POST as create } from './route';
import { DELETE as remove, GET as read, PUT as update } from './[id]/route';

const backends = await getTestBackends();

const document = {
  task: 'optimise then phonons',
  nodes: [
    { id: 'step_1', tool: 'optimize_structure', position: { x: 0, y: 0 }, args: { relax_cell: false } },
    { id: 'step_2', tool: 'calculate_phonons', position: { x: 300, y: 0 }, args: {} },
  ],
  edges: [{ id: 'e1', source: 'step_1', sourceOutput: 'result', target: 'step_2', targetInput: 'structure' }],
  tools: {},
};

async function createAs(client: OwnerClient, name: string, doc: unknown = document) {
  const res = await client.send(create, 'POST', '/api/workflows', { name, document: doc });
  expect(res.status).toBe(201);
  return (await res.json()).workflow as { id: string; version: number; ownerId: string };
}

describe.each(backends)('/api/workflows on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('POST', () => {
    it('creates a workflow owned by the caller, issues the owner cookie, and reads it back', async () => {
      const alice = createOwnerClient();
      const res = await alice.send(create, 'POST', '/api/workflows', { name: 'Seed', document });
      expect(res.status).toBe(201);
      const setCookie = res.headers.get('set-cookie')!;
      expect(setCookie).toMatch(
        /^toolflow_owner=v1\.own_[\w-]+\.[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
      );
      const { workflow } = await res.json();
      expect(workflow.id).toMatch(/^wf_[\w-]{22}$/);
      expect(workflow.version).toBe(1);
      expect(workflow.ownerId).toMatch(/^own_/);
      expect(setCookie).toContain(workflow.ownerId);

      const got = await alice.send(read, 'GET', `/api/workflows/${workflow.id}`, undefined, {
        id: workflow.id,
      });
      expect(got.status).toBe(200);
      const body = await got.json();
      expect(body.workflow.document).toEqual(document);
      expect(body.workflow.task).toBe('optimise then phonons');

      const owner = await database.db.owner.findUnique({ where: { id: workflow.ownerId } });
      expect(owner).toMatchObject({ kind: 'anonymous', accountId: null });
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
      const body = await res.json();
      expect(body.message).toContain('/document/edges/0/target: No node has id "step_9"');
      expect(body.issues).toEqual([
        expect.objectContaining({ path: '/document/edges/0/target', code: 'unknown_node' }),
      ]);
    });

    it('refuses a cross-site POST with 403 and writes nothing', async () => {
      const before = await database.db.workflow.count();
      const res = await create(
        jsonRequest('/api/workflows', 'POST', { name: 'csrf' }, { origin: 'http://evil.example' }),
      );
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('forbidden:cross_origin');
      expect(await database.db.workflow.count()).toBe(before);
    });

    it('refuses a body over 5 MB with 413', async () => {
      const huge = JSON.stringify({ name: 'big', task: 'x'.repeat(5 * 1024 * 1024 + 10) });
      const res = await create(jsonRequest('/api/workflows', 'POST', huge));
      expect(res.status).toBe(413);
      expect((await res.json()).message).toContain('larger than 5 MB');
    });
  });

  describe('GET (list)', () => {
    it('lists only my workflows, newest first, with node counts', async () => {
      const alice = createOwnerClient();
      const bob = createOwnerClient();
      const first = await createAs(alice, 'Alice one');
      const second = await createAs(alice, 'Alice two', { ...document, nodes: [], edges: [] });
      await createAs(bob, 'Bob one');
      const mine = await (await alice.send(list, 'GET', '/api/workflows')).json();
      expect(mine.workflows.map((w: { id: string }) => w.id)).toEqual([second.id, first.id]);
      expect(mine.workflows.map((w: { nodeCount: number }) => w.nodeCount)).toEqual([0, 2]);
    });

    it('lists the node count of the latest save, stored with it', async () => {
      const alice = createOwnerClient();
      const made = await createAs(alice, 'Grows');
      const three = { ...document, nodes: [...document.nodes, { ...document.nodes[1], id: 'step_3' }] };
      const saved = await alice.send(
        update,
        'PUT',
        `/api/workflows/${made.id}`,
        { version: made.version, document: three },
        { id: made.id },
      );
      expect(saved.status).toBe(200);
      const mine = await (await alice.send(list, 'GET', '/api/workflows')).json();
      expect(mine.workflows.map((w: { nodeCount: number }) => w.nodeCount)).toEqual([3]);
      // The list reads the stored column: a document changed behind it does not change the count.
      await database.db
        .$executeRaw`UPDATE "Workflow" SET "document" = '{"nodes":[]}'::json WHERE "id" = ${made.id}`;
      const again = await (await alice.send(list, 'GET', '/api/workflows')).json();
      expect(again.workflows.map((w: { nodeCount: number }) => w.nodeCount)).toEqual([3]);
    });

    it('backfills the node counts of workflows written before they were stored (the migration)', async () => {
      const alice = createOwnerClient();
      const counted = await createAs(alice, 'Two nodes');
      const odd = await createAs(alice, 'Nodes not a list');
      await database.db
        .$executeRaw`UPDATE "Workflow" SET "nodeCount" = 0 WHERE "id" IN (${counted.id}, ${odd.id})`;
      await database.db
        .$executeRaw`UPDATE "Workflow" SET "document" = '{"nodes":{"a":{}}}'::json WHERE "id" = ${odd.id}`;
      const sql = readFileSync(
        new URL(
          '../../../prisma/migrations/20261128000000_workflow_node_count/migration.sql',
          import.meta.url,
        ),
        'utf8',
      );
      const backfill = sql.slice(sql.indexOf('UPDATE "Workflow"')).replace(/;\s*$/, '');
      await database.db.$executeRawUnsafe(`${backfill} WHERE "id" IN ('${counted.id}', '${odd.id}')`);
      const mine = await (await alice.send(list, 'GET', '/api/workflows')).json();
      expect(
        JSON.stringify(mine.workflows.map((w: { name: string; nodeCount: number }) => [w.name, w.nodeCount])),
      ).toBe(
        JSON.stringify([
          ['Nodes not a list', 0],
          ['Two nodes', 2],
        ]),
      );
    });

    it('gives a caller without a cookie an empty list and a new owner cookie', async () => {
      const res = await list(jsonRequest('/api/workflows', 'GET'));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ workflows: [] });
      expect(res.headers.get('set-cookie')).toContain('toolflow_owner=');
    });
  });

  describe('ownership', () => {
    it("refuses another owner's read, save and delete with 403, and changes nothing", async () => {
      const alice = createOwnerClient();
      const mallory = createOwnerClient();
      await createAs(mallory, 'Mallory has a cookie too');
      const wf = await createAs(alice, 'Private');
      const params = { id: wf.id };
      const url = `/api/workflows/${wf.id}`;
      for (const [handler, method, body] of [
        [read, 'GET', undefined],
        [update, 'PUT', { version: 1, document: { ...document, nodes: [], edges: [] } }],
        // A stale version is refused as someone else's too, never answered with the current copy.
        [update, 'PUT', { version: 7, document: { ...document, nodes: [], edges: [] } }],
        [remove, 'DELETE', undefined],
      ] as const) {
        const res = await mallory.send(handler, method, url, body, params);
        expect(res.status, method).toBe(403);
        const error = await res.json();
        expect(error.code).toBe('forbidden:workflow');
        expect(error.message).toContain('belongs to another browser');
        expect(error.details, method).toBeUndefined();
      }
      // No cookie at all is just another stranger.
      expect((await read(jsonRequest(url, 'GET'), { params: Promise.resolve(params) })).status).toBe(403);
      const still = await (await alice.send(read, 'GET', url, undefined, params)).json();
      expect(still.workflow.version).toBe(1);
      expect(still.workflow.document).toEqual(document);
    });

    it('refuses a forged owner cookie', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice, 'Forgery target');
      const forged = `toolflow_owner=v1.${wf.ownerId}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
      const res = await read(jsonRequest(`/api/workflows/${wf.id}`, 'GET', undefined, { cookie: forged }), {
        params: Promise.resolve({ id: wf.id }),
      });
      expect(res.status).toBe(403);
    });

    it('answers 404 for an unknown id', async () => {
      const alice = createOwnerClient();
      const res = await alice.send(read, 'GET', '/api/workflows/wf_nope', undefined, { id: 'wf_nope' });
      expect(res.status).toBe(404);
      const body = await res.json();
      expect(body.code).toBe('not_found:workflow');
      expect(body.message).toContain('No workflow with id "wf_nope"');
    });
  });

  describe('PUT', () => {
    it('saves on the current version and refuses a stale one with 409 and the server copy', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice, 'Put');
      const moved = {
        ...document,
        nodes: [{ ...document.nodes[0], position: { x: 40, y: 50 } }, document.nodes[1]],
      };
      const url = `/api/workflows/${wf.id}`;
      const ok = await alice.send(update, 'PUT', url, { version: 1, document: moved }, { id: wf.id });
      expect(ok.status).toBe(200);
      const saved = (await ok.json()).workflow;
      expect(saved.version).toBe(2);
      // The answer is the workflow without the document the request sent, which is what was stored.
      expect(Object.keys(saved)).not.toContain('document');
      expect(saved).toMatchObject({ id: wf.id, name: 'Put', ownerId: wf.ownerId });
      // Written in SQL by hand: the timestamp must mean the same instant Prisma would store.
      const reread = (await (await alice.send(read, 'GET', url, undefined, { id: wf.id })).json()).workflow;
      expect(reread.updatedAt).toBe(saved.updatedAt);
      expect(JSON.stringify(reread.document)).toBe(JSON.stringify(moved));
      expect(Math.abs(new Date(reread.updatedAt).getTime() - Date.now())).toBeLessThan(60_000);
      expect(new Date(reread.updatedAt).getTime()).toBeGreaterThanOrEqual(
        new Date(reread.createdAt).getTime(),
      );

      const stale = await alice.send(update, 'PUT', url, { version: 1, document }, { id: wf.id });
      expect(stale.status).toBe(409);
      const conflict = await stale.json();
      expect(conflict.code).toBe('conflict:version');
      expect(conflict.message).toContain('changed elsewhere');
      expect(conflict.current.version).toBe(2);
      expect(conflict.current.document.nodes[0].position).toEqual({ x: 40, y: 50 });
    });

    it('lets exactly one of 50 concurrent saves on the same version win; the rest get 409', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice, 'Race');
      const url = `/api/workflows/${wf.id}`;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          alice.send(
            update,
            'PUT',
            url,
            { version: 1, document: { ...document, task: `writer ${i}` } },
            { id: wf.id },
          ),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      const winner = await results[statuses.indexOf(200)].json();
      const stored = await (await alice.send(read, 'GET', url, undefined, { id: wf.id })).json();
      expect(stored.workflow.version).toBe(2);
      expect(stored.workflow.task).toBe(winner.workflow.task);
      // One save, one revision: the losers wrote nothing.
      const revisions = await database.db.workflowRevision.findMany({ where: { workflowId: wf.id } });
      expect(revisions.map((r) => r.version).sort()).toEqual([1, 2]);
    });

    it('answers 404 when saving a workflow that was deleted', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice, 'Gone');
      const url = `/api/workflows/${wf.id}`;
      expect((await alice.send(remove, 'DELETE', url, undefined, { id: wf.id })).status).toBe(204);
      const res = await alice.send(update, 'PUT', url, { version: 1, document }, { id: wf.id });
      expect(res.status).toBe(404);
    });
  });

  describe('DELETE', () => {
    it('removes the workflow with its revisions and share links', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice, 'Delete me');
      await database.db.share.create({ data: { id: 'sh_del', workflowId: wf.id, tokenHash: 'h-del' } });
      const url = `/api/workflows/${wf.id}`;
      expect((await alice.send(remove, 'DELETE', url, undefined, { id: wf.id })).status).toBe(204);
      expect((await alice.send(read, 'GET', url, undefined, { id: wf.id })).status).toBe(404);
      expect(await database.db.workflowRevision.count({ where: { workflowId: wf.id } })).toBe(0);
      expect(await database.db.share.count({ where: { workflowId: wf.id } })).toBe(0);
      expect((await alice.send(remove, 'DELETE', url, undefined, { id: wf.id })).status).toBe(404);
    });
  });
});
