import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { getDatabaseBacking } from './client';
import { createLiveShareMemo, type LiveShareRow } from './live-shares';
import { createShare, getLiveShare, hashShareToken, revokeShare } from './shares';
import { createWorkflow, deleteWorkflow, updateWorkflow } from './workflows';

const backends = await getTestBackends();
const document = { nodes: [], edges: [], tools: {} } as never;
const row: LiveShareRow = {
  id: 'sh_1',
  workflowId: 'wf_1',
  role: 'viewer',
  createdAt: new Date(0),
  expiresAt: null,
  revokedAt: null,
  version: 1,
};

describe('live share memo', () => {
  it('keeps a row until invalidated, and refuses one read before a change', () => {
    const memo = createLiveShareMemo();
    const before = memo.generation();
    memo.set('a', row, before);
    memo.set('b', null, before);
    expect(memo.get('a')).toBe(row);
    expect(memo.get('b')).toBeNull();
    expect(memo.get('c')).toBeUndefined();
    memo.invalidate();
    expect(memo.get('a')).toBeUndefined();
    memo.set('a', row, before); // read before the change: may be stale
    expect(memo.get('a')).toBeUndefined();
    memo.set('a', row, memo.generation());
    expect(memo.get('a')).toBe(row);
  });

  it('holds at most its number of entries', () => {
    const memo = createLiveShareMemo(3);
    for (const key of ['a', 'b', 'c', 'd']) memo.set(key, null, memo.generation());
    expect(['a', 'b', 'c', 'd'].filter((key) => memo.get(key) !== undefined).length).toBeLessThanOrEqual(3);
    expect(memo.get('d')).toBeNull();
  });
});

/**
 * Every way a link stops being live, or its workflow moves to a new version, is seen by the very
 * next check, whether the check asks the database (Postgres) or remembers (PGlite, where the
 * database's own triggers empty the memory on each write).
 */
describe.each(backends)('the link check sees every write at once on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function newLink() {
    const db = database.db;
    const workflow = await createWorkflow(db, { name: 'Memo', ownerId: 'own_memo', document });
    const { token, share } = await createShare(db, workflow.id);
    expect((await getLiveShare(db, token))?.version).toBe(1);
    return { workflow, token, share };
  }

  it('remembers on the embedded database only, and asks nothing again until a write', async () => {
    const db = database.db;
    const { token } = await newLink();
    const backing = getDatabaseBacking(db);
    if (backing.kind !== 'pglite') {
      expect('liveShares' in backing).toBe(false);
      return;
    }
    const pglite = backing.pglite;
    const original = pglite.query.bind(pglite);
    let queries = 0;
    pglite.query = ((...args: Parameters<typeof original>) => {
      queries += 1;
      return original(...args);
    }) as typeof pglite.query;
    try {
      for (let i = 0; i < 5; i++) expect((await getLiveShare(db, token))?.version).toBe(1);
      expect(queries).toBe(0);
    } finally {
      pglite.query = original;
    }
  });

  it('a revocation', async () => {
    const { workflow, token, share } = await newLink();
    expect(await revokeShare(database.db, workflow.id, share.id)).toBe(true);
    expect(await getLiveShare(database.db, token)).toBeNull();
  });

  it('a save, which makes a new version', async () => {
    const { workflow, token } = await newLink();
    const saved = await updateWorkflow(database.db, workflow.id, { expectedVersion: 1, document });
    expect(saved.ok).toBe(true);
    expect((await getLiveShare(database.db, token))?.version).toBe(2);
  });

  it('the workflow deleted (its links go with it)', async () => {
    const { workflow, token } = await newLink();
    expect(await deleteWorkflow(database.db, workflow.id)).toBe(true);
    expect(await getLiveShare(database.db, token)).toBeNull();
  });

  it('an expiry set later, and the expiry passing with no write at all', async () => {
    const { token, share } = await newLink();
    const soon = new Date(Date.now() + 60_000);
    await database.db.share.update({ where: { id: share.id }, data: { expiresAt: soon } });
    expect((await getLiveShare(database.db, token))?.share.expiresAt?.toISOString()).toBe(soon.toISOString());
    expect(await getLiveShare(database.db, token, new Date(soon.getTime() + 1))).toBeNull();
  });

  it('raw SQL in a transaction, and a link made for a token checked before', async () => {
    const { token, share } = await newLink();
    await database.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`UPDATE "Share" SET "revokedAt" = now() WHERE "id" = $1`, share.id);
    });
    expect(await getLiveShare(database.db, token)).toBeNull();

    const workflow = await createWorkflow(database.db, { name: 'Later', ownerId: 'own_memo', document });
    const later = 'L'.repeat(43);
    expect(await getLiveShare(database.db, later)).toBeNull();
    await database.db.share.create({
      data: { id: 'sh_later', workflowId: workflow.id, tokenHash: hashShareToken(later) },
    });
    expect((await getLiveShare(database.db, later))?.share.id).toBe('sh_later');
  });
});
