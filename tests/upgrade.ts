/**
 * Migration tests on a database made by an earlier release: `seed` runs on a database with every
 * migration before `migration` applied (as that release left it), then the app opens it, which
 * applies the rest (lib/db/migrate.ts), and `check` runs on the upgraded database. Once on PGlite
 * (a data directory on disk) and once on a fresh Postgres database (skipped without a server
 * unless TOOLFLOW_TEST_REQUIRE_PG=1).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createPrisma, type Db } from '@/lib/db/client';
import { applyMigrations, readMigrations } from '@/lib/db/migrate';
import {
  createPgliteRunner,
  createPgRunner,
  openPglite,
  type DatabaseTarget,
  type SqlRunner,
} from '@/lib/db/sql-runner';

const adminUrl = process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Upgrade {
  /** The migration under test: the seed's database has every migration before it. */
  migration: string;
  seed(runner: SqlRunner): Promise<void>;
  check(db: Db): Promise<void>;
}

async function seedRelease(runner: SqlRunner, upgrade: Upgrade): Promise<void> {
  const all = readMigrations();
  const before = all.filter((m) => m.name < upgrade.migration);
  expect(all.map((m) => m.name)).toContain(upgrade.migration);
  try {
    await applyMigrations(runner, before);
    await upgrade.seed(runner);
  } finally {
    await runner.close();
  }
}

/** Declares the two tests, PGlite and Postgres. */
export function testUpgrade(upgrade: Upgrade): void {
  it('on PGlite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-upgrade-'));
    const dataDir = path.join(dir, 'pglite');
    await seedRelease(createPgliteRunner(await openPglite(dataDir)), upgrade);
    const db = await createPrisma({ kind: 'pglite', dataDir } satisfies DatabaseTarget);
    try {
      await upgrade.check(db);
    } finally {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('on Postgres', async (context) => {
    let admin: SqlRunner;
    try {
      admin = await createPgRunner(adminUrl);
    } catch {
      if (process.env.TOOLFLOW_TEST_REQUIRE_PG === '1') throw new Error(`No Postgres at ${adminUrl}`);
      context.skip();
      return;
    }
    const name = `toolflow_upgrade_${randomBytes(4).toString('hex')}`;
    await admin.exec(`CREATE DATABASE "${name}"`);
    const url = adminUrl.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`).replace(/undefined$/, '');
    let db: Db | undefined;
    try {
      await seedRelease(await createPgRunner(url), upgrade);
      db = await createPrisma({ kind: 'postgres', url });
      await upgrade.check(db);
    } finally {
      await db?.$disconnect();
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    }
  }, 120_000);
}
