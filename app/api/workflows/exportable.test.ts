/**
 * Every write keeps a document exportable: create with a document, save (PUT),
 * restore, fork and import refuse a document whose export its own import would refuse, name each
 * problem with its JSON path, and save nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageHistory, getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { updateWorkflow } from '@/lib/db/workflows';
import { BUILTIN_TOOLKITS } from '@/lib/toolkits/builtin';
import { hashDeclaration } from '@/lib/tools/canonical-json';
import type { ToolDeclaration } from '@/lib/tools/types';
import { POST as create } from './route';
import { GET as read, PUT as update } from './[id]/route';
import { GET as exportFile } from './[id]/export/route';
import { POST as importFile } from './import/route';
import { POST as restore } from './[id]/revisions/[version]/restore/route';
import { POST as createShare } from './[id]/shares/route';
import { POST as fork } from '../shares/[token]/fork/route';

const backends = await getTestBackends();

const materials = BUILTIN_TOOLKITS.find((t) => t.key === 'materials')!.tools;
const declared = (name: string): ToolDeclaration => materials.find((t) => t.name === name)!;
const snapshot = (name: string) => ({ declaration: declared(name), hash: hashDeclaration(declared(name)) });

/** optimize → phonons, wired the way the editor wires them. */
const sound = () => ({
  task: 'relax Cu, then phonons',
  nodes: [
    {
      id: 'step_1',
      tool: 'optimize_structure',
      position: { x: 0, y: 0 },
      args: { input_structure: 'https://example.org/Cu.cif', model_path: 'https://example.org/dpa.pt' },
    },
    {
      id: 'step_2',
      tool: 'calculate_phonons',
      position: { x: 300, y: 0 },
      args: { model_path: 'https://example.org/dpa.pt' },
    },
  ],
  edges: [
    {
      id: 'e1',
      source: 'step_1',
      sourceOutput: 'optimized_structure',
      target: 'step_2',
      targetInput: 'input_structure',
    },
  ],
  tools: {
    optimize_structure: snapshot('optimize_structure'),
    calculate_phonons: snapshot('calculate_phonons'),
  },
});

type Doc = ReturnType<typeof sound>;

/** Documents the import of their own export would refuse, with where and why. */
const BROKEN: { what: string; make: (d: Doc) => unknown; path: string; code: string }[] = [
  {
    what: 'an edge into an input the tool does not declare',
    make: (d) => ({ ...d, edges: [{ ...d.edges[0], targetInput: 'structure' }] }),
    path: '/document/edges/0/targetInput',
    code: 'unknown_port',
  },
  {
    what: 'an edge from an output the tool does not declare',
    make: (d) => ({ ...d, edges: [{ ...d.edges[0], sourceOutput: 'result' }] }),
    path: '/document/edges/0/sourceOutput',
    code: 'unknown_port',
  },
  {
    what: 'two edges into one input',
    make: (d) => ({ ...d, edges: [d.edges[0], { ...d.edges[0], id: 'e2', sourceOutput: 'final_energy' }] }),
    path: '/document/edges/1/targetInput',
    code: 'duplicate_input',
  },
  {
    what: 'a cycle',
    make: (d) => ({
      ...d,
      edges: [
        d.edges[0],
        {
          id: 'back',
          source: 'step_2',
          sourceOutput: 'dos',
          target: 'step_1',
          targetInput: 'input_structure',
        },
      ],
    }),
    path: '/document/edges/1',
    code: 'cycle',
  },
  {
    what: 'an edge to a node that does not exist',
    make: (d) => ({ ...d, edges: [{ ...d.edges[0], target: 'step_9' }] }),
    path: '/document/edges/0/target',
    code: 'unknown_node',
  },
  {
    what: 'two nodes with one id',
    make: (d) => ({ ...d, nodes: [d.nodes[0], { ...d.nodes[1], id: 'step_1' }], edges: [] }),
    path: '/document/nodes/1/id',
    code: 'duplicate_id',
  },
  {
    what: 'a tool snapshot whose hash is not that of its declaration',
    make: (d) => ({
      ...d,
      tools: {
        ...d.tools,
        calculate_phonons: { ...d.tools.calculate_phonons, hash: `sha256:${'0'.repeat(64)}` },
      },
    }),
    path: '/document/tools/calculate_phonons/hash',
    code: 'hash_mismatch',
  },
  {
    what: 'a node without a tool name',
    make: (d) => ({ ...d, nodes: [d.nodes[0], { ...d.nodes[1], tool: '' }] }),
    path: '/document/nodes/1/tool',
    code: 'schema_minLength',
  },
];

type Issue = { path: string; code: string; message: string };

async function createAs(client: OwnerClient, document: unknown = sound()) {
  const res = await client.send(create, 'POST', '/api/workflows', { name: 'Cu', document });
  expect(res.status).toBe(201);
  return (await res.json()).workflow as { id: string; version: number };
}

describe.each(backends)('every write keeps the document exportable, on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('saves a sound document, whose export imports again', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const saved = await alice.send(update, 'PUT', '', { version: 1, document: sound() }, { id: wf.id });
    expect(saved.status).toBe(200);
    const file = await (await alice.send(exportFile, 'GET', '', undefined, { id: wf.id })).json();
    const again = await alice.send(importFile, 'POST', '/api/workflows/import', file);
    expect(again.status).toBe(201);
  });

  for (const broken of BROKEN) {
    it(`refuses ${broken.what} on create and on save, at ${broken.path}, saving nothing`, async () => {
      const alice = createOwnerClient();
      const wf = await createAs(alice);
      const count = await database.db.workflow.count();
      const document = broken.make(sound());

      const created = await alice.send(create, 'POST', '/api/workflows', { name: 'Bad', document });
      expect(created.status).toBe(400);
      const createdBody = await created.json();
      expect(createdBody.code).toBe('bad_request:document');
      expect(createdBody.issues).toContainEqual(
        expect.objectContaining({ path: broken.path, code: broken.code }),
      );
      expect(createdBody.message).toContain(broken.path);
      expect(createdBody.message).toContain('Nothing was saved');
      expect(createdBody.message).not.toMatch(/\.\./);
      expect(await database.db.workflow.count()).toBe(count);

      const saved = await alice.send(update, 'PUT', '', { version: 1, document }, { id: wf.id });
      expect(saved.status).toBe(400);
      const savedBody = await saved.json();
      expect(savedBody.issues.map((i: Issue) => [i.path, i.code])).toContainEqual([broken.path, broken.code]);
      const now = await (await alice.send(read, 'GET', '', undefined, { id: wf.id })).json();
      expect(now.workflow.version).toBe(1);
      expect(JSON.stringify(now.workflow.document)).toBe(JSON.stringify(sound()));
      expect(await database.db.workflowRevision.count({ where: { workflowId: wf.id } })).toBe(1);
    });
  }

  it('refuses to restore a revision an earlier release saved unchecked, saving nothing', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    // What an earlier release let PUT store: an edge into an input the tool does not declare.
    const stored = await updateWorkflow(database.db, wf.id, {
      expectedVersion: 1,
      document: BROKEN[0].make(sound()) as never,
    });
    expect(stored.ok).toBe(true);
    // Saved later than the few minutes an autosave entry takes in: the broken version keeps its entry.
    await ageHistory(database.db, wf.id);
    const fixed = await alice.send(update, 'PUT', '', { version: 2, document: sound() }, { id: wf.id });
    expect(fixed.status).toBe(200);

    const res = await alice.send(restore, 'POST', '', { version: 3 }, { id: wf.id, version: '2' });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.code).toBe('unprocessable:document');
    expect(body.message).toMatch(/^Revision 2 would not export/);
    expect(body.issues).toContainEqual(
      expect.objectContaining({ path: '/edges/0/targetInput', code: 'unknown_port' }),
    );
    const now = await (await alice.send(read, 'GET', '', undefined, { id: wf.id })).json();
    expect(now.workflow.version).toBe(3);

    const good = await alice.send(restore, 'POST', '', { version: 3 }, { id: wf.id, version: '1' });
    expect(good.status).toBe(200);
  });

  it('refuses to fork a shared workflow an earlier release saved unchecked, creating nothing', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    await updateWorkflow(database.db, wf.id, {
      expectedVersion: 1,
      document: BROKEN[1].make(sound()) as never,
    });
    const { token } = await (await alice.send(createShare, 'POST', '', {}, { id: wf.id })).json();
    const count = await database.db.workflow.count();

    const bob = createOwnerClient();
    const res = await bob.send(fork, 'POST', '', undefined, { token });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.issues).toContainEqual(
      expect.objectContaining({ path: '/edges/0/sourceOutput', code: 'unknown_port' }),
    );
    expect(await database.db.workflow.count()).toBe(count);
  });

  it('refuses an import whose edge feeds an undeclared input, naming the place in the file', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const file = await (await alice.send(exportFile, 'GET', '', undefined, { id: wf.id })).json();
    file.edges[0].target_input = 'structure';
    const count = await database.db.workflow.count();
    const res = await importFile(jsonRequest('/api/workflows/import', 'POST', file));
    expect(res.status).toBe(422);
    expect((await res.json()).issues).toContainEqual(
      expect.objectContaining({ path: '/edges/0/target_input', code: 'unknown_port' }),
    );
    expect(await database.db.workflow.count()).toBe(count);
  });
});
