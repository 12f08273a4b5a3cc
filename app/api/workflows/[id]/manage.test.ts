/**
 * Managing a workflow through the API, on PGlite and Postgres: rename (a new version, 409 on a
 * stale one), duplicate ("Copy of …", the caller's, a history of its own), delete, and names
 * stored whole up to their bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutosaver, type AutosaverDeps } from '@/lib/editor/autosave';
import { setWorkflowName } from '@/lib/editor/workflow-name';
import { createEditorStore } from '@/lib/editor/store';
import { WORKFLOW_NAME_MAX } from '@/lib/workflow/name';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as listWorkflows, POST as create } from '../route';
import { DELETE as remove, GET as read, PATCH as rename, PUT as update } from './route';
import { POST as duplicate } from './duplicate/route';
import { GET as history } from './revisions/route';

const backends = await getTestBackends();

const document = {
  task: 'relax copper, then compute phonons',
  nodes: [{ id: 'step_1', tool: 'optimize_structure', position: { x: 0, y: 0 }, args: { fmax: 0.05 } }],
  edges: [],
  tools: {},
};

async function createAs(client: OwnerClient, name = 'Relax copper') {
  const res = await client.send(create, 'POST', '/api/workflows', { name, task: document.task, document });
  expect(res.status).toBe(201);
  return (await res.json()).workflow as { id: string; version: number; name: string };
}

const readBack = async (client: OwnerClient, id: string) =>
  (await (await client.send(read, 'GET', '', undefined, { id })).json()).workflow;

describe.each(backends)('managing workflows on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('PATCH (rename)', () => {
    it('renames as a new version of the same document, and answers the saved head', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice);
      const res = await alice.send(
        rename,
        'PATCH',
        '',
        { version: 1, name: '  Copper phonons ' },
        { id: wf.id },
      );
      expect(res.status).toBe(200);
      const { workflow } = await res.json();
      expect(workflow).toMatchObject({ id: wf.id, name: 'Copper phonons', version: 2 });
      expect(workflow.document).toBeUndefined();
      const stored = await readBack(alice, wf.id);
      expect(stored.name).toBe('Copper phonons');
      expect(JSON.stringify(stored.document)).toBe(JSON.stringify(document));
    });

    it('refuses a stale version with 409 and the server copy, changing nothing', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice);
      const saved = await alice.send(update, 'PUT', '', { version: 1, document }, { id: wf.id });
      expect(saved.status).toBe(200);
      const res = await alice.send(rename, 'PATCH', '', { version: 1, name: 'Too late' }, { id: wf.id });
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body.code).toBe('conflict:version');
      expect(body.message).toBe(
        'This workflow changed elsewhere: you renamed version 1, the server has version 2. Reload it, then rename it again.',
      );
      expect(body.current).toMatchObject({ version: 2, name: 'Relax copper' });
      expect((await readBack(alice, wf.id)).name).toBe('Relax copper');
    });

    it('refuses a blank name and one over the bound with 400 naming the field', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice);
      const blank = await alice.send(rename, 'PATCH', '', { version: 1, name: '   ' }, { id: wf.id });
      expect(blank.status).toBe(400);
      expect(await blank.json()).toMatchObject({
        code: 'bad_request:name',
        message: `Invalid request: name: is blank. Give the workflow a name of 1 to ${WORKFLOW_NAME_MAX} characters.`,
      });
      const long = await alice.send(
        rename,
        'PATCH',
        '',
        { version: 1, name: 'x'.repeat(WORKFLOW_NAME_MAX + 1) },
        { id: wf.id },
      );
      expect(long.status).toBe(400);
      expect(await long.json()).toMatchObject({
        code: 'bad_request:name',
        message: `Invalid request: name: must NOT have more than ${WORKFLOW_NAME_MAX} characters`,
      });
      expect((await alice.send(rename, 'PATCH', '', { name: 'x' }, { id: wf.id })).status).toBe(400);
      expect((await readBack(alice, wf.id)).version).toBe(1);
    });

    it("refuses someone else's workflow with 403 and an unknown one with 404", async () => {
      const alice = createOwnerClient();
      const bob = createOwnerClient();
      await createAs(bob, 'Bob');
      const wf = await createAs(alice);
      expect((await bob.send(rename, 'PATCH', '', { version: 1, name: 'Mine' }, { id: wf.id })).status).toBe(
        403,
      );
      expect(
        (await alice.send(rename, 'PATCH', '', { version: 1, name: 'x' }, { id: 'wf_nope' })).status,
      ).toBe(404);
      expect((await readBack(alice, wf.id)).name).toBe('Relax copper');
    });
  });

  describe('a rename in the editor', () => {
    it('goes through autosave with the edits, each save on the version the one before made', async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice);
      // The editor's autosave engine, its requests going straight to the route handler as Alice.
      const deps: AutosaverDeps = {
        fetch: async (url, init) =>
          alice.send(update, init.method ?? 'GET', url, JSON.parse(String(init.body)), { id: wf.id }),
        storage: null,
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
        now: () => Date.now(),
      };
      const editor = createEditorStore({
        meta: { id: wf.id, name: wf.name, version: 1, readOnly: false },
        doc: document as unknown as WorkflowDocument,
      });
      const session = createAutosaver(editor, deps);
      const setFmax = (fmax: number) => {
        const doc = editor.getState().doc;
        editor.getState().setDoc({ ...doc, nodes: [{ ...doc.nodes[0], args: { fmax } }] });
      };
      setFmax(0.04);
      const saving = session.saveNow();
      // Renamed while that save is on its way: no second request races it for version 1.
      setWorkflowName(editor, 'Copper, renamed in the editor');
      setFmax(0.03);
      await saving;
      await session.saveNow();
      session.dispose();
      expect(editor.getState().saveState).toBe('saved');
      expect(editor.getState().meta).toMatchObject({ version: 3, name: 'Copper, renamed in the editor' });
      const stored = await readBack(alice, wf.id);
      expect(stored).toMatchObject({ version: 3, name: 'Copper, renamed in the editor' });
      expect(stored.document.nodes[0].args).toEqual({ fmax: 0.03 });
      // A rename from the home page meanwhile would have made version 4: the editor's next save is
      // then refused with 409, never written over it.
      const elsewhere = await alice.send(
        rename,
        'PATCH',
        '',
        { version: 3, name: 'From the list' },
        { id: wf.id },
      );
      expect(elsewhere.status).toBe(200);
      const stale = await alice.send(update, 'PUT', '', { version: 3, document }, { id: wf.id });
      expect(stale.status).toBe(409);
      expect((await stale.json()).current).toMatchObject({ version: 4, name: 'From the list' });
    });
  });

  describe('names stored whole', () => {
    it('keeps a name of the full bound on create and save, and refuses one longer', async () => {
      const alice = createOwnerClient();
      const whole =
        'Relax copper, then compute its phonons at 300 K, '.repeat(5).slice(0, WORKFLOW_NAME_MAX - 1) + '.';
      const wf = await createAs(alice, whole);
      expect(whole).toHaveLength(WORKFLOW_NAME_MAX);
      expect((await readBack(alice, wf.id)).name).toBe(whole);
      const longer = await alice.send(create, 'POST', '/api/workflows', { name: `${whole}!` });
      expect(longer.status).toBe(400);
      const saved = await alice.send(
        update,
        'PUT',
        '',
        { version: 1, name: `${whole}!`, document },
        { id: wf.id },
      );
      expect(saved.status).toBe(400);
      expect((await saved.json()).code).toBe('bad_request:name');
    });
  });

  describe('POST duplicate', () => {
    it("copies the saved workflow as the caller's own, with a history that begins at its own version 1", async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice);
      const edited = { ...document, nodes: [{ ...document.nodes[0], args: { fmax: 0.01 } }] };
      await alice.send(update, 'PUT', '', { version: 1, document: edited }, { id: wf.id });
      const res = await alice.send(duplicate, 'POST', '', undefined, { id: wf.id });
      expect(res.status).toBe(201);
      const { workflow: copy } = await res.json();
      expect(res.headers.get('location')).toBe(`/api/workflows/${copy.id}`);
      expect(copy.id).not.toBe(wf.id);
      expect(copy).toMatchObject({
        name: 'Copy of Relax copper',
        version: 1,
        task: document.task,
        forkedFromId: wf.id,
      });
      expect(JSON.stringify(copy.document)).toBe(JSON.stringify(edited));
      const source = await database.db.workflow.findUniqueOrThrow({ where: { id: wf.id } });
      expect(copy.ownerId).toBe(source.ownerId);
      const revisions = (await (await alice.send(history, 'GET', '', undefined, { id: copy.id })).json())
        .revisions;
      expect(revisions.map((r: { version: number; reason: string }) => [r.version, r.reason])).toEqual([
        [1, 'duplicate'],
      ]);
      // The original is unchanged, and both are listed, the copy first.
      expect((await readBack(alice, wf.id)).version).toBe(2);
      const mine = (await (await alice.send(listWorkflows, 'GET', '/api/workflows')).json()).workflows;
      expect(mine.map((w: { id: string }) => w.id)).toEqual([copy.id, wf.id]);
    });

    it("refuses to duplicate someone else's workflow with 403, creating nothing", async () => {
      const alice = createOwnerClient();
      const bob = createOwnerClient();
      await createAs(bob, 'Bob');
      const wf = await createAs(alice);
      const before = await database.db.workflow.count();
      expect((await bob.send(duplicate, 'POST', '', undefined, { id: wf.id })).status).toBe(403);
      expect((await bob.send(duplicate, 'POST', '', undefined, { id: 'wf_nope' })).status).toBe(404);
      expect(await database.db.workflow.count()).toBe(before);
    });
  });

  describe('DELETE', () => {
    it('deletes the workflow with its history; it is gone from the list and answers 404', async () => {
      const alice = createOwnerClient();
      const bob = createOwnerClient();
      await createAs(bob, 'Bob');
      const wf = await createAs(alice);
      expect((await bob.send(remove, 'DELETE', '', undefined, { id: wf.id })).status).toBe(403);
      const res = await alice.send(remove, 'DELETE', '', undefined, { id: wf.id });
      expect(res.status).toBe(204);
      expect((await alice.send(read, 'GET', '', undefined, { id: wf.id })).status).toBe(404);
      expect(await database.db.workflowRevision.count({ where: { workflowId: wf.id } })).toBe(0);
      const mine = (await (await alice.send(listWorkflows, 'GET', '/api/workflows')).json()).workflows;
      expect(mine.map((w: { id: string }) => w.id)).not.toContain(wf.id);
      expect((await alice.send(remove, 'DELETE', '', undefined, { id: wf.id })).status).toBe(404);
    });
  });
});
