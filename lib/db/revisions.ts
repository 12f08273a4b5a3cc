import 'server-only';
/**
 * Revision history: every accepted save is a row in WorkflowRevision (written by
 * lib/db/workflows.ts in the save's own transaction). Listing never loads documents; restoring
 * writes the old document as a new version, so history only ever grows forward.
 */
import type { WorkflowDocument } from '../workflow/types';
import type { Db } from './client';
import { updateWorkflow, type UpdateOutcome } from './workflows';

export interface RevisionSummary {
  version: number;
  name: string;
  label: string | null;
  reason: string;
  nodeCount: number;
  edgeCount: number;
  createdAt: Date;
}

export interface RevisionRecord {
  version: number;
  name: string;
  task: string;
  label: string | null;
  reason: string;
  document: WorkflowDocument;
  createdAt: Date;
}

/**
 * Revisions, newest first, without their documents: the counts are columns written with each
 * revision, and the page is an index range scan on (workflowId, version), so a page costs the
 * same however long the history is (scripts/bench/history.ts).
 */
export async function listRevisions(
  db: Db,
  workflowId: string,
  opts: { limit?: number; before?: number } = {},
): Promise<RevisionSummary[]> {
  return db.workflowRevision.findMany({
    where: { workflowId, ...(opts.before !== undefined ? { version: { lt: opts.before } } : {}) },
    orderBy: { version: 'desc' },
    take: opts.limit ?? 250,
    select: {
      version: true,
      name: true,
      label: true,
      reason: true,
      nodeCount: true,
      edgeCount: true,
      createdAt: true,
    },
  });
}

const toRecord = (row: Omit<RevisionRecord, 'document'> & { document: unknown }): RevisionRecord => ({
  ...row,
  document: row.document as WorkflowDocument,
});
const revisionFields = {
  version: true,
  name: true,
  task: true,
  label: true,
  reason: true,
  document: true,
  createdAt: true,
} as const;

/** One revision with its document, or null. */
export async function getRevision(
  db: Db,
  workflowId: string,
  version: number,
): Promise<RevisionRecord | null> {
  const row = await db.workflowRevision.findUnique({
    where: { workflowId_version: { workflowId, version } },
    select: revisionFields,
  });
  return row ? toRecord(row) : null;
}

/** The newest revision older than `version` (older ones may have been pruned), or null. */
export async function getPreviousRevision(
  db: Db,
  workflowId: string,
  version: number,
): Promise<RevisionRecord | null> {
  const row = await db.workflowRevision.findFirst({
    where: { workflowId, version: { lt: version } },
    orderBy: { version: 'desc' },
    select: revisionFields,
  });
  return row ? toRecord(row) : null;
}

/** Names a revision (kept beyond the retention bound) or clears its name. False when unknown. */
export async function setRevisionLabel(
  db: Db,
  workflowId: string,
  version: number,
  label: string | null,
): Promise<boolean> {
  const { count } = await db.workflowRevision.updateMany({ where: { workflowId, version }, data: { label } });
  return count > 0;
}

/**
 * Makes an old revision current again by saving its document (and name) as a new version on top
 * of `expectedVersion`; a stale `expectedVersion` gets the usual conflict.
 */
export async function restoreRevision(
  db: Db,
  workflowId: string,
  revision: Pick<RevisionRecord, 'version' | 'name' | 'task' | 'document'>,
  expectedVersion: number,
): Promise<Exclude<UpdateOutcome, { reason: 'forbidden' }>> {
  const outcome = await updateWorkflow(db, workflowId, {
    expectedVersion,
    name: revision.name,
    task: revision.task,
    document: revision.document,
    reason: `restore:${revision.version}`,
  });
  // Only a write that names an owner can be refused as someone else's.
  if (!outcome.ok && outcome.reason === 'forbidden')
    throw new Error('A restore without an owner was refused.');
  return outcome;
}
