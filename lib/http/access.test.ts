import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertCan, assertWorkspaceAccess, can, getRequestOwner, ROLE_ACTIONS, type Action } from './access';
import { createOwnerId, OWNER_COOKIE, signOwnerCookie } from './owner';

describe('getRequestOwner', () => {
  it("acts for a guest in its cookie's workspace, as owner, without asking the database", async () => {
    const id = createOwnerId();
    const request = new Request('http://x/', {
      headers: { cookie: `a=1; ${OWNER_COOKIE}=${signOwnerCookie(id)}; b=2` },
    });
    expect(await getRequestOwner(request)).toEqual({ id, isNew: false, role: 'owner', userId: null });
  });

  it('makes a new guest when there is no valid cookie', async () => {
    const owner = await getRequestOwner(
      new Request('http://x/', { headers: { cookie: `${OWNER_COOKIE}=v1.x.y` } }),
    );
    expect(owner).toMatchObject({ isNew: true, role: 'owner', userId: null });
    expect(owner.id).toMatch(/^own_/);
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('refuses guests, with and without a cookie, when TOOLFLOW_REQUIRE_SIGN_IN=1', async () => {
    vi.stubEnv('TOOLFLOW_REQUIRE_SIGN_IN', '1');
    const cookie = `${OWNER_COOKIE}=${signOwnerCookie(createOwnerId())}`;
    for (const headers of [{ cookie }, {} as Record<string, string>]) {
      await expect(getRequestOwner(new Request('http://x/', { headers }))).rejects.toMatchObject({
        status: 401,
        code: 'unauthorized:sign_in',
      });
    }
  });

  it('gives one request one owner, a new one included, and another request another', async () => {
    const request = new Request('http://x/');
    const owner = await getRequestOwner(request);
    expect(await getRequestOwner(request)).toBe(owner);
    expect((await getRequestOwner(new Request('http://x/'))).id).not.toBe(owner.id);
  });
});

describe('can', () => {
  it('allows each role exactly its actions: viewers read, editors also edit, run and share, owners and admins all', () => {
    const actions: Action[] = ['read', 'edit', 'run', 'share', 'delete', 'manage'];
    const table = Object.fromEntries(
      Object.keys(ROLE_ACTIONS).map((role) => [
        role,
        actions.filter((action) => can(role as keyof typeof ROLE_ACTIONS, action)).join(' '),
      ]),
    );
    expect(table).toEqual({
      owner: 'read edit run share delete manage',
      admin: 'read edit run share delete manage',
      editor: 'read edit run share',
      viewer: 'read',
    });
  });
});

describe('assertWorkspaceAccess', () => {
  const owner = { id: createOwnerId(), isNew: false, role: 'owner', userId: null } as const;
  it("lets the workspace's owner through", () => {
    expect(() =>
      assertWorkspaceAccess(owner, 'workflow', { id: 'wf_1', ownerId: owner.id }, 'edit', 'change'),
    ).not.toThrow();
  });

  it('refuses another workspace, and a workflow nobody owns, with 403 saying what to do', () => {
    for (const ownerId of [createOwnerId(), null]) {
      try {
        assertWorkspaceAccess(owner, 'workflow', { id: 'wf_1', ownerId }, 'read', 'open');
        expect.unreachable();
      } catch (error) {
        expect((error as { status: number }).status).toBe(403);
        expect((error as { code: string }).code).toBe('forbidden:workflow');
        expect((error as Error).message).toContain('Ask its owner for a share link');
      }
    }
  });

  it("refuses a role that does not allow the action in the workspace's own resource", () => {
    const viewer = { ...owner, role: 'viewer' } as const;
    expect(() =>
      assertWorkspaceAccess(viewer, 'run', { id: 'run_1', ownerId: owner.id }, 'read', 'see'),
    ).not.toThrow();
    expect(() =>
      assertWorkspaceAccess(viewer, 'run', { id: 'run_1', ownerId: owner.id }, 'run', 'cancel'),
    ).toThrow(/your role in this workspace is viewer/);
    expect(() => assertCan({ ...owner, role: 'editor' }, 'delete', 'delete it')).toThrow(
      expect.objectContaining({ status: 403, code: 'forbidden:role' }),
    );
  });
});
