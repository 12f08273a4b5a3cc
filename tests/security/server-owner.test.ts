/**
 * The server's owner (docs/design.md §13.1): on a server that requires signing in, the first
 * account owns the server's "Team" workspace and invites the others into it; later accounts own
 * only their personal workspaces. A server that lets guests in has no server workspace.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { GET as listWorkflows } from '@/app/api/workflows/route';
import { GET as listMembers, POST as inviteMember } from '@/app/api/workspaces/[id]/members/route';
import { PUT as switchWorkspace } from '@/app/api/workspaces/current/route';
import { ensureServerWorkspace, listWorkspaces, SERVER_WORKSPACE_ID } from '@/lib/db/workspaces';
import { createBrowser, signUp, type Browser } from './browser';

const backends = await getTestBackends();

async function userId(database: TestDatabase, email: string): Promise<string> {
  return (await database.db.user.findUniqueOrThrow({ where: { email } })).id;
}

describe.each(backends)('the server’s owner on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is nobody while guests are let in', async () => {
    await signUp(createBrowser(), 'early@example.com');
    expect(await database.db.owner.findUnique({ where: { id: SERVER_WORKSPACE_ID } })).toBeNull();
  });

  it('is the first account once sign-in is required, and it alone invites the team', async () => {
    vi.stubEnv('TOOLFLOW_REQUIRE_SIGN_IN', '1');
    // The server had an account before sign-in was required: that first account is the owner,
    // not the one whose sign-up happened to make the workspace.
    const [second, third]: Browser[] = [createBrowser(), createBrowser()];
    await signUp(second, 'second@example.com');
    await signUp(third, 'third@example.com');
    const owners = await database.db.member.findMany({ where: { workspaceId: SERVER_WORKSPACE_ID } });
    expect(owners.map((m) => [m.userId, m.role])).toEqual([
      [await userId(database, 'early@example.com'), 'owner'],
    ]);
    expect(
      (await listWorkspaces(database.db, await userId(database, 'early@example.com'))).map((w) => [
        w.id,
        w.name,
        w.role,
      ]),
    ).toContainEqual([SERVER_WORKSPACE_ID, 'Team', 'owner']);
    // The others are not members until invited; an outsider cannot invite.
    expect((await second.send(listMembers, 'GET', '', undefined, { id: SERVER_WORKSPACE_ID })).status).toBe(
      404,
    );
    expect(
      (
        await third.send(
          inviteMember,
          'POST',
          '',
          { email: 'second@example.com', role: 'editor' },
          { id: SERVER_WORKSPACE_ID },
        )
      ).status,
    ).toBe(404);
    // Without a session, nothing is answered at all.
    expect((await createBrowser().send(listWorkflows, 'GET', '/api/workflows')).status).toBe(401);
  });

  it('invites members into the server’s workspace, who then work there', async () => {
    vi.stubEnv('TOOLFLOW_REQUIRE_SIGN_IN', '1');
    const owner = createBrowser();
    // Signing in again finds the workspace made and its owner unchanged.
    const signedIn = await owner.send(authPost, 'POST', '/api/auth/sign-in/email', {
      email: 'early@example.com',
      password: 'a long password 1',
    });
    expect(signedIn.status).toBe(200);
    const invited = await owner.send(
      inviteMember,
      'POST',
      '',
      { email: 'fourth@example.com', role: 'editor' },
      { id: SERVER_WORKSPACE_ID },
    );
    expect(invited.status).toBe(201);
    const fourth = createBrowser();
    await signUp(fourth, 'fourth@example.com');
    expect((await fourth.send(switchWorkspace, 'PUT', '', { id: SERVER_WORKSPACE_ID })).status).toBe(200);
    const members = await owner.send(listMembers, 'GET', '', undefined, { id: SERVER_WORKSPACE_ID });
    expect(
      ((await members.json()).members as { email: string; role: string }[]).map((m) => [m.email, m.role]),
    ).toEqual([
      ['early@example.com', 'owner'],
      ['fourth@example.com', 'editor'],
    ]);
  });

  it('is made once, with one owner, however many sign-ups race for it', async () => {
    await database.db.owner.delete({ where: { id: SERVER_WORKSPACE_ID } });
    await Promise.all(Array.from({ length: 6 }, () => ensureServerWorkspace(database.db)));
    const owners = await database.db.member.findMany({ where: { workspaceId: SERVER_WORKSPACE_ID } });
    expect(owners.map((m) => m.role)).toEqual(['owner']);
    expect(owners[0].userId).toBe(await userId(database, 'early@example.com'));
  });
});
