/**
 * History entries through the API, on PGlite and Postgres: the autosaves of a few minutes of
 * editing are one entry that keeps the newest version, while the version still goes up with every
 * write; named versions, plans, restores, kept conflicts, imports, duplicates and the first
 * version are entries of their own that no autosave is folded into; a version a test-run was made
 * of stays; pruning counts entries, not versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPrisma } from '@/lib/db/client';
import { createRun } from '@/lib/db/runs';
import { AUTOSAVE_ENTRY_MS, REVISION_LIMIT } from '@/lib/db/workflows';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { ageHistory, getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { POST as create } from '../../route';
import { PATCH as rename, PUT as update } from '../route';
import { POST as duplicate } from '../duplicate/route';
import { GET as preflight } from '../runs/preflight/route';
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
const doc = (url: string, task = 'fetch the daily report') => ({
  task,
  nodes: [node('a', { url })],
  edges: [],
  tools: {},
});

interface Entry {
  version: number;
  firstVersion: number;
  reason: string;
  label: string | null;
  name: string;
  task: string | null;
  createdAt: string;
  updatedAt: string;
}

async function setUp(client: OwnerClient, body: Record<string, unknown> = {}) {
  const res = await client.send(create, 'POST', '/api/workflows', {
    name: 'History',
    task: 'fetch the daily report',
    document: doc('v1'),
    ...body,
  });
  expect(res.status).toBe(201);
  const id = (await res.json()).workflow.id as string;
  let version = 1;
  const api = {
    id,
    get version() {
      return version;
    },
    /** PUT on top of the version held, as the editor's autosave does; returns the new version. */
    async save(url: string, reason?: string) {
      const r = await client.send(
        update,
        'PUT',
        '',
        { version, document: doc(url), ...(reason ? { reason } : {}) },
        { id },
      );
      expect(r.status).toBe(200);
      version = (await r.json()).workflow.version;
      return version;
    },
    async entries(): Promise<Entry[]> {
      const r = await client.send(list, 'GET', '', undefined, { id });
      expect(r.status).toBe(200);
      return (await r.json()).revisions;
    },
    /** [version, firstVersion, reason] of each entry, newest first. */
    async shape() {
      return (await api.entries()).map((e) => [e.version, e.firstVersion, e.reason]);
    },
    async read(v: number) {
      return client.send(view, 'GET', '', undefined, { id, version: String(v) });
    },
    track(v: number) {
      version = v;
    },
  };
  return api;
}

describe.each(backends)('history entries on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('folds rapid autosaves into one entry that keeps the newest version; every save is still a version', async () => {
    const wf = await setUp(createOwnerClient());
    for (const url of ['v2', 'v3', 'v4', 'v5', 'v6']) await wf.save(url);
    expect(wf.version).toBe(6);
    expect(await wf.shape()).toEqual([
      [6, 2, 'save'],
      [1, 1, 'create'],
    ]);
    // The entry keeps the newest document, saved when the last autosave was.
    const newest = await (await wf.read(6)).json();
    expect(newest.revision.document.nodes[0].args).toEqual({ url: 'v6' });
    const [entry] = await wf.entries();
    expect(Date.parse(entry.updatedAt)).toBeGreaterThanOrEqual(Date.parse(entry.createdAt));
    // A folded version is no longer in the history, and the answer says which entry took it in.
    const folded = await wf.read(4);
    expect(folded.status).toBe(404);
    expect(await folded.json()).toEqual({
      code: 'not_found:revision',
      message: `Version 4 of workflow "${wf.id}" was an autosave folded into the history entry that keeps version 6: only an entry's newest version is kept. Open version 6 instead.`,
      foldedInto: 6,
    });
    const never = await (await wf.read(9)).json();
    expect(never.foldedInto).toBeUndefined();
    expect(never.message).toContain('has no revision 9');
  });

  it('begins a new autosave entry once the last one is older than the window', async () => {
    const wf = await setUp(createOwnerClient());
    await wf.save('v2');
    await wf.save('v3');
    // Just inside the window: still folded.
    await database.db.$executeRaw`
      UPDATE "WorkflowRevision" SET "createdAt" = "createdAt" - ${`${AUTOSAVE_ENTRY_MS - 30_000} milliseconds`}::interval
      WHERE "workflowId" = ${wf.id}`;
    await wf.save('v4');
    await ageHistory(database.db, wf.id);
    await wf.save('v5');
    await wf.save('v6');
    expect(await wf.shape()).toEqual([
      [6, 5, 'save'],
      [4, 2, 'save'],
      [1, 1, 'create'],
    ]);
  });

  it('says what the first entry was planned from, and "Created" has no task to show', async () => {
    const planned = await setUp(createOwnerClient());
    await planned.save('v2');
    const entries = await planned.entries();
    expect(entries.map((e) => e.task)).toEqual([null, 'fetch the daily report']);

    const empty = await setUp(createOwnerClient(), { task: '', document: { ...doc('x', ''), nodes: [] } });
    expect((await empty.entries()).map((e) => [e.reason, e.task])).toEqual([['create', '']]);
  });

  it('never folds into a named entry, and a named entry stays named as saves go on', async () => {
    const alice = createOwnerClient();
    const wf = await setUp(alice);
    await wf.save('v2');
    await wf.save('v3');
    const named = await alice.send(label, 'PATCH', '', { label: 'Good run' }, { id: wf.id, version: '3' });
    expect(named.status).toBe(200);
    await wf.save('v4');
    await wf.save('v5');
    const entries = await wf.entries();
    expect(entries.map((e) => [e.version, e.firstVersion, e.label])).toEqual([
      [5, 4, null],
      [3, 2, 'Good run'],
      [1, 1, null],
    ]);
    const kept = await (await wf.read(3)).json();
    expect(kept.revision.document.nodes[0].args).toEqual({ url: 'v3' });
  });

  it('keeps a plan, a kept conflict and a restore as entries of their own, never folded into', async () => {
    const alice = createOwnerClient();
    const wf = await setUp(alice);
    await wf.save('planned', 'plan'); // v2
    await wf.save('edit 1'); // v3
    await wf.save('mine', 'resolve'); // v4
    await wf.save('edit 2'); // v5
    const restored = await alice.send(restore, 'POST', '', { version: 5 }, { id: wf.id, version: '2' });
    expect(restored.status).toBe(200);
    wf.track((await restored.json()).workflow.version); // v6
    await wf.save('edit 3'); // v7
    await wf.save('edit 4'); // v8
    expect(await wf.shape()).toEqual([
      [8, 7, 'save'],
      [6, 6, 'restore:2'],
      [5, 5, 'save'],
      [4, 4, 'resolve'],
      [3, 3, 'save'],
      [2, 2, 'plan'],
      [1, 1, 'create'],
    ]);
  });

  it('never folds into the first version of an import or a duplicate', async () => {
    const alice = createOwnerClient();
    const source = await setUp(alice);
    const copied = await alice.send(duplicate, 'POST', '', undefined, { id: source.id });
    expect(copied.status).toBe(201);
    const copy = (await copied.json()).workflow;
    const r = await alice.send(update, 'PUT', '', { version: 1, document: doc('edited') }, { id: copy.id });
    expect(r.status).toBe(200);
    const history = await (await alice.send(list, 'GET', '', undefined, { id: copy.id })).json();
    expect(history.revisions.map((e: Entry) => [e.version, e.firstVersion, e.reason])).toEqual([
      [2, 2, 'save'],
      [1, 1, 'duplicate'],
    ]);
  });

  it('folds a rename into the autosave entry, which then holds the new name', async () => {
    const alice = createOwnerClient();
    const wf = await setUp(alice);
    await wf.save('v2');
    const renamed = await alice.send(
      rename,
      'PATCH',
      '',
      { version: 2, name: 'Daily report' },
      { id: wf.id },
    );
    expect(renamed.status).toBe(200);
    wf.track((await renamed.json()).workflow.version);
    await wf.save('v4');
    const entries = await wf.entries();
    expect(entries.map((e) => [e.version, e.firstVersion, e.name])).toEqual([
      [4, 2, 'Daily report'],
      [1, 1, 'History'],
    ]);
  });

  it('keeps the version a test-run was made of, so the run and a run of that version still find it', async () => {
    const alice = createOwnerClient();
    const wf = await setUp(alice);
    await wf.save('v2');
    const ran = await wf.save('v3');
    const owner = await database.db.workflow.findUniqueOrThrow({ where: { id: wf.id } });
    await createRun(await getPrisma(), {
      workflowId: wf.id,
      ownerId: owner.ownerId!,
      version: ran,
      exportText: '{}\n',
      exportHash: 'sha256:0',
      limits: DEFAULT_RUN_LIMITS,
      plan: { nodes: [], servers: [], order: [] },
    });
    await wf.save('v4');
    await wf.save('v5');
    expect(await wf.shape()).toEqual([
      [5, 4, 'save'],
      [3, 2, 'save'],
      [1, 1, 'create'],
    ]);
    const check = (v: number) =>
      alice.send(preflight, 'GET', `/api/workflows/${wf.id}/runs/preflight?version=${v}`, undefined, {
        id: wf.id,
      });
    expect((await check(3)).status).toBe(200);
    // A version folded away cannot be run by its number; the answer says so.
    const gone = await check(4);
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe('not_found:version');
  });

  it('prunes by entries, not versions: a long stretch of autosaves pushes nothing out', async () => {
    const wf = await setUp(createOwnerClient());
    await wf.save('planned', 'plan');
    for (let i = 0; i < REVISION_LIMIT + 10; i++) await wf.save(`edit ${i}`);
    expect(wf.version).toBe(REVISION_LIMIT + 12);
    expect(await wf.shape()).toEqual([
      [REVISION_LIMIT + 12, 3, 'save'],
      [2, 2, 'plan'],
      [1, 1, 'create'],
    ]);
  }, 120_000);

  it('lets one of two saves racing on a version win, with one entry for it', async () => {
    const alice = createOwnerClient();
    const wf = await setUp(alice);
    await wf.save('v2');
    const racing = await Promise.all(
      ['left', 'right'].map((url) =>
        alice.send(update, 'PUT', '', { version: 2, document: doc(url) }, { id: wf.id }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await wf.shape()).toEqual([
      [3, 2, 'save'],
      [1, 1, 'create'],
    ]);
  });
});
