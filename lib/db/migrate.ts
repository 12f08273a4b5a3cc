/**
 * Applies the committed migrations in prisma/migrations/ in order, recording them in Prisma's own
 * `_prisma_migrations` table (same columns and checksums), so `prisma migrate status` agrees.
 * Done here rather than through `prisma migrate deploy` because the Prisma CLI idles for up to a
 * minute after finishing and trips over adapter-pg catalog types (docs/design.md §10.3); this runs in
 * milliseconds on both backends before `dev`, `start`, tests, and on first database use.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SqlRunner } from './sql-runner';

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** Reads prisma/migrations/<name>/migration.sql, sorted by name (timestamp prefix). */
export function readMigrations(
  dir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), 'prisma/migrations'),
): MigrationFile[] {
  if (!fs.existsSync(/*turbopackIgnore: true*/ dir))
    throw new Error(`No migrations folder at ${dir}. Run from the project root.`);
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter(
      (d) =>
        d.isDirectory() && fs.existsSync(/*turbopackIgnore: true*/ path.join(dir, d.name, 'migration.sql')),
    )
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const LEDGER = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Arbitrary constant: serialises concurrent migrators (parallel test workers, two servers). */
const LOCK_KEY = 72_634_001;

/**
 * Applies every migration not yet recorded, each in its own transaction. A recorded migration
 * whose file changed is an error (someone edited history), never silently re-applied.
 */
export async function applyMigrations(db: SqlRunner, migrations = readMigrations()): Promise<string[]> {
  const applied: string[] = [];
  await db.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
  try {
    await db.exec(LEDGER);
    const rows = await db.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of migrations) {
      const seen = done.get(m.name);
      if (seen !== undefined) {
        if (seen !== m.checksum) {
          throw new Error(
            `Migration ${m.name} was changed after it was applied (checksum differs). Add a new migration instead of editing an old one.`,
          );
        }
        continue;
      }
      await db.exec('BEGIN');
      try {
        await db.exec(m.sql);
        await db.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await db.exec('COMMIT');
      } catch (error) {
        await db.exec('ROLLBACK');
        throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(m.name);
    }
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
  }
  return applied;
}
