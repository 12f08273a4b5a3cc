/**
 * The API-token migration on a database made by the release before it (accounts, a workspace, a
 * run): nothing there changes, and tokens then work — made, found by their secret only, revoked,
 * gone with their user.
 */
import { describe, expect } from 'vitest';
import { testUpgrade } from '@/tests/upgrade';
import { createApiToken, findLiveApiToken, hashApiToken, listApiTokens, revokeApiToken } from './api-tokens';
import type { Db } from './client';
import type { SqlRunner } from './sql-runner';
import { getPersonalWorkspaceId } from './workspaces';

/** A database as the release before tokens left it: an account, its workspace and a queued run. */
async function seedPreviousRelease(runner: SqlRunner) {
  await runner.exec(`INSERT INTO "User" ("id", "name", "email") VALUES ('user_a', 'A', 'a@example.com');
    INSERT INTO "Owner" ("id", "kind", "accountId", "name") VALUES ('own_personal_user_a', 'personal', 'user_a', 'A''s workspace');
    INSERT INTO "Member" ("id", "workspaceId", "userId", "role") VALUES ('mem_1', 'own_personal_user_a', 'user_a', 'owner');
    INSERT INTO "Workflow" ("id", "ownerId", "name", "document", "updatedAt") VALUES
      ('wf_1', 'own_personal_user_a', 'Kept', '{"task":"","nodes":[],"edges":[],"tools":{}}', now());
    INSERT INTO "Run" ("id", "workflowId", "ownerId", "version", "exportText", "exportHash", "limits", "nodeCount")
      VALUES ('run_1', 'wf_1', 'own_personal_user_a', 1, '{}', 'sha256:0', '{}', 0);`);
}

async function checkUpgraded(db: Db) {
  expect((await db.run.findMany()).map((r) => [r.id, r.status])).toEqual([['run_1', 'queued']]);
  const workspaceId = getPersonalWorkspaceId('user_a');
  const { token, secret } = await createApiToken(db, { userId: 'user_a', workspaceId, name: 'CLI' });
  expect(secret).toMatch(/^tft_[A-Za-z0-9_-]{43}$/);
  expect(token).toMatchObject({ name: 'CLI', workspaceName: "A's workspace", start: secret.slice(0, 10) });
  // Only the hash is stored: the secret appears nowhere in the row.
  const row = await db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
  expect(row.tokenHash).toBe(hashApiToken(secret));
  expect(JSON.stringify(row)).not.toContain(secret.slice(10));
  expect(await findLiveApiToken(db, secret)).toEqual({ id: token.id, userId: 'user_a', workspaceId });
  expect(await findLiveApiToken(db, secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A'))).toBeNull();
  expect((await listApiTokens(db, 'user_a')).map((t) => t.id)).toEqual([token.id]);
  expect(await revokeApiToken(db, 'user_b', token.id)).toBe(false);
  expect(await revokeApiToken(db, 'user_a', token.id)).toBe(true);
  expect(await findLiveApiToken(db, secret)).toBeNull();
  expect(await listApiTokens(db, 'user_a')).toEqual([]);
  // An expired token is refused; a deleted account takes its tokens with it.
  const expired = await createApiToken(db, {
    userId: 'user_a',
    workspaceId,
    name: 'Old',
    expiresAt: new Date(Date.now() - 1000),
  });
  expect(await findLiveApiToken(db, expired.secret)).toBeNull();
  await db.user.delete({ where: { id: 'user_a' } });
  expect(await db.apiToken.count()).toBe(0);
}

describe('the API-token migration on a database of the release before it', () => {
  testUpgrade({ migration: '20261202000000_api_tokens', seed: seedPreviousRelease, check: checkUpgraded });
});
