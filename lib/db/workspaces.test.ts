/**
 * The accounts migration on a database made by the release before it: its browsers' owners become
 * guest workspaces with nothing moved, their workflows still theirs, and a guest workspace is
 * claimed whole into an account's personal workspace, once.
 */
import { describe, expect } from 'vitest';
import { testUpgrade } from '@/tests/upgrade';
import type { Db } from './client';
import { readMigrations } from './migrate';
import type { SqlRunner } from './sql-runner';
import { listWorkflows } from './workflows';
import {
  claimGuestWorkspace,
  ensurePersonalWorkspace,
  getPersonalWorkspaceId,
  listWorkspaces,
} from './workspaces';

const ACCOUNTS = '20261201000000_accounts_workspaces';

/** A database as the release before accounts left it (its migrations: testUpgrade), a guest and two workflows. */
async function seedPreviousRelease(runner: SqlRunner) {
  const previous = readMigrations().filter((m) => m.name < ACCOUNTS);
  expect(previous.length).toBe(readMigrations().findIndex((m) => m.name === ACCOUNTS));
  await runner.exec(`INSERT INTO "Owner" ("id") VALUES ('own_guest_aaaaaaaaaaaaaaaa'), ('own_other_bbbbbbbbbbbbbbbb');
    INSERT INTO "Workflow" ("id", "ownerId", "name", "document", "updatedAt") VALUES
      ('wf_1', 'own_guest_aaaaaaaaaaaaaaaa', 'Kept', '{"task":"","nodes":[],"edges":[],"tools":{}}', now()),
      ('wf_2', 'own_other_bbbbbbbbbbbbbbbb', 'Theirs', '{"task":"","nodes":[],"edges":[],"tools":{}}', now());`);
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
  testUpgrade({ migration: ACCOUNTS, seed: seedPreviousRelease, check: checkUpgraded });
});
