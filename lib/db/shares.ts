import 'server-only';
/**
 * Read-only share links. A token is 256 random bits, shown once to its creator; only its SHA-256
 * is stored, so a leaked database does not leak working links. Revoking sets `revokedAt` and the
 * lookup refuses it at once (no cache in between).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './client';
import { createId } from './ids';
import type { WorkflowRecord } from './workflows';

export interface ShareSummary {
  id: string;
  workflowId: string;
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
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

/** Creates a link; returns the token (never stored, never retrievable again) and the row. */
export async function createShare(
  db: Db,
  workflowId: string,
  opts: { expiresAt?: Date | null } = {},
): Promise<{ token: string; share: ShareSummary }> {
  const token = randomBytes(32).toString('base64url');
  const share = await db.share.create({
    data: {
      id: createId('sh'),
      workflowId,
      tokenHash: hashShareToken(token),
      expiresAt: opts.expiresAt ?? null,
    },
    select: summaryFields,
  });
  return { token, share };
}

/** The links of a workflow that still work or expired, newest first (revoked ones are gone). */
export async function listShares(db: Db, workflowId: string): Promise<ShareSummary[]> {
  return db.share.findMany({
    where: { workflowId, revokedAt: null },
    orderBy: { createdAt: 'desc' },
    select: summaryFields,
  });
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

/** The workflow behind a token that is live (not revoked, not expired), or null. */
export async function getSharedWorkflow(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<{ share: ShareSummary; workflow: WorkflowRecord } | null> {
  if (!isShareTokenShaped(token)) return null;
  const row = await db.share.findUnique({
    where: { tokenHash: hashShareToken(token) },
    select: { ...summaryFields, workflow: true },
  });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  const { workflow, ...share } = row;
  return { share, workflow: workflow as unknown as WorkflowRecord };
}
