import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { fragment, toQuery } from './sql';
import { createWorkflow, getWorkflowText, listWorkflows, updateWorkflow } from './workflows';
import { getHistoryPage, getRevision, getRevisionWithAccess, listRevisions } from './revisions';

const backends = await getTestBackends();

describe('toQuery', () => {
  it('numbers the template values and sends Dates as UTC', () => {
    const at = new Date('2026-11-25T20:01:02.345Z');
    expect(toQuery(['SELECT ', ' WHERE a = ', ' AND b = ', ''], [1, 'x', at])).toEqual({
      text: 'SELECT $1 WHERE a = $2 AND b = $3',
      params: [1, 'x', '2026-11-25T20:01:02.345Z'],
    });
    expect(toQuery(['SELECT ', ''], [undefined]).params).toEqual([null]);
  });

  it('splices a fragment in as SQL, numbering its values in their place', () => {
    const where = fragment`"a" = ${'x'} AND "b" IN (${fragment`${2}, ${3}`})`;
    expect(toQuery(['SELECT ', ' FROM t WHERE ', ' AND "c" = ', ''], [1, where, null])).toEqual({
      text: 'SELECT $1 FROM t WHERE "a" = $2 AND "b" IN ($3, $4) AND "c" = $5',
      params: [1, 'x', 2, 3, null],
    });
  });
});

/**
 * The hot queries go to the driver directly (lib/db/sql.ts) while the rest goes through Prisma:
 * both must read and write the same instants, whatever the server's time zone.
 */
describe.each(backends)('direct SQL and Prisma agree on $name', (backend) => {
  let database: TestDatabase;
  const zone = process.env.TZ;
  beforeAll(async () => {
    process.env.TZ = 'America/New_York'; // a zone where a local reading of UTC would be off by hours
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('reads the timestamps Prisma wrote, and writes ones Prisma reads back the same', async () => {
    const db = database.db;
    const before = Date.now();
    const created = await createWorkflow(db, {
      name: 'Zones',
      ownerId: 'own_zones',
      document: { nodes: [], edges: [], tools: {} } as never,
    });
    const viaPrisma = await db.workflow.findUniqueOrThrow({ where: { id: created.id } });
    const direct = await getWorkflowText(db, created.id);
    expect(direct?.createdAt.toISOString()).toBe(viaPrisma.createdAt.toISOString());
    expect(direct?.updatedAt.toISOString()).toBe(viaPrisma.updatedAt.toISOString());
    expect(Math.abs(direct!.createdAt.getTime() - before)).toBeLessThan(60_000);

    const saved = await updateWorkflow(db, created.id, {
      expectedVersion: 1,
      document: { nodes: [], edges: [], tools: {}, task: 'again' } as never,
      ownerId: 'own_zones',
    });
    expect(saved.ok).toBe(true);
    const afterSave = await db.workflow.findUniqueOrThrow({ where: { id: created.id } });
    expect(afterSave.version).toBe(2);
    expect(afterSave.task).toBe('again');
    expect(Math.abs(afterSave.updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
    const revision = await db.workflowRevision.findFirstOrThrow({
      where: { workflowId: created.id, version: 2 },
    });
    expect((await getRevision(db, created.id, 2))?.createdAt.toISOString()).toBe(
      revision.createdAt.toISOString(),
    );
    const [listed] = await listRevisions(db, created.id, { limit: 1 });
    expect(listed.createdAt.toISOString()).toBe(revision.createdAt.toISOString());
    const [summary] = await listWorkflows(db, { ownerId: 'own_zones' });
    expect(summary.updatedAt.toISOString()).toBe(afterSave.updatedAt.toISOString());
  });

  it('refuses a save by another owner or on a stale version, inside the same statement', async () => {
    const db = database.db;
    const created = await createWorkflow(db, {
      name: 'Guarded',
      ownerId: 'own_a',
      document: { nodes: [], edges: [], tools: {} } as never,
    });
    const doc = { nodes: [], edges: [], tools: {} } as never;
    expect(
      await updateWorkflow(db, created.id, { expectedVersion: 1, document: doc, ownerId: 'own_b' }),
    ).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(
      await updateWorkflow(db, created.id, { expectedVersion: 3, document: doc, ownerId: 'own_a' }),
    ).toMatchObject({ ok: false, reason: 'conflict' });
    expect(await updateWorkflow(db, created.id, { expectedVersion: 1, document: doc })).toMatchObject({
      ok: true,
    });
  });

  it('reads access with a history page or a revision in one statement, as the separate reads find them', async () => {
    const db = database.db;
    const doc = (task: string) => ({ nodes: [], edges: [], tools: {}, task }) as never;
    const created = await createWorkflow(db, { name: 'One trip', ownerId: 'own_t', document: doc('a') });
    for (const [version, task] of [
      [1, 'b'],
      [2, 'c'],
    ] as const) {
      const saved = await updateWorkflow(db, created.id, {
        expectedVersion: version,
        document: doc(task),
        reason: 'plan',
      });
      expect(saved.ok).toBe(true);
    }
    const page = await getHistoryPage(db, created.id, { limit: 2 });
    expect(page).toMatchObject({ id: created.id, ownerId: 'own_t', version: 3 });
    expect(page?.revisions).toEqual(await listRevisions(db, created.id, { limit: 2 }));
    expect(page?.revisions.map((r) => r.version)).toEqual([3, 2]);
    expect((await getHistoryPage(db, created.id, { before: 1 }))?.revisions).toEqual([]);
    expect(await getHistoryPage(db, 'wf_missing')).toBeNull();

    const shown = await getRevisionWithAccess(db, created.id, 3, { previous: true });
    expect(shown).toMatchObject({ id: created.id, ownerId: 'own_t', version: 3 });
    expect(shown?.revision).toEqual(await getRevision(db, created.id, 3));
    expect(shown?.previous).toEqual(await getRevision(db, created.id, 2));
    expect(shown?.previous?.document).toEqual(doc('b'));
    expect((await getRevisionWithAccess(db, created.id, 1, { previous: true }))?.previous).toBeNull();
    expect((await getRevisionWithAccess(db, created.id, 3, { previous: false }))?.previous).toBeNull();
    const missing = await getRevisionWithAccess(db, created.id, 9, { previous: true });
    expect(missing).toMatchObject({ version: 3, revision: null });
    expect(missing?.previous?.version).toBe(3);
    expect(await getRevisionWithAccess(db, 'wf_missing', 1, { previous: true })).toBeNull();
  });
});
