/**
 * The load test's own Postgres database: created fresh and migrated before the run, read
 * directly afterwards to verify the acknowledged saves, dropped at the end (unless --keep).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { applyMigrations, readMigrations } from '../../lib/db/migrate';
import { createPgRunner } from '../../lib/db/sql-runner';
import { hashDocument, type StoredWorkflow } from './verify';

/** `url` with its database name replaced by `name`. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** The database name in a postgres:// URL. */
export function getDatabaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/**
 * Creates `toolflow_load_<random>` on the server of `adminUrl` and applies the migrations of the
 * app in `appDir` (the one that will serve it).
 */
export async function createLoadDatabase(
  adminUrl: string,
  appDir: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `toolflow_load_${randomBytes(4).toString('hex')}`;
  const admin = await createPgRunner(adminUrl);
  try {
    await admin.exec(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.close();
  }
  const url = withDatabase(adminUrl, name);
  const runner = await createPgRunner(url);
  try {
    await applyMigrations(runner, readMigrations(`${appDir}/prisma/migrations`));
  } finally {
    await runner.close();
  }
  return {
    url,
    name,
    async drop() {
      const a = await createPgRunner(adminUrl);
      try {
        await a.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.close();
      }
    },
  };
}

const HASH_SQL = `encode(sha256(convert_to("document"::text, 'UTF8')), 'hex')`;

/**
 * The stored version and document hash of each workflow, with every history entry's hash and the
 * versions folded into autosave entries. Hashes are
 * of the stored JSON text, computed in Postgres so no document crosses the wire; a text that is
 * not byte-identical to what the client hashed (e.g. whitespace) is fetched and compared after
 * re-serialising, and counted in `reserialized`.
 */
export async function loadStoredWorkflows(
  url: string,
  ids: readonly string[],
  expected: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<{ stored: Map<string, StoredWorkflow>; reserialized: number }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // a dropped connection fails the pending query instead
  await client.connect();
  let reserialized = 0;
  // Falls back to the parsed document when the text hash is not one the client sent.
  const settle = async (
    table: 'Workflow' | 'WorkflowRevision',
    id: string,
    version: number,
    hash: string,
  ) => {
    if (expected.get(id)?.has(hash)) return hash;
    const where = table === 'Workflow' ? `"id" = $1` : `"workflowId" = $1 AND "version" = $2`;
    const params = table === 'Workflow' ? [id] : [id, version];
    const { rows } = await client.query(`SELECT "document" FROM "${table}" WHERE ${where}`, params);
    const again = rows[0] ? hashDocument(rows[0].document) : hash;
    if (again !== hash && expected.get(id)?.has(again)) reserialized += 1;
    return again;
  };
  try {
    const stored = new Map<string, StoredWorkflow>();
    const workflows = await client.query<{ id: string; version: number; hash: string }>(
      `SELECT "id", "version", ${HASH_SQL} AS "hash" FROM "Workflow" WHERE "id" = ANY($1)`,
      [ids],
    );
    for (const row of workflows.rows) {
      const hash = await settle('Workflow', row.id, row.version, row.hash);
      stored.set(row.id, { version: row.version, hash, revisions: new Map(), folded: new Set() });
    }
    // A build from before autosaves were folded into one entry (--app-dir) has no firstVersion:
    // there each entry is one version.
    const { rowCount: folds } = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'WorkflowRevision' AND column_name = 'firstVersion'`,
    );
    const firstVersion = folds ? '"firstVersion"' : '"version" AS "firstVersion"';
    const revisions = await client.query<{
      workflowId: string;
      version: number;
      firstVersion: number;
      hash: string;
    }>(
      `SELECT "workflowId", "version", ${firstVersion}, ${HASH_SQL} AS "hash" FROM "WorkflowRevision" WHERE "workflowId" = ANY($1)`,
      [ids],
    );
    for (const row of revisions.rows) {
      const hash = await settle('WorkflowRevision', row.workflowId, row.version, row.hash);
      const workflow = stored.get(row.workflowId);
      workflow?.revisions.set(row.version, hash);
      for (let v = row.firstVersion; v < row.version; v++) workflow?.folded.add(v);
    }
    return { stored, reserialized };
  } finally {
    await client.end();
  }
}

/** Process ids of the server backends connected to database `name` (for CPU accounting). */
export async function getBackendPids(client: pg.Client, name: string): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [name],
  );
  return rows.map((r) => r.pid);
}

/** Database size and the pool-relevant server setting, for the report. */
export async function getDatabaseFacts(
  client: pg.Client,
  name: string,
): Promise<{ sizeMb: number; maxConnections: number }> {
  const size = await client.query<{ bytes: string }>(`SELECT pg_database_size($1) AS bytes`, [name]);
  const max = await client.query<{ max_connections: string }>(`SHOW max_connections`);
  return {
    sizeMb: Number(size.rows[0].bytes) / 1048576,
    maxConnections: Number(max.rows[0].max_connections),
  };
}
