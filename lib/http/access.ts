import 'server-only';
/**
 * Who a request acts for, and what it may do: the one place every API route and page decides
 * access (docs/design.md §13.3 has the table).
 *
 * A request acts in one workspace with one role:
 * - a guest (no session): its browser's own guest workspace, the signed owner cookie's id
 *   (owner.ts), as owner; exactly as before accounts existed;
 * - a signed-in account: the workspace its `toolflow_workspace` cookie names when it is a member
 *   there, else its personal workspace, with its role there.
 * - an API token (`Authorization: Bearer tft_…`): the token's workspace, with its user's role
 *   there now (docs/design.md §13.5); cookies are then not read at all.
 * A guest request never touches the database here: only a request that carries a session cookie
 * or a token is looked up.
 *
 * A resource of another workspace is refused 403 whatever the role; a resource of the request's
 * workspace is refused 403 when the role does not allow the action.
 */
import { findLiveApiToken } from '../db/api-tokens';
import { getPrisma } from '../db/client';
import { findLinkGrant } from '../db/shares';
import {
  ensurePersonalWorkspace,
  getMemberRole,
  getPersonalWorkspaceId,
  listWorkspaces,
  type Role,
  type WorkspaceSummary,
} from '../db/workspaces';
import { getSessionUser } from './auth';
import { AppError } from './errors';
import { isSignInRequired } from './sign-in';
import { createOwnerId, OWNER_COOKIE, readCookie, verifyOwnerCookie } from './owner';

export type { Role } from '../db/workspaces';
export { isSignInRequired } from './sign-in';

/** The cookie naming the workspace a signed-in browser works in (PUT /api/workspaces/current). */
export const WORKSPACE_COOKIE = 'toolflow_workspace';

/**
 * What a request may do in its workspace:
 * - `read`: list, open, export, history, runs and their results, toolkits;
 * - `edit`: create, save, rename, duplicate, import, plan, restore, name revisions, toolkits;
 * - `run`: test-runs (start, pre-flight, cancel);
 * - `share`: make and revoke share links;
 * - `delete`: delete workflows;
 * - `manage`: members and invitations.
 */
export type Action = 'read' | 'edit' | 'run' | 'share' | 'delete' | 'manage';

/** The actions each role allows. */
export const ROLE_ACTIONS: Readonly<Record<Role, readonly Action[]>> = {
  owner: ['read', 'edit', 'run', 'share', 'delete', 'manage'],
  admin: ['read', 'edit', 'run', 'share', 'delete', 'manage'],
  editor: ['read', 'edit', 'run', 'share'],
  viewer: ['read'],
};

/** The workspace a request acts in, and as whom. */
export interface RequestOwner {
  /** The workspace id (an `Owner` row's id); what workflows, toolkits and runs name as `ownerId`. */
  id: string;
  /** A guest with no owner cookie yet: the response issues one (`withOwnerCookie`). */
  isNew: boolean;
  role: Role;
  /** The signed-in account, or null for a guest. */
  userId: string | null;
  /** Acting on one workflow of another workspace through a "can edit" link (getWorkflowOwner). */
  viaLink?: boolean;
  /** The API token the request came with, when it came with one instead of a browser's cookies. */
  tokenId?: string;
}

/** True when `role` allows `action`. */
export function can(role: Role, action: Action): boolean {
  return ROLE_ACTIONS[role].includes(action);
}

const requestOwners = new WeakMap<Request, Promise<RequestOwner>>();

/**
 * The workspace and role a request acts with. One request resolves once, however many steps of
 * its route ask. A guest's is computed from its cookie alone.
 */
export function getRequestOwner(request: Request): Promise<RequestOwner> {
  let owner = requestOwners.get(request);
  if (!owner) {
    owner = resolveOwner(request.headers);
    requestOwners.set(request, owner);
  }
  return owner;
}

async function resolveOwner(headers: Headers): Promise<RequestOwner> {
  const bearer = readBearerToken(headers);
  if (bearer !== null) return resolveTokenOwner(bearer);
  const cookie = headers.get('cookie');
  const user = await getSessionUser(headers);
  if (!user) {
    if (isSignInRequired()) throw signInRequired();
    const id = verifyOwnerCookie(readCookie(cookie, OWNER_COOKIE));
    return id
      ? { id, isNew: false, role: 'owner', userId: null }
      : { id: createOwnerId(), isNew: true, role: 'owner', userId: null };
  }
  const db = await getPrisma();
  const chosen = readCookie(cookie, WORKSPACE_COOKIE);
  if (chosen) {
    const role = await getMemberRole(db, chosen, user.id);
    if (role) return { id: chosen, isNew: false, role, userId: user.id };
  }
  const personal = getPersonalWorkspaceId(user.id);
  if (!(await getMemberRole(db, personal, user.id))) await ensurePersonalWorkspace(db, user);
  return { id: personal, isNew: false, role: 'owner', userId: user.id };
}

/** The secret of an `Authorization: Bearer …` header, or null when the request has none. */
export function readBearerToken(headers: Headers): string | null {
  // Anything after "Bearer" is the secret, however malformed: a bad one is refused, never ignored.
  const match = /^Bearer(?:\s+(.*))?$/i.exec(headers.get('authorization') ?? '');
  return match ? (match[1] ?? '').trim() : null;
}

/** A token's workspace with its user's role there now: 401 for a dead token, 403 for a non-member. */
async function resolveTokenOwner(secret: string): Promise<RequestOwner> {
  const db = await getPrisma();
  const token = await findLiveApiToken(db, secret);
  if (!token)
    throw new AppError(
      'unauthorized:token',
      'The API token is unknown, revoked or expired. Make a new one on your account page (/account).',
    );
  const role = await getMemberRole(db, token.workspaceId, token.userId);
  if (!role)
    throw new AppError(
      'forbidden:token',
      "The API token's account is no longer a member of the token's workspace. Ask a workspace owner to invite you again.",
    );
  return { id: token.workspaceId, isNew: false, role, userId: token.userId, tokenId: token.id };
}

function signInRequired(): AppError {
  return new AppError(
    'unauthorized:sign_in',
    'This Toolflow server requires signing in. Sign in at /sign-in, or send an account session.',
  );
}

/**
 * The workspace a server page renders for, or null for a browser with no owner cookie and no
 * session yet (proxy.ts issues the cookie on the first page visit; pages only read). When sign-in
 * is required, a browser without a session is sent to /sign-in.
 */
export async function getPageOwner(): Promise<RequestOwner | null> {
  const [{ headers }, { redirect }] = await Promise.all([import('next/headers'), import('next/navigation')]);
  const requestHeaders = new Headers(await headers());
  if (isSignInRequired() && !(await getSessionUser(requestHeaders))) redirect('/sign-in');
  const owner = await resolveOwner(requestHeaders);
  return owner.isNew ? null : owner;
}

/** 403 when the request's role does not allow `action` in its own workspace. */
export function assertCan(owner: RequestOwner, action: Action, what: string): void {
  if (can(owner.role, action)) return;
  throw new AppError(
    'forbidden:role',
    `You cannot ${what}: your role in this workspace is ${owner.role}, which does not allow it. Ask a workspace owner for a role that does.`,
  );
}

/** The kinds of resource a workspace holds, as refusals name them. */
type ResourceKind = 'workflow' | 'run' | 'toolkit';

/**
 * Refuses (403) unless the resource belongs to the request's workspace and the role allows
 * `action` on it. Reads are workspace-only too: a resource's URL is not a way to share it (it
 * could not be revoked); share links are (README: Ownership).
 */
export function assertWorkspaceAccess(
  owner: RequestOwner,
  kind: ResourceKind,
  resource: { id: string; ownerId: string | null },
  action: Action,
  what: string,
): void {
  if (resource.ownerId === null || resource.ownerId !== owner.id) {
    const advice =
      kind === 'workflow'
        ? ' Ask its owner for a share link and fork it to get your own copy, or to invite you to their workspace.'
        : kind === 'run'
          ? ' Runs are visible to their workspace only.'
          : '';
    const label = kind === 'run' ? 'test-run' : kind;
    throw new AppError(
      `forbidden:${kind}`,
      `You cannot ${what} ${label} "${resource.id}": it belongs to another browser or workspace.${advice}`,
    );
  }
  assertCan(owner, action, `${what} ${kind === 'run' ? 'test-run' : kind} "${resource.id}"`);
}

/**
 * What a "can edit" share link allows on its one workflow (docs/design.md §13.4): reading and
 * changing it (open, save, rename, export, history, restore, plan), never running, sharing,
 * duplicating or deleting it.
 */
export const LINK_ACTIONS: readonly Action[] = ['read', 'edit'];

/**
 * Who the request acts as on one workflow, for routes that an edit link reaches: the request
 * itself when the workflow is of its workspace and its role allows `action`; else, for a
 * signed-in account that opened a live "can edit" link to this workflow and an action such a link
 * allows, the workflow's workspace with role `editor` (`viaLink`), on that workflow only.
 * Otherwise 403: saying the link was revoked or expired when the account had one, else as
 * assertWorkspaceAccess words it. The link is looked up only when the workspace refuses, so a
 * member's request costs nothing more.
 */
export async function getWorkflowOwner(
  owner: RequestOwner,
  workflow: { id: string; ownerId: string | null },
  action: Action,
  what: string,
): Promise<RequestOwner> {
  if (workflow.ownerId !== null && workflow.ownerId === owner.id && can(owner.role, action)) return owner;
  if (owner.userId && workflow.ownerId !== null && LINK_ACTIONS.includes(action)) {
    const grant = await findLinkGrant(await getPrisma(), owner.userId, workflow.id);
    if (grant === 'live')
      return { id: workflow.ownerId, isNew: false, role: 'editor', userId: owner.userId, viaLink: true };
    if (grant === 'ended')
      throw new AppError(
        'forbidden:link_revoked',
        `You cannot ${what} workflow "${workflow.id}": the edit link you opened it with was revoked or has expired. Ask its owner for a new link.`,
      );
  }
  assertWorkspaceAccess(owner, 'workflow', workflow, action, what);
  return owner;
}

/** 401 for a request with no signed-in account, where one is needed (workspaces, members). */
export function requireSignedIn(owner: RequestOwner, what: string): string {
  if (owner.userId) return owner.userId;
  throw new AppError(
    'unauthorized:sign_in',
    `Sign in to ${what}. Guests work in their browser's own workspace only.`,
  );
}

/**
 * The caller's role in workspace `workspaceId` (which need not be the one it currently works in),
 * refusing unless it allows `action`: 404 when the caller is not a member (a workspace's
 * existence is not told to outsiders), 403 when the role does not allow it.
 */
export async function requireWorkspaceRole(
  request: Request,
  workspaceId: string,
  action: Action,
  what: string,
): Promise<{ owner: RequestOwner; userId: string; role: Role }> {
  const owner = await getRequestOwner(request);
  const userId = requireSignedIn(owner, what);
  const role = await getMemberRole(await getPrisma(), workspaceId, userId);
  if (!role)
    throw new AppError(
      'not_found:workspace',
      `No workspace with id "${workspaceId}" that you belong to. Check the id, or ask its owner to invite you.`,
    );
  assertCan({ ...owner, role }, action, what);
  return { owner, userId, role };
}

/** What a page shows of the browser's account: who is signed in and which workspaces it has. */
export interface PageAccount {
  owner: RequestOwner | null;
  user: { id: string; email: string; name: string } | null;
  workspaces: WorkspaceSummary[];
}

/** The account a server page renders for (a guest: no user, its one workspace). */
export async function getPageAccount(): Promise<PageAccount> {
  const { headers } = await import('next/headers');
  const requestHeaders = new Headers(await headers());
  const [owner, user] = await Promise.all([getPageOwner(), getSessionUser(requestHeaders)]);
  const workspaces = user && owner ? await listWorkspaces(await getPrisma(), user.id) : [];
  return { owner, user, workspaces };
}
