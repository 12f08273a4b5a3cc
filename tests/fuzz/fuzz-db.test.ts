/**
 * Fuzzing the import route against the real database ("nothing written on invalid
 * input"): generated workflow exports, mutated until `validateExport` refuses them, are POSTed
 * to `POST /api/workflows/import` on each backend (PGlite, and Postgres when it answers). Each
 * must get 422 with every issue located in the file (400 when it holds text the database cannot
 * store), and no row may appear in any table.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { getStorableIssues, MAX_JSON_DEPTH } from '@/lib/tools/storable';
import { checkIssuePath, normalizeJson, type Json } from '@/tests/fuzz/json';
import { exportDraft, invalidExportFile } from '@/tests/fuzz/exports';
import { workflowDraft } from '@/tests/fuzz/workflows';
import { POST as importRoute } from '@/app/api/workflows/import/route';

const backends = await getTestBackends();

const SEED = 0x1db;
const FILES = 30;
/** Fixed files: the same 30 on every backend and every run (fast-check replays the seed). */
const invalidFiles: Json[] = fc.sample(invalidExportFile(), { seed: SEED, numRuns: FILES });
const validFile: Json = exportDraft(fc.sample(workflowDraft, { seed: SEED, numRuns: 1 })[0], {
  includeKnownBugs: false,
});

async function countRows(db: TestDatabase['db']) {
  const [workflows, revisions, owners, shares, toolkits] = await Promise.all([
    db.workflow.count(),
    db.workflowRevision.count(),
    db.owner.count(),
    db.share.count(),
    db.toolkit.count(),
  ]);
  return { workflows, revisions, owners, shares, toolkits };
}

describe.each(backends)('POST /api/workflows/import with fuzzed invalid exports on $name', (backend) => {
  let database: TestDatabase;
  // One caller per backend: imports are rate-limited per owner (60 a minute), and this stays under.
  let alice: OwnerClient;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
    alice = createOwnerClient();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('stores a valid generated export (so the counts below start from real rows)', async () => {
    const res = await alice.send(importRoute, 'POST', '/api/workflows/import', validFile);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await countRows(database.db)).workflows).toBe(1);
  });

  it(`answers 422 to ${FILES} invalid exports, locates every issue, and writes nothing`, async () => {
    expect(invalidFiles).toHaveLength(FILES);
    const before = await countRows(database.db);
    for (const [i, file] of invalidFiles.entries()) {
      const res = await alice.send(importRoute, 'POST', '/api/workflows/import', file);
      const body = await res.json();
      const what = `file ${i} (seed ${SEED}): ${JSON.stringify(file).slice(0, 300)}`;
      if (getStorableIssues(file, { at: '', what: 'file', maxDepth: MAX_JSON_DEPTH }).length) {
        // Text the database cannot hold (the fuzzers put NULs and half surrogate pairs in names)
        // is refused before the file is read, with 400 and where it is.
        expect(res.status, what).toBe(400);
        expect(body.code, what).toBe('bad_request:text');
      } else {
        expect(res.status, what).toBe(422);
        expect(body.code, what).toBe('unprocessable:import');
        expect(body.message, what).toContain('nothing was saved');
      }
      expect(body.issues.length, what).toBeGreaterThan(0);
      for (const issue of body.issues) {
        expect(issue.message.trim().length, what).toBeGreaterThanOrEqual(10);
        expect(
          checkIssuePath(normalizeJson(file), issue),
          `${what}: ${JSON.stringify(issue)}`,
        ).toBeUndefined();
      }
    }
    expect(await countRows(database.db)).toEqual(before);
  });
});
