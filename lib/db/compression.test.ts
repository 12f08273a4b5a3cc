import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';

const backends = await getTestBackends();

/**
 * Migration 20261127000000_document_lz4: documents are compressed with lz4 where the database has
 * it, and a database without it still migrates (the embedded one may lack it).
 */
describe.each(backends)('document compression on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('is lz4 for Workflow and WorkflowRevision documents exactly when the server supports lz4', async () => {
    const db = database.db;
    let lz4 = true;
    try {
      await db.$executeRawUnsafe('CREATE TEMP TABLE "lz4_probe" ("d" json COMPRESSION lz4)');
      await db.$executeRawUnsafe('DROP TABLE "lz4_probe"');
    } catch {
      lz4 = false;
    }
    const rows = await db.$queryRawUnsafe<{ table: string; compression: string }[]>(
      `SELECT c.relname::text AS "table", a.attcompression::text AS "compression"
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relname IN ('Workflow', 'WorkflowRevision') AND a.attname = 'document'
       ORDER BY c.relname`,
    );
    expect(rows.map((r) => r.table)).toEqual(['Workflow', 'WorkflowRevision']);
    for (const row of rows) expect(row.compression === 'l', `${row.table}: ${row.compression}`).toBe(lz4);
  });
});
