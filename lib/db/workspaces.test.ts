/**
 * The accounts migration on a database made by the release before it: its browsers' owners become
 * guest workspaces with nothing moved, their workflows still theirs, and a guest workspace is
 * claimed whole into an account's personal workspace, once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPrisma, type Db } from './client';
import { applyMigrations, readMigrations } from './migrate';
import {
  createPgliteRunner,
  createPgRunner,
  openPglite,
  type DatabaseTarget,
  type SqlRunner,
} from './sql-runner';
import { listWorkflows } from './workflows';
import {
  claimGuestWorkspace,
  ensurePersonalWorkspace,
  getPersonalWorkspaceId,
  listWorkspaces,
} from './workspaces';

const ACCOUNTS = '20261201000000_accounts_workspaces';
const adminUrl = process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database as the release before accounts left it: its migrations, a guest and two workflows. */
async function seedPreviousRelease(runner: SqlRunner) {
  const previous = readMigrations().filter((m) => m.name < ACCOUNTS);
  expect(previous.length).toBe(readMigrations().findIndex((m) => m.name === ACCOUNTS));
  await applyMigrations(runner, previous);
  await runner.exec(`INSERT INTO "Owner" ("id") VALUES ('own_guest_aaaaaaaaaaaaaaaa'), ('own_other_bbbbbbbbbbbbbbbb');
    INSERT INTO "Workflow" ("id", "ownerId", "name", "document", "updatedAt") VALUES
      ('wf_1', 'own_guest_aaaaaaaaaaaaaaaa', 'Kept', '{"task":"","nodes":[],"edges":[],"tools":{}}', now()),
      ('wf_2', 'own_other_bbbbbbbbbbbbbbbb', 'Theirs', '{"task":"","nodes":[],"edges":[],"tools":{}}', now());`);
  await runner.close();
}

async function checkUpgraded(db: Db) {
  // Existing owners are guest workspaces, their workflows untouched.
  expect((await db.owner.findMany({ orderBy: { id: 'asc' } })).map((o) => [o.id, o.kind, o.name])).toEqual([
    ['own_guest_aaaaaaaaaaaaaaaa', 'anonymous', ''],
    ['own_other_bbbbbbbbbbbbbbbb', 'anonymous', ''],
  ]);
  expect((await listWorkflows(db, { ownerId: 'own_guest_aaaaaaaaaaaaaaaa' })).map((w) => w.name)).toEqual([
    'Kept',
  ]);
  // An account claims the guest's workflows; another account cannot claim them again.
  const now = new Date();
  for (const id of ['user_a', 'user_b'])
    await db.user.create({
      data: { id, name: id, email: `${id}@example.com`, createdAt: now, updatedAt: now },
    });
  await ensurePersonalWorkspace(db, { id: 'user_a', email: 'user_a@example.com', name: 'A' });
  await ensurePersonalWorkspace(db, { id: 'user_b', email: 'user_b@example.com', name: 'B' });
  expect(await claimGuestWorkspace(db, 'own_guest_aaaaaaaaaaaaaaaa', 'user_a')).toBe(1);
  expect(await claimGuestWorkspace(db, 'own_guest_aaaaaaaaaaaaaaaa', 'user_b')).toBeNull();
  expect((await listWorkflows(db, { ownerId: getPersonalWorkspaceId('user_a') })).map((w) => w.name)).toEqual(
    ['Kept'],
  );
  expect(await listWorkflows(db, { ownerId: getPersonalWorkspaceId('user_b') })).toEqual([]);
  expect((await listWorkflows(db, { ownerId: 'own_other_bbbbbbbbbbbbbbbb' })).map((w) => w.name)).toEqual([
    'Theirs',
  ]);
  expect(await listWorkspaces(db, 'user_a')).toEqual([
    { id: getPersonalWorkspaceId('user_a'), name: "A's workspace", kind: 'personal', role: 'owner' },
  ]);
}

describe('the accounts migration on a database of the release before it', () => {
  it('on PGlite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-accounts-'));
    const dataDir = path.join(dir, 'pglite');
    await seedPreviousRelease(createPgliteRunner(await openPglite(dataDir)));
    const db = await createPrisma({ kind: 'pglite', dataDir } satisfies DatabaseTarget);
    try {
      await checkUpgraded(db);
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
    const name = `toolflow_migrate_${randomBytes(4).toString('hex')}`;
    await admin.exec(`CREATE DATABASE "${name}"`);
    const url = adminUrl.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`).replace(/undefined$/, '');
    let db: Db | undefined;
    try {
      await seedPreviousRelease(await createPgRunner(url));
      db = await createPrisma({ kind: 'postgres', url });
      await checkUpgraded(db);
    } finally {
      await db?.$disconnect();
      await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    }
  }, 120_000);
});
