/**
 * Database test backends. Every database test runs once per backend: embedded PGlite (in
 * memory) and, when a Postgres server answers on TOOLFLOW_TEST_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), a fresh database created on it for the file.
 * CI sets TOOLFLOW_TEST_REQUIRE_PG=1 so a missing server fails instead of skipping.
 */
import { randomBytes } from 'node:crypto';
import { createPrisma, setPrismaForTests, type Db } from '@/lib/db/client';
import { createPgRunner } from '@/lib/db/sql-runner';

export interface TestDatabase {
  db: Db;
  /** Connection URL for the postgres backend (undefined for PGlite). */
  url?: string;
  close(): Promise<void>;
}

export interface TestBackend {
  name: 'pglite' | 'postgres';
  open(): Promise<TestDatabase>;
}

const adminUrl = process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function isPostgresUp(): Promise<boolean> {
  try {
    const r = await createPgRunner(adminUrl);
    await r.close();
    return true;
  } catch {
    return false;
  }
}

const pgliteBackend: TestBackend = {
  name: 'pglite',
  async open() {
    const db = await createPrisma({ kind: 'pglite', dataDir: 'memory://' });
    return { db, close: () => db.$disconnect() };
  },
};

const postgresBackend: TestBackend = {
  name: 'postgres',
  async open() {
    const name = `toolflow_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = await createPgRunner(adminUrl);
    await admin.exec(`CREATE DATABASE "${name}"`);
    await admin.close();
    const url = adminUrl.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`).replace(/undefined$/, '');
    const db = await createPrisma({ kind: 'postgres', url });
    return {
      db,
      url,
      async close() {
        await db.$disconnect();
        const a = await createPgRunner(adminUrl);
        await a.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await a.close();
      },
    };
  },
};

/** The backends to run database tests on (top-level await in the test file). */
export async function getTestBackends(): Promise<TestBackend[]> {
  if (await isPostgresUp()) return [pgliteBackend, postgresBackend];
  if (process.env.TOOLFLOW_TEST_REQUIRE_PG === '1') {
    throw new Error(`TOOLFLOW_TEST_REQUIRE_PG=1 but no Postgres answers at ${adminUrl}.`);
  }
  console.warn(`No Postgres at ${adminUrl}: database tests run on PGlite only.`);
  return [pgliteBackend];
}

/** Opens a database for the backend and points the app's getPrisma() at it. */
export async function useTestDatabase(backend: TestBackend): Promise<TestDatabase> {
  const database = await backend.open();
  setPrismaForTests(database.db);
  return {
    ...database,
    async close() {
      setPrismaForTests(undefined);
      await database.close();
    },
  };
}

/**
 * Makes a workflow's history look as if its entries were begun an hour ago, so the next autosave
 * begins an entry of its own instead of being folded into the last one (lib/db/workflows.ts):
 * for tests that need one history entry per save.
 */
export async function ageHistory(db: Db, workflowId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "WorkflowRevision" SET "createdAt" = "createdAt" - interval '1 hour'
    WHERE "workflowId" = ${workflowId}`;
}

/** Builds a JSON Request for calling route handlers directly. */
export function jsonRequest(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Request {
  return new Request(new URL(url, 'http://127.0.0.1:3000'), {
    method,
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}
