import 'server-only';
/**
 * Personal API tokens (docs/design.md §13.5): for the CLI and scripts, each acts as its user in one
 * workspace with the user's role there. The secret is 256 random bits, shown once to its maker;
 * only its SHA-256 is stored (a leaked database leaks no working token), with its first
 * characters so a person can tell their tokens apart. Revoking sets `revokedAt`, refused on the
 * very next request.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './client';
import { createId } from './ids';

/** What every secret begins with, so one pasted in the wrong place is recognisable. */
export const TOKEN_PREFIX = 'tft_';
const START_LENGTH = TOKEN_PREFIX.length + 6;

export interface ApiTokenSummary {
  id: string;
  name: string;
  start: string;
  workspaceId: string;
  workspaceName: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

/** The stored form of a secret. */
export function hashApiToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** True for strings shaped like our secrets (junk never reaches the database). */
export function isApiTokenShaped(secret: string): boolean {
  return new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`).test(secret);
}

/** Makes a token for `userId` in `workspaceId`; the secret is returned here and never again. */
export async function createApiToken(
  db: Db,
  input: { userId: string; workspaceId: string; name: string; expiresAt?: Date | null },
): Promise<{ token: ApiTokenSummary; secret: string }> {
  const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await db.apiToken.create({
    data: {
      id: createId('tok'),
      userId: input.userId,
      workspaceId: input.workspaceId,
      name: input.name,
      start: secret.slice(0, START_LENGTH),
      tokenHash: hashApiToken(secret),
      expiresAt: input.expiresAt ?? null,
    },
    include: { workspace: { select: { name: true } } },
  });
  return { token: toSummary(row), secret };
}

function toSummary(row: {
  id: string;
  name: string;
  start: string;
  workspaceId: string;
  workspace: { name: string };
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}): ApiTokenSummary {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    workspaceId: row.workspaceId,
    workspaceName: row.workspace.name,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
  };
}

/** A user's live tokens (not revoked), newest first. */
export async function listApiTokens(db: Db, userId: string): Promise<ApiTokenSummary[]> {
  const rows = await db.apiToken.findMany({
    where: { userId, revokedAt: null },
    orderBy: { createdAt: 'desc' },
    include: { workspace: { select: { name: true } } },
  });
  return rows.map(toSummary);
}

/** Revokes one of the user's tokens; false when it has no live token with that id. */
export async function revokeApiToken(db: Db, userId: string, id: string): Promise<boolean> {
  const { count } = await db.apiToken.updateMany({
    where: { id, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

/** How stale `lastUsedAt` may get before a use writes it again (one write a minute at most). */
const LAST_USED_EVERY_MS = 60_000;

/**
 * The user and workspace a secret acts for, or null when it is unknown, revoked or expired.
 * Notes the use (at most once a minute per token).
 */
export async function findLiveApiToken(
  db: Db,
  secret: string,
  now = new Date(),
): Promise<{ id: string; userId: string; workspaceId: string } | null> {
  if (!isApiTokenShaped(secret)) return null;
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hashApiToken(secret) },
    select: { id: true, userId: true, workspaceId: true, revokedAt: true, expiresAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { id: row.id, userId: row.userId, workspaceId: row.workspaceId };
}
