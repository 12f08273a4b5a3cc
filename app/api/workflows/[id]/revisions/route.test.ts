import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageHistory, getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { getPrisma } from '@/lib/db/client';
import { REVISION_LIMIT } from '@/lib/db/workflows';
import { POST as create } from '../../route';
import { GET as read, PUT as update } from '../route';
import { GET as list } from './route';
import { GET as view, PATCH as label } from './[version]/route';
import { POST as restore } from './[version]/restore/route';

const backends = await getTestBackends();

const node = (id: string, args: Record<string, unknown> = {}) => ({
  id,
  tool: 'fetch_file',
  position: { x: 0, y: 0 },
  args,
});
const doc = (nodes: (ReturnType<typeof node> & { label?: string })[], task = 'fetch things') => ({
  task,
  nodes,
  edges: [],
  tools: {},
});

async function setUp(client: OwnerClient) {
  const res = await client.send(create, 'POST', '/api/workflows', {
    name: 'History',
    document: doc([node('a', { url: 'x' })]),
  });
  const { workflow } = await res.json();
  const id = workflow.id as string;
  /** Saves as an autosave an hour after the last entry began, so each save is an entry of its own. */
  const save = async (version: number, document: unknown) => {
    await ageHistory(await getPrisma(), id);
    const r = await client.send(update, 'PUT', '', { version, document }, { id });
    expect(r.status).toBe(200);
    return (await r.json()).workflow.version as number;
  };
  return { id, save };
}

describe.each(backends)('revisions on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('lists every saved version newest first, with counts and why it exists', async () => {
    const alice = createOwnerClient();
    const { id, save } = await setUp(alice);
    await save(1, doc([node('a', { url: 'y' }), node('b')]));
    const res = await alice.send(list, 'GET', `/api/workflows/${id}/revisions`, undefined, { id });
    expect(res.status).toBe(200);
    const { revisions } = await res.json();
    expect(
      revisions.map((r: { version: number; reason: string; nodeCount: number }) => [
        r.version,
        r.reason,
        r.nodeCount,
      ]),
    ).toEqual([
      [2, 'save', 2],
      [1, 'create', 1],
    ]);
  });

  it('lists the node and edge counts stored with each revision, not counted from documents', async () => {
    const alice = createOwnerClient();
    const { id, save } = await setUp(alice);
    await save(1, doc([node('a', { url: 'y' }), node('b'), node('c')]));
    const stored = await database.db.workflowRevision.findMany({
      where: { workflowId: id },
      orderBy: { version: 'asc' },
      select: { version: true, nodeCount: true, edgeCount: true },
    });
    expect(JSON.stringify(stored)).toBe(
      JSON.stringify([
        { version: 1, nodeCount: 1, edgeCount: 0 },
        { version: 2, nodeCount: 3, edgeCount: 0 },
      ]),
    );
    // The list answers from the columns: a document changed behind its back does not move them.
    await database.db
      .$executeRaw`UPDATE "WorkflowRevision" SET "document" = '{"nodes":[]}'::json WHERE "workflowId" = ${id}`;
    const res = await alice.send(list, 'GET', `/api/workflows/${id}/revisions`, undefined, { id });
    const { revisions } = await res.json();
    expect(revisions.map((r: { nodeCount: number }) => r.nodeCount)).toEqual([3, 1]);
  });

  it('backfills the counts of revisions written before they were stored (the migration)', async () => {
    const alice = createOwnerClient();
    const { id, save } = await setUp(alice);
    await save(1, doc([node('a'), node('b')]));
    await database.db
      .$executeRaw`UPDATE "WorkflowRevision" SET "nodeCount" = 0, "edgeCount" = 0 WHERE "workflowId" = ${id}`;
    await database.db
      .$executeRaw`UPDATE "WorkflowRevision" SET "document" = '{"nodes":[{},{}],"edges":[{}]}'::json WHERE "workflowId" = ${id} AND "version" = 1`;
    const sql = readFileSync(
      new URL(
        '../../../../../prisma/migrations/20261126000000_revision_counts/migration.sql',
        import.meta.url,
      ),
      'utf8',
    );
    const backfill = sql.slice(sql.indexOf('UPDATE "WorkflowRevision"')).replace(/;\s*$/, '');
    await database.db.$executeRawUnsafe(`${backfill} WHERE "workflowId" = '${id}'`);
    const stored = await database.db.workflowRevision.findMany({
      where: { workflowId: id },
      orderBy: { version: 'asc' },
      select: { nodeCount: true, edgeCount: true },
    });
    expect(JSON.stringify(stored)).toBe(
      JSON.stringify([
        { nodeCount: 2, edgeCount: 1 },
        { nodeCount: 2, edgeCount: 0 },
      ]),
    );
  });

  it('shows one revision with a diff summary against the one before it, or another one', async () => {
    const alice = createOwnerClient();
    const { id, save } = await setUp(alice);
    await save(1, doc([node('a', { url: 'y', depth: 2 }), node('b')]));
    await save(2, doc([node('b')], 'fetch fewer things'));
    const v2 = await (
      await alice.send(view, 'GET', `/api/workflows/${id}/revisions/2`, undefined, { id, version: '2' })
    ).json();
    expect(v2.comparedWith).toBe(1);
    expect(v2.revision.document.nodes).toHaveLength(2);
    expect(v2.summary).toBe('1 node added, 1 param added, 1 param changed');
    expect(v2.diff.params.changed).toEqual([{ node: 'a', param: 'url' }]);

    const v3vs1 = await (
      await alice.send(view, 'GET', `/api/workflows/${id}/revisions/3?against=1`, undefined, {
        id,
        version: '3',
      })
    ).json();
    expect(v3vs1.summary).toBe('task changed, 1 node added, 1 node removed');

    const first = await (await alice.send(view, 'GET', '', undefined, { id, version: '1' })).json();
    expect(first.summary).toBe('First version');
    expect((await alice.send(view, 'GET', '', undefined, { id, version: '99' })).status).toBe(404);
    expect((await alice.send(view, 'GET', '', undefined, { id, version: 'abc' })).status).toBe(400);
  });

  it('compares with the current version from the older to the newer, steps by title with values', async () => {
    const alice = createOwnerClient();
    const { id, save } = await setUp(alice);
    await save(1, doc([{ ...node('a', { url: 'y', depth: 2 }), label: 'Get the report' }, node('b')]));
    const current = await save(2, doc([{ ...node('a', { url: 'z' }), label: 'Get the report' }]));
    const res = await alice.send(view, 'GET', `?against=current`, undefined, { id, version: '1' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.comparedWith).toBe(current);
    expect(body.summary).toBe('1 node changed, 1 param changed');
    expect(JSON.stringify(body.steps)).toBe(
      JSON.stringify([
        {
          node: 'a',
          title: 'Get the report',
          change: 'changed',
          renamedFrom: 'fetch_file',
          params: [{ param: 'url', before: '"x"', after: '"z"' }],
          wiring: [],
          moved: false,
          toolUpdated: false,
        },
      ]),
    );
    // Against an older version, the diff still goes from the older one (2) to the newer one (3).
    const back = await (await alice.send(view, 'GET', '?against=3', undefined, { id, version: '2' })).json();
    expect(back.steps.map((s: { node: string; change: string }) => [s.node, s.change])).toEqual([
      ['a', 'changed'],
      ['b', 'removed'],
    ]);
    expect(back.steps[0].params).toEqual([
      { param: 'url', before: '"y"', after: '"z"' },
      { param: 'depth', before: '2', after: null },
    ]);
    const missing = await alice.send(view, 'GET', '?against=99', undefined, { id, version: '2' });
    expect(missing.status).toBe(404);
  });

  it('restores an old revision as a new version, and refuses a stale restore with 409', async () => {
    const alice = createOwnerClient();
    const { id, save } = await setUp(alice);
    await save(1, doc([node('a', { url: 'changed' })]));
    const res = await alice.send(restore, 'POST', '', { version: 2 }, { id, version: '1' });
    expect(res.status).toBe(200);
    const { workflow, restoredFrom } = await res.json();
    expect(restoredFrom).toBe(1);
    expect(workflow.version).toBe(3);
    expect(workflow.document.nodes[0].args).toEqual({ url: 'x' });
    const revisions = (
      await (await alice.send(list, 'GET', `/api/workflows/${id}/revisions`, undefined, { id })).json()
    ).revisions;
    expect(revisions[0]).toMatchObject({ version: 3, reason: 'restore:1' });

    const stale = await alice.send(restore, 'POST', '', { version: 2 }, { id, version: '2' });
    expect(stale.status).toBe(409);
    expect((await stale.json()).current.version).toBe(3);
  });

  it('keeps the last revisions within the bound, plus named ones', async () => {
    const alice = createOwnerClient();
    const { id, save } = await setUp(alice);
    const named = await alice.send(label, 'PATCH', '', { label: 'first draft' }, { id, version: '1' });
    expect(named.status).toBe(200);
    let version = 1;
    for (let i = 0; i < REVISION_LIMIT + 5; i++)
      version = await save(version, doc([node('a', { url: `v${i}` })]));
    const versions = (
      await database.db.workflowRevision.findMany({ where: { workflowId: id }, select: { version: true } })
    )
      .map((r) => r.version)
      .sort((a, b) => a - b);
    expect(versions).toHaveLength(REVISION_LIMIT + 1);
    expect(versions[0]).toBe(1);
    expect(versions[1]).toBe(version - REVISION_LIMIT + 1);
    expect(versions.at(-1)).toBe(version);
  }, 120_000);

  it("refuses another owner's history, restore and labels with 403", async () => {
    const alice = createOwnerClient();
    const bob = createOwnerClient();
    await bob.send(create, 'POST', '/api/workflows', { name: 'Bob' });
    const { id } = await setUp(alice);
    expect((await bob.send(list, 'GET', '', undefined, { id })).status).toBe(403);
    expect((await bob.send(view, 'GET', '', undefined, { id, version: '1' })).status).toBe(403);
    expect((await bob.send(label, 'PATCH', '', { label: 'mine now' }, { id, version: '1' })).status).toBe(
      403,
    );
    expect((await bob.send(restore, 'POST', '', { version: 1 }, { id, version: '1' })).status).toBe(403);
    expect((await (await alice.send(read, 'GET', '', undefined, { id })).json()).workflow.version).toBe(1);
  });
});
