import 'server-only';
/**
 * Read-only share links. A token is 256 random bits, shown once to its creator; only its SHA-256
 * is stored, so a leaked database does not leak working links. Revoking sets `revokedAt` and the
 * lookup refuses it on the very next request (the liveness check is never cached).
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

/**
 * Workflows read through links, by `<token hash>:<workflow version>`: a version is immutable
 * (every write of a workflow makes a new one), so an entry never goes stale; it only stops being
 * asked for. Bounded in entries and in nodes held, least recently used first out. Never consulted before the live check.
 */
const SHARED_CACHE_LIMIT = { entries: 200, nodes: 50_000 };
const sharedCache = new Map<string, WorkflowRecord>();
let cachedNodes = 0;

const countNodes = (workflow: WorkflowRecord) =>
  Array.isArray(workflow.document?.nodes) ? workflow.document.nodes.length : 0;

function rememberShared(key: string, workflow: WorkflowRecord): void {
  if (sharedCache.has(key)) return;
  sharedCache.set(key, workflow);
  cachedNodes += countNodes(workflow);
  while (sharedCache.size > SHARED_CACHE_LIMIT.entries || cachedNodes > SHARED_CACHE_LIMIT.nodes) {
    const [oldest, evicted] = sharedCache.entries().next().value as [string, WorkflowRecord];
    sharedCache.delete(oldest);
    cachedNodes -= countNodes(evicted);
  }
}

/**
 * The workflow behind a token that is live (not revoked, not expired), or null. Every call asks
 * the database whether the link is live and at which version its workflow is — one indexed row
 * of Share joined to one of Workflow, no document — so a revocation, an expiry or a deleted
 * workflow takes effect on the very next request. Only the document of that exact version comes
 * from memory when this process read it before.
 */
export async function getSharedWorkflow(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<{ share: ShareSummary; workflow: WorkflowRecord } | null> {
  if (!isShareTokenShaped(token)) return null;
  const tokenHash = hashShareToken(token);
  const [row] = await db.$queryRaw<(ShareSummary & { version: number })[]>`
    SELECT s."id", s."workflowId", s."createdAt", s."expiresAt", s."revokedAt", w."version"
    FROM "Share" s JOIN "Workflow" w ON w."id" = s."workflowId"
    WHERE s."tokenHash" = ${tokenHash}`;
  if (!row || row.revokedAt || (row.expiresAt && new Date(row.expiresAt) <= now)) return null;
  const share: ShareSummary = {
    id: row.id,
    workflowId: row.workflowId,
    createdAt: new Date(row.createdAt),
    expiresAt: row.expiresAt ? new Date(row.expiresAt) : null,
    revokedAt: null,
  };
  const key = `${tokenHash}:${row.version}`;
  const cached = sharedCache.get(key);
  if (cached) {
    sharedCache.delete(key);
    sharedCache.set(key, cached);
    return { share, workflow: cached };
  }
  const workflow = await db.workflow.findUnique({ where: { id: row.workflowId } });
  if (!workflow) return null;
  const record = workflow as unknown as WorkflowRecord;
  // Saved again between the two reads: answer with what was read, but keep it under its own version.
  rememberShared(`${tokenHash}:${record.version}`, record);
  return { share, workflow: record };
}
