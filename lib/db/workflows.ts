import 'server-only';
/**
 * Workflow persistence. Every write that changes the document bumps `version` and records a
 * revision in the same transaction; a write that names a stale version changes nothing. Old
 * unlabelled revisions beyond REVISION_LIMIT are pruned in that same transaction.
 */
import type { WorkflowDocument } from '../workflow/types';
import type { Db } from './client';
import { createId } from './ids';
import { ensureOwner } from './owners';

/** Unlabelled revisions kept per workflow; labelled ones are kept regardless. */
export const REVISION_LIMIT = 200;

/**
 * Interactive-transaction limits. Under a burst of concurrent saves (50 tabs, or a load test),
 * waiting for a pooled connection can take longer than Prisma's 2 s default.
 */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 20_000 } as const;

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
  forkedFromId: string | null;
  updatedAt: Date;
}

/** Who owns a workflow and at which version it is, without loading its document. */
export interface WorkflowAccess {
  id: string;
  ownerId: string | null;
  version: number;
}

type Row = Omit<WorkflowRecord, 'document'> & { document: unknown };
const toRecord = (row: Row): WorkflowRecord => ({ ...row, document: row.document as WorkflowDocument });

/** An empty document for a new workflow. */
export function createEmptyDocument(task = ''): WorkflowDocument {
  return { task, nodes: [], edges: [], tools: {} };
}

/** The counts a revision stores with its document (so the history list never parses documents). */
export function getDocumentCounts(doc: WorkflowDocument): { nodeCount: number; edgeCount: number } {
  return {
    nodeCount: Array.isArray(doc.nodes) ? doc.nodes.length : 0,
    edgeCount: Array.isArray(doc.edges) ? doc.edges.length : 0,
  };
}

/** Creates a workflow at version 1 with its first revision (and its owner row), atomically. */
export async function createWorkflow(
  db: Db,
  input: {
    name: string;
    task?: string;
    document?: WorkflowDocument;
    ownerId: string | null;
    forkedFromId?: string | null;
    reason?: string;
  },
): Promise<WorkflowRecord> {
  const id = createId('wf');
  const task = input.task ?? input.document?.task ?? '';
  const document = input.document ?? createEmptyDocument(task);
  // An interactive transaction with TX_OPTIONS, like saves: a burst of creates waits for a pooled
  // connection instead of failing after Prisma's default 2 s (P2028, seen under `npm run load`).
  const row = await db.$transaction(async (tx) => {
    if (input.ownerId) await ensureOwner(tx, input.ownerId);
    const created = await tx.workflow.create({
      data: {
        id,
        name: input.name,
        task,
        document: document as object,
        ownerId: input.ownerId,
        forkedFromId: input.forkedFromId ?? null,
      },
    });
    await tx.workflowRevision.create({
      data: {
        id: createId('rev'),
        workflowId: id,
        version: 1,
        name: input.name,
        task,
        document: document as object,
        ...getDocumentCounts(document),
        reason: input.reason ?? 'create',
      },
    });
    return created;
  }, TX_OPTIONS);
  return toRecord(row as Row);
}

/** The workflow, or null. */
export async function getWorkflow(db: Db, id: string): Promise<WorkflowRecord | null> {
  const row = await db.workflow.findUnique({ where: { id } });
  return row ? toRecord(row as Row) : null;
}

/** Owner and version only: what a route needs to authorize before it acts. */
export async function getWorkflowAccess(db: Db, id: string): Promise<WorkflowAccess | null> {
  return db.workflow.findUnique({ where: { id }, select: { id: true, ownerId: true, version: true } });
}

/**
 * One owner's workflows, most recently changed first; none without an owner (a browser that has
 * no cookie yet owns nothing). Node counts come from the database (`json_array_length`), so
 * listing never loads whole documents.
 */
export async function listWorkflows(
  db: Db,
  opts: { ownerId?: string | null; limit?: number } = {},
): Promise<WorkflowSummary[]> {
  if (!opts.ownerId) return [];
  const rows = await db.$queryRaw<(Omit<WorkflowSummary, 'nodeCount'> & { nodeCount: number | bigint })[]>`
    SELECT "id", "name", "task", "version", "forkedFromId", "updatedAt",
           COALESCE(json_array_length(CASE WHEN json_typeof("document"->'nodes') = 'array'
                                            THEN "document"->'nodes' END), 0) AS "nodeCount"
    FROM "Workflow"
    WHERE "ownerId" = ${opts.ownerId}
    ORDER BY "updatedAt" DESC, "id"
    LIMIT ${opts.limit ?? 200}`;
  return rows.map((r) => ({ ...r, nodeCount: Number(r.nodeCount), updatedAt: new Date(r.updatedAt) }));
}

export type UpdateOutcome =
  | { ok: true; workflow: WorkflowRecord }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'conflict'; current: WorkflowRecord };

/**
 * Writes a new version if and only if the stored version is `expectedVersion` (optimistic
 * concurrency). The compare-and-set is one UPDATE … WHERE version = expected, so of N concurrent
 * writers holding the same version exactly one wins; the others see zero rows updated (Postgres
 * re-checks the WHERE after waiting for the winner's row lock) and get the current copy.
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
  // The two large writes are plain SQL with the document as JSON text: Prisma's own JSON
  // parameter handling took ~2.5× as long for a 500-node document (scripts/bench/saving.ts).
  const text = JSON.stringify(input.document);
  const task = input.task ?? input.document.task;
  const { nodeCount, edgeCount } = getDocumentCounts(input.document);
  const outcome = await db.$transaction(async (tx) => {
    const nextVersion = input.expectedVersion + 1;
    // Timestamps are passed in, as Prisma does, so they do not depend on the session time zone.
    const [row] = await tx.$queryRaw<Omit<Row, 'document'>[]>`
      UPDATE "Workflow"
      SET "document" = ${text}::json, "version" = ${nextVersion}, "task" = ${task},
          "name" = COALESCE(${input.name ?? null}, "name"), "updatedAt" = ${new Date()}
      WHERE "id" = ${id} AND "version" = ${input.expectedVersion}
      RETURNING "id", "ownerId", "name", "task", "version", "forkedFromId", "createdAt", "updatedAt"`;
    if (!row) return null;
    await tx.$executeRaw`
      INSERT INTO "WorkflowRevision"
        ("id", "workflowId", "version", "name", "task", "document", "nodeCount", "edgeCount",
         "reason", "label", "createdAt")
      VALUES (${createId('rev')}, ${id}, ${nextVersion}, ${row.name}, ${row.task}, ${text}::json,
              ${nodeCount}, ${edgeCount}, ${input.reason ?? 'save'}, ${input.label ?? null}, ${new Date()})`;
    await tx.workflowRevision.deleteMany({
      where: { workflowId: id, label: null, version: { lte: nextVersion - REVISION_LIMIT } },
    });
    return {
      ...row,
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
      document: input.document,
    } satisfies WorkflowRecord;
  }, TX_OPTIONS);
  if (outcome) return { ok: true, workflow: outcome };
  const current = await getWorkflow(db, id);
  return current ? { ok: false, reason: 'conflict', current } : { ok: false, reason: 'not_found' };
}

/** Deletes a workflow with its revisions and share links. False when it did not exist. */
export async function deleteWorkflow(db: Db, id: string): Promise<boolean> {
  const { count } = await db.workflow.deleteMany({ where: { id } });
  return count > 0;
}

/** A copy of `source` owned by `ownerId`, recording where it came from (`forkedFromId`). */
export async function forkWorkflow(
  db: Db,
  source: Pick<WorkflowRecord, 'id' | 'name' | 'task' | 'document'>,
  ownerId: string,
): Promise<WorkflowRecord> {
  const name = /\(fork\)$/.test(source.name) ? source.name : `${source.name} (fork)`.slice(0, 200);
  return createWorkflow(db, {
    name,
    task: source.task,
    document: source.document,
    ownerId,
    forkedFromId: source.id,
    reason: 'fork',
  });
}
