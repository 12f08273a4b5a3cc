import 'server-only';
/**
 * Workflow persistence. Every write that changes the document bumps `version` and records a
 * revision in the same transaction; a write that names a stale version changes nothing.
 */
import type { WorkflowDocument } from '../workflow/types';
import type { Db } from './client';
import { createId } from './ids';

export interface WorkflowRecord {
  id: string;
  ownerId: string | null;
  name: string;
  task: string;
  document: WorkflowDocument;
  version: number;
  forkedFromId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WorkflowSummary {
  id: string;
  name: string;
  task: string;
  version: number;
  nodeCount: number;
  updatedAt: Date;
}

type Row = Omit<WorkflowRecord, 'document'> & { document: unknown };
const toRecord = (row: Row): WorkflowRecord => ({ ...row, document: row.document as WorkflowDocument });

/** An empty document for a new workflow. */
export function createEmptyDocument(task = ''): WorkflowDocument {
  return { task, nodes: [], edges: [], tools: {} };
}

export async function createWorkflow(
  db: Db,
  input: {
    name: string;
    task?: string;
    document?: WorkflowDocument;
    ownerId?: string | null;
    forkedFromId?: string | null;
    reason?: string;
  },
): Promise<WorkflowRecord> {
  const id = createId('wf');
  const task = input.task ?? input.document?.task ?? '';
  const document = input.document ?? createEmptyDocument(task);
  const [row] = await db.$transaction([
    db.workflow.create({
      data: {
        id,
        name: input.name,
        task,
        document: document as object,
        ownerId: input.ownerId ?? null,
        forkedFromId: input.forkedFromId ?? null,
      },
    }),
    db.workflowRevision.create({
      data: {
        id: createId('rev'),
        workflowId: id,
        version: 1,
        name: input.name,
        task,
        document: document as object,
        reason: input.reason ?? 'create',
      },
    }),
  ]);
  return toRecord(row as Row);
}

export async function getWorkflow(db: Db, id: string): Promise<WorkflowRecord | null> {
  const row = await db.workflow.findUnique({ where: { id } });
  return row ? toRecord(row as Row) : null;
}

/** Workflows, newest first; `ownerId` undefined lists all (used before ownership existed). */
export async function listWorkflows(
  db: Db,
  opts: { ownerId?: string | null; limit?: number } = {},
): Promise<WorkflowSummary[]> {
  const rows = await db.workflow.findMany({
    where: opts.ownerId === undefined ? {} : { ownerId: opts.ownerId },
    orderBy: { updatedAt: 'desc' },
    take: opts.limit ?? 200,
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    task: r.task,
    version: r.version,
    updatedAt: r.updatedAt,
    nodeCount: Array.isArray((r.document as { nodes?: unknown[] } | null)?.nodes)
      ? (r.document as { nodes: unknown[] }).nodes.length
      : 0,
  }));
}

export type UpdateOutcome =
  | { ok: true; workflow: WorkflowRecord }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'conflict'; current: WorkflowRecord };

/**
 * Writes a new version if and only if the stored version is `expectedVersion` (optimistic
 * concurrency). The compare-and-set is one UPDATE … WHERE version = expected, so of N concurrent
 * writers holding the same version exactly one wins.
 */
export async function updateWorkflow(
  db: Db,
  id: string,
  input: {
    expectedVersion: number;
    name?: string;
    task?: string;
    document: WorkflowDocument;
    reason?: string;
    label?: string | null;
  },
): Promise<UpdateOutcome> {
  const outcome = await db.$transaction(async (tx) => {
    const nextVersion = input.expectedVersion + 1;
    const updated = await tx.workflow.updateMany({
      where: { id, version: input.expectedVersion },
      data: {
        version: nextVersion,
        document: input.document as object,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.task !== undefined ? { task: input.task } : { task: input.document.task }),
      },
    });
    if (updated.count === 0) return null;
    const row = await tx.workflow.findUniqueOrThrow({ where: { id } });
    await tx.workflowRevision.create({
      data: {
        id: createId('rev'),
        workflowId: id,
        version: nextVersion,
        name: row.name,
        task: row.task,
        document: input.document as object,
        reason: input.reason ?? 'save',
        label: input.label ?? null,
      },
    });
    return toRecord(row as Row);
  });
  if (outcome) return { ok: true, workflow: outcome };
  const current = await getWorkflow(db, id);
  return current ? { ok: false, reason: 'conflict', current } : { ok: false, reason: 'not_found' };
}
