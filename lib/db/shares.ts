import 'server-only';
/**
 * Share links, "can view" or "can edit" (docs/design.md §8.4, §13.4). A token is 256 random bits,
 * shown once to its creator; only its SHA-256 is stored, so a leaked database does not leak
 * working links. Revoking sets `revokedAt` and the lookup refuses it on the very next request
 * (getLiveShare, findLinkGrant).
 */
import { createHash, randomBytes } from 'node:crypto';
import { findDatabaseBacking, type Db } from './client';
import type { LiveShareRow } from './live-shares';
import { createLruCache } from '../lru';
import { createId } from './ids';
import { getRevision } from './revisions';
import { sql } from './sql';
import { getWorkflow, type WorkflowRecord } from './workflows';

/** What a link lets its holder do: `viewer` reads the shared page; `editor` edits, once signed in. */
export type ShareRole = 'viewer' | 'editor';
export const SHARE_ROLES: readonly ShareRole[] = ['viewer', 'editor'];

export interface ShareSummary {
  id: string;
  workflowId: string;
  role: ShareRole;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** The stored form of a token. */
export function hashShareToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** True for strings shaped like our tokens (so junk never reaches the database). */
export function isShareTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

const summaryFields = {
  id: true,
  workflowId: true,
  role: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

/** Creates a link; returns the token (never stored, never retrievable again) and the row. */
export async function createShare(
  db: Db,
  workflowId: string,
  opts: { expiresAt?: Date | null; role?: ShareRole } = {},
): Promise<{ token: string; share: ShareSummary }> {
  const token = randomBytes(32).toString('base64url');
  const share = await db.share.create({
    data: {
      id: createId('sh'),
      workflowId,
      tokenHash: hashShareToken(token),
      role: opts.role ?? 'viewer',
      expiresAt: opts.expiresAt ?? null,
    },
    select: summaryFields,
  });
  return { token, share: toSummary(share) };
}

function toShareRole(role: string): ShareRole {
  return role === 'editor' ? 'editor' : 'viewer';
}

function toSummary<S extends { role: string }>(share: S): S & { role: ShareRole } {
  return { ...share, role: toShareRole(share.role) };
}

/** The links of a workflow that still work or expired, newest first (revoked ones are gone). */
export async function listShares(db: Db, workflowId: string): Promise<ShareSummary[]> {
  const shares = await db.share.findMany({
    where: { workflowId, revokedAt: null },
    orderBy: { createdAt: 'desc' },
    select: summaryFields,
  });
  return shares.map(toSummary);
}

/** Revokes a link of this workflow. False when it does not exist (or belongs to another one). */
export async function revokeShare(db: Db, workflowId: string, shareId: string): Promise<boolean> {
  const { count } = await db.share.updateMany({
    where: { id: shareId, workflowId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count > 0) return true;
  // Revoking twice is not an error: the link is gone either way.
  return (await db.share.count({ where: { id: shareId, workflowId } })) > 0;
}

/**
 * Workflows read through links, by `<token hash>:<workflow version>`: a version is immutable
 * (every write of a workflow makes a new one), so an entry never goes stale; it only stops being
 * asked for. Bounded in entries and in nodes held, least recently used first out. Never consulted before the live check.
 */
const sharedCache = createLruCache<WorkflowRecord>({
  maxEntries: 200,
  maxCost: 50_000,
  cost: (workflow) => (Array.isArray(workflow.document?.nodes) ? workflow.document.nodes.length : 0),
});

/** A link that is live right now: its row, its token's hash, and its workflow's current version. */
export interface LiveShare {
  share: ShareSummary;
  tokenHash: string;
  version: number;
}

/**
 * Whether the link behind `token` is live (not revoked, not expired, its workflow not deleted),
 * and at which version its workflow is: one indexed row of Share joined to one of Workflow, no
 * document. Asked on every request for a shared workflow (the page, its API), so a revocation, an
 * expiry or a deletion takes effect on the very next request. On the embedded database the row is
 * remembered until the database next writes a share or a workflow (lib/db/live-shares.ts), which
 * keeps that promise without asking again; expiry is checked against `now` either way.
 */
export async function getLiveShare(db: Db, token: string, now: Date = new Date()): Promise<LiveShare | null> {
  if (!isShareTokenShaped(token)) return null;
  return findLiveShare(db, hashShareToken(token), now);
}

async function findLiveShare(db: Db, tokenHash: string, now: Date): Promise<LiveShare | null> {
  const backing = findDatabaseBacking(db);
  const memo = backing?.kind === 'pglite' ? backing.liveShares : undefined;
  let row = memo?.get(tokenHash);
  if (row === undefined) {
    const generation = memo?.generation() ?? 0;
    row = await findShareRow(db, tokenHash);
    memo?.set(tokenHash, row, generation);
  }
  return toLiveShare(row, tokenHash, now);
}

async function findShareRow(db: Db, tokenHash: string): Promise<LiveShareRow | null> {
  const [row] = await sql(db)<LiveShareRow>`
    SELECT s."id", s."workflowId", s."role", s."createdAt", s."expiresAt", s."revokedAt", w."version"
    FROM "Share" s JOIN "Workflow" w ON w."id" = s."workflowId"
    WHERE s."tokenHash" = ${tokenHash}`;
  return row ?? null;
}

function toLiveShare(row: LiveShareRow | null, tokenHash: string, now: Date): LiveShare | null {
  if (!row || row.revokedAt || (row.expiresAt && new Date(row.expiresAt) <= now)) return null;
  const share: ShareSummary = {
    id: row.id,
    workflowId: row.workflowId,
    role: toShareRole(row.role),
    createdAt: new Date(row.createdAt),
    expiresAt: row.expiresAt ? new Date(row.expiresAt) : null,
    revokedAt: null,
  };
  return { share, tokenHash, version: row.version };
}

/**
 * The workflow behind a token that is live (not revoked, not expired), or null. The liveness and
 * the version are asked of the database on every call (getLiveShare); only the document of that
 * exact version comes from memory when this process read it before.
 */
export async function getSharedWorkflow(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<{ share: ShareSummary; workflow: WorkflowRecord } | null> {
  const live = await getLiveShare(db, token, now);
  if (!live) return null;
  const { share, tokenHash, version } = live;
  const key = `${tokenHash}:${version}`;
  const cached = sharedCache.get(key);
  if (cached) return { share, workflow: cached };
  const record = await getWorkflow(db, share.workflowId);
  if (!record) return null;
  // Saved again between the two reads: answer with what was read, but keep it under its own version.
  sharedCache.set(`${tokenHash}:${record.version}`, record);
  return { share, workflow: record };
}

/**
 * One version of the workflow behind a live link, by the token's hash: what the share page's
 * rendered copy of that version is made from (app/s/v/[hash]/[version]). Null when the link is no
 * longer live or that version is no longer kept.
 */
export async function getSharedVersion(
  db: Db,
  tokenHash: string,
  version: number,
  now: Date = new Date(),
): Promise<{
  share: ShareSummary;
  workflow: Pick<WorkflowRecord, 'id' | 'name' | 'task' | 'version' | 'document'>;
} | null> {
  if (!/^[0-9a-f]{64}$/.test(tokenHash) || !Number.isSafeInteger(version) || version < 1) return null;
  const live = await findLiveShare(db, tokenHash, now);
  if (!live) return null;
  const { share } = live;
  const cached = sharedCache.get(`${tokenHash}:${version}`);
  if (cached) return { share, workflow: cached };
  if (live.version === version) {
    const workflow = await getWorkflow(db, share.workflowId);
    if (workflow?.version === version) return { share, workflow };
  }
  const revision = await getRevision(db, share.workflowId, version);
  if (!revision) return null;
  return {
    share,
    workflow: {
      id: share.workflowId,
      name: revision.name,
      task: revision.task,
      version,
      document: revision.document,
    },
  };
}

/**
 * Records that account `userId` opened edit link `shareId`: from then on it may edit that link's
 * workflow while the link is live (findLinkGrant). Opening it again records nothing new.
 */
export async function grantShare(db: Db, shareId: string, userId: string): Promise<void> {
  await db.$executeRaw`INSERT INTO "ShareGrant" ("shareId", "userId") VALUES (${shareId}, ${userId})
    ON CONFLICT ("shareId", "userId") DO NOTHING`;
}

/**
 * What the edit links account `userId` opened on workflow `workflowId` say right now: `live` when
 * one of them is live (not revoked, not expired), `ended` when it opened some and every one was
 * revoked or has expired, null when it never opened one. Asked of the database on every call, so
 * a revocation holds from the next request.
 */
export async function findLinkGrant(
  db: Db,
  userId: string,
  workflowId: string,
  now: Date = new Date(),
): Promise<'live' | 'ended' | null> {
  const rows = await sql(db)<{ expiresAt: Date | string | null; revokedAt: Date | string | null }>`
    SELECT s."expiresAt", s."revokedAt"
    FROM "ShareGrant" g JOIN "Share" s ON s."id" = g."shareId"
    WHERE g."userId" = ${userId} AND s."workflowId" = ${workflowId} AND s."role" = 'editor'`;
  if (!rows.length) return null;
  const live = rows.some((r) => !r.revokedAt && !(r.expiresAt && new Date(r.expiresAt) <= now));
  return live ? 'live' : 'ended';
}
