import 'server-only';
/**
 * Workspaces (docs/design.md §13). A workspace is an `Owner` row: a guest browser's (`anonymous`,
 * its id the owner cookie's), an account's `personal` one, or a `team` one. Workflows, toolkits
 * and runs name their workspace in `ownerId`. Members and invitations say who may act in the
 * personal and team ones; a guest workspace has exactly one actor, the browser holding its cookie.
 */
import type { Db } from './client';
import { createId } from './ids';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export interface WorkspaceSummary {
  id: string;
  name: string;
  kind: string;
  role: Role;
}

/** The id of an account's personal workspace: fixed, so making it twice makes it once. */
export function getPersonalWorkspaceId(userId: string): string {
  return `own_personal_${userId}`;
}

/**
 * Makes the account's personal workspace and its owner membership if missing, and takes up the
 * invitations waiting for the account's e-mail address. Idempotent.
 */
export async function ensurePersonalWorkspace(
  db: Db,
  user: { id: string; email: string; name?: string | null },
): Promise<string> {
  const id = getPersonalWorkspaceId(user.id);
  const name = user.name?.trim() ? `${user.name.trim()}'s workspace` : 'Personal';
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO "Owner" ("id", "kind", "accountId", "name")
      VALUES (${id}, 'personal', ${user.id}, ${name}) ON CONFLICT ("id") DO NOTHING`;
    await addMember(tx, id, user.id, 'owner');
    await acceptInvitations(tx, user);
  });
  return id;
}

async function addMember(db: Db | Tx, workspaceId: string, userId: string, role: Role): Promise<void> {
  await db.$executeRaw`INSERT INTO "Member" ("id", "workspaceId", "userId", "role")
    VALUES (${createId('mem')}, ${workspaceId}, ${userId}, ${role})
    ON CONFLICT ("workspaceId", "userId") DO NOTHING`;
}

async function acceptInvitations(db: Tx, user: { id: string; email: string }): Promise<void> {
  const email = user.email.trim().toLowerCase();
  const invitations = await db.invitation.findMany({ where: { email } });
  for (const invitation of invitations) {
    if (isRole(invitation.role)) await addMember(db, invitation.workspaceId, user.id, invitation.role);
  }
  if (invitations.length) await db.invitation.deleteMany({ where: { email } });
}

/**
 * Moves a guest workspace's workflows, toolkits and runs into the account's personal workspace,
 * in one transaction, and marks the guest workspace as claimed by the account; the number of
 * workflows moved. A guest id that is not a guest workspace (another account's, or unknown) moves
 * nothing: null. Claiming again (the next sign-in from that browser) moves what came since.
 */
export async function claimGuestWorkspace(db: Db, guestId: string, userId: string): Promise<number | null> {
  const target = getPersonalWorkspaceId(userId);
  return db.$transaction(async (tx) => {
    const guest = await tx.owner.findUnique({ where: { id: guestId } });
    if (!guest || guest.kind !== 'anonymous' || (guest.accountId !== null && guest.accountId !== userId))
      return null;
    const workflows = await tx.workflow.updateMany({
      where: { ownerId: guestId },
      data: { ownerId: target },
    });
    await tx.toolkit.updateMany({ where: { ownerId: guestId }, data: { ownerId: target } });
    await tx.run.updateMany({ where: { ownerId: guestId }, data: { ownerId: target } });
    await tx.owner.update({ where: { id: guestId }, data: { accountId: userId } });
    return workflows.count;
  });
}

/** The role `userId` has in `workspaceId`, or null when not a member. */
export async function getMemberRole(db: Db, workspaceId: string, userId: string): Promise<Role | null> {
  const member = await db.member.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true },
  });
  return member && isRole(member.role) ? member.role : null;
}

/** The workspaces an account belongs to, personal first, then by name. */
export async function listWorkspaces(db: Db, userId: string): Promise<WorkspaceSummary[]> {
  const rows = await db.member.findMany({
    where: { userId },
    select: { role: true, workspace: { select: { id: true, name: true, kind: true } } },
  });
  return rows
    .filter((row) => isRole(row.role))
    .map((row) => ({ ...row.workspace, role: row.role as Role }))
    .sort((a, b) => (a.kind === 'personal' ? -1 : b.kind === 'personal' ? 1 : a.name.localeCompare(b.name)));
}

/** Makes a team workspace with its creator as owner. */
export async function createTeamWorkspace(db: Db, userId: string, name: string): Promise<WorkspaceSummary> {
  const id = createId('own');
  await db.$transaction(async (tx) => {
    await tx.owner.create({ data: { id, kind: 'team', name } });
    await addMember(tx, id, userId, 'owner');
  });
  return { id, name, kind: 'team', role: 'owner' };
}

export interface MemberSummary {
  userId: string;
  email: string;
  name: string;
  role: Role;
}

/** A workspace's members and the invitations not yet taken up. */
export async function listMembers(
  db: Db,
  workspaceId: string,
): Promise<{ members: MemberSummary[]; invitations: { email: string; role: Role }[] }> {
  const [members, invitations] = await Promise.all([
    db.member.findMany({
      where: { workspaceId },
      select: { role: true, user: { select: { id: true, email: true, name: true } } },
      orderBy: { createdAt: 'asc' },
    }),
    db.invitation.findMany({ where: { workspaceId }, orderBy: { createdAt: 'asc' } }),
  ]);
  return {
    members: members
      .filter((m) => isRole(m.role))
      .map((m) => ({ userId: m.user.id, email: m.user.email, name: m.user.name, role: m.role as Role })),
    invitations: invitations
      .filter((i) => isRole(i.role))
      .map((i) => ({ email: i.email, role: i.role as Role })),
  };
}

/**
 * Invites an e-mail address with a role: an account with that address becomes a member at once
 * (or has its role set), otherwise the invitation waits for one to sign up or in. Either way the
 * caller learns the same thing, so inviting is no way to find out who has an account.
 */
export async function inviteMember(
  db: Db,
  workspaceId: string,
  email: string,
  role: Role,
  invitedBy: string,
): Promise<void> {
  const address = email.trim().toLowerCase();
  await db.$transaction(async (tx) => {
    const user = await tx.user.findFirst({
      where: { email: { equals: address, mode: 'insensitive' } },
      select: { id: true },
    });
    if (user) {
      await tx.member.upsert({
        where: { workspaceId_userId: { workspaceId, userId: user.id } },
        create: { id: createId('mem'), workspaceId, userId: user.id, role },
        update: { role },
      });
      return;
    }
    await tx.invitation.upsert({
      where: { workspaceId_email: { workspaceId, email: address } },
      create: { id: createId('inv'), workspaceId, email: address, role, invitedBy },
      update: { role, invitedBy },
    });
  });
}

/** Removes a member or a waiting invitation; true when there was one. */
export async function removeMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const { count } = await db.member.deleteMany({ where: { workspaceId, userId } });
  return count > 0;
}

/** How many owners a workspace has (its last owner cannot be removed or demoted). */
export function countOwners(db: Db, workspaceId: string): Promise<number> {
  return db.member.count({ where: { workspaceId, role: 'owner' } });
}

/**
 * The server's own team workspace, on a deployment that requires signing in (docs/design.md
 * §13.1): its owner is the server's owner, who invites the team into it.
 */
export const SERVER_WORKSPACE_ID = 'own_server';

/**
 * Makes the server's workspace if it is missing, named "Team", with the server's first account
 * (the earliest created) as its owner. Called on every sign-up and sign-in of a server that
 * requires signing in; idempotent, and concurrent calls make it, and its first owner, once: the
 * workspace row is inserted first, and only the call that inserted it adds the owner. From then
 * on it is a team workspace like any other (its owners manage its members).
 */
export async function ensureServerWorkspace(db: Db): Promise<void> {
  await db.$transaction(async (tx) => {
    const made = await tx.$executeRaw`INSERT INTO "Owner" ("id", "kind", "name")
      VALUES (${SERVER_WORKSPACE_ID}, 'team', 'Team') ON CONFLICT ("id") DO NOTHING`;
    if (!made) return;
    await tx.$executeRaw`INSERT INTO "Member" ("id", "workspaceId", "userId", "role")
      SELECT ${createId('mem')}, ${SERVER_WORKSPACE_ID}, "id", 'owner' FROM "User"
      ORDER BY "createdAt", "id" LIMIT 1`;
  });
}
