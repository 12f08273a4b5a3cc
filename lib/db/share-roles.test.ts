/**
 * The share-link roles migration on a database made by the release before it: every existing
 * link stays a live "can view" link, and "can edit" links record who took them up, for as long
 * as they are live (docs/design.md §13.4).
 */
import { describe, expect } from 'vitest';
import { testUpgrade } from '@/tests/upgrade';
import {
  createShare,
  findLinkGrant,
  getLiveShare,
  grantShare,
  hashShareToken,
  listShares,
  revokeShare,
} from './shares';

const OLD_TOKEN = 'A'.repeat(43);

describe('the share-link roles migration on a database of the release before it', () => {
  testUpgrade({
    migration: '20261203000000_share_link_roles',
    async seed(runner) {
      await runner.exec(`INSERT INTO "Owner" ("id", "kind", "name") VALUES ('own_team_aaaaaaaaaaaaaaaa', 'team', 'Lab');
        INSERT INTO "User" ("id", "name", "email") VALUES ('user_a', 'A', 'a@example.com'), ('user_b', 'B', 'b@example.com');
        INSERT INTO "Workflow" ("id", "ownerId", "name", "document", "updatedAt") VALUES
          ('wf_1', 'own_team_aaaaaaaaaaaaaaaa', 'Shared', '{"task":"","nodes":[],"edges":[],"tools":{}}', now());
        INSERT INTO "Share" ("id", "workflowId", "tokenHash") VALUES ('sh_old', 'wf_1', '${hashShareToken(OLD_TOKEN)}');`);
    },
    async check(db) {
      // The link made before roles is still live, and still only lets its holders view.
      expect((await getLiveShare(db, OLD_TOKEN))?.share).toMatchObject({ id: 'sh_old', role: 'viewer' });
      expect((await listShares(db, 'wf_1')).map((s) => [s.id, s.role])).toEqual([['sh_old', 'viewer']]);
      // Taking up a "can view" link grants no editing.
      await grantShare(db, 'sh_old', 'user_a');
      expect(await findLinkGrant(db, 'user_a', 'wf_1')).toBeNull();
      // A "can edit" link: live for the account that took it up, nothing for another, ended once revoked.
      const { token, share } = await createShare(db, 'wf_1', { role: 'editor' });
      expect((await getLiveShare(db, token))?.share.role).toBe('editor');
      await grantShare(db, share.id, 'user_a');
      await grantShare(db, share.id, 'user_a');
      expect(await findLinkGrant(db, 'user_a', 'wf_1')).toBe('live');
      expect(await findLinkGrant(db, 'user_b', 'wf_1')).toBeNull();
      expect(await revokeShare(db, 'wf_1', share.id)).toBe(true);
      expect(await findLinkGrant(db, 'user_a', 'wf_1')).toBe('ended');
      // An expired one ends the same way; a second live link keeps the account in.
      const expired = await createShare(db, 'wf_1', {
        role: 'editor',
        expiresAt: new Date(Date.now() - 1000),
      });
      await grantShare(db, expired.share.id, 'user_b');
      expect(await findLinkGrant(db, 'user_b', 'wf_1')).toBe('ended');
      const again = await createShare(db, 'wf_1', { role: 'editor' });
      await grantShare(db, again.share.id, 'user_a');
      expect(await findLinkGrant(db, 'user_a', 'wf_1')).toBe('live');
      // Deleting the account takes its grants with it.
      await db.user.delete({ where: { id: 'user_a' } });
      expect(await db.shareGrant.count({ where: { userId: 'user_a' } })).toBe(0);
    },
  });
});
