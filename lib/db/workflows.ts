import 'server-only';
/**
 * Workflow persistence. Every write that changes the document bumps `version` and records a
 * revision in the same transaction; a write that names a stale version changes nothing. Old
 * unlabelled revisions beyond REVISION_LIMIT are pruned in that same transaction.
 */
import type { WorkflowDocument } from '../workflow/types';
import { fragment, sql, type SqlFragment } from './sql';
import type { Db } from './client';
import { createId } from './ids';
import { parseJson } from '../tools/json-value';
import { fitName, getCopyName } from '../workflow/name';

/** Unlabelled history entries kept per workflow; labelled ones are kept regardless. */
export const REVISION_LIMIT = 200;

/**
 * How long an autosave entry of the history takes later autosaves in, from its first save: the
 * saves of a few minutes of editing are one entry (docs/design.md §7.3).
 */
export const AUTOSAVE_ENTRY_MS = 5 * 60_000;

/**
 * Why a version exists, as its history entry records it. Only `save` (an autosave, or any plain
 * PUT) is folded into the entry before it; every other reason begins an entry of its own.
 */
export type RevisionReason =
  | 'create'
  | 'save'
  /** The saved result of a planning run (a plan, or a follow-up the model applied). */
  | 'plan'
  /** A copy kept through a conflict: "merge both" or "keep mine". */
  | 'resolve'
  | `restore:${number}`
  | 'import'
  | 'fork'
  | 'duplicate';

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

/** A workflow row as the write statements return it: everything but the document. */
type Row = Omit<WorkflowRecord, 'document'>;

/** The record of a row just written with `document` (the one sent: it is what was stored). */
const toRecord = (row: Row, document: WorkflowDocument): WorkflowRecord => ({
  ...row,
  createdAt: new Date(row.createdAt),
  updatedAt: new Date(row.updatedAt),
  document,
});

/**
 * The data-modifying CTE `revision` that begins a history entry for a write, copied from the row
 * the statement wrote (its CTE `written`) inside the database, so the document is sent once.
 * Every parameter is cast: Postgres cannot infer a type for a value in the SELECT list that feeds
 * the INSERT. `unless` names a CTE whose rows mean the write went into an entry already.
 */
function insertRevision(input: {
  counts: { nodeCount: number; edgeCount: number };
  reason: RevisionReason;
  label: string | null;
  at: Date;
  unless?: SqlFragment;
}) {
  const { nodeCount, edgeCount } = input.counts;
  const unless = input.unless ? fragment`WHERE NOT EXISTS (SELECT 1 FROM ${input.unless})` : fragment``;
  return fragment`revision AS (
      INSERT INTO "WorkflowRevision"
        ("id", "workflowId", "version", "firstVersion", "name", "task", "document", "nodeCount",
         "edgeCount", "reason", "label", "createdAt", "updatedAt")
      SELECT ${createId('rev')}::text, w."id", w."version", w."version", w."name", w."task", w."document",
             ${nodeCount}::int, ${edgeCount}::int, ${input.reason}::text, ${input.label}::text,
             ${input.at}::timestamp(3), ${input.at}::timestamp(3)
      FROM written w ${unless}
    )`;
}

/**
 * The data-modifying CTE `folded`: an autosave folded into the history entry of the version it
 * was based on, when that entry is itself an unnamed autosave begun less than AUTOSAVE_ENTRY_MS
 * ago and no test-run was made of its version (a run's version stays in the history). The entry
 * then keeps the new version (its document, name and counts) and still begins at its first one.
 * Any other write, and an autosave that finds no such entry, begins an entry (insertRevision).
 */
function foldRevision(input: {
  counts: { nodeCount: number; edgeCount: number };
  basedOn: number;
  at: Date;
}) {
  const { nodeCount, edgeCount } = input.counts;
  const since = new Date(input.at.getTime() - AUTOSAVE_ENTRY_MS);
  return fragment`folded AS (
      UPDATE "WorkflowRevision" r
      SET "version" = w."version", "name" = w."name", "task" = w."task", "document" = w."document",
          "nodeCount" = ${nodeCount}::int, "edgeCount" = ${edgeCount}::int, "updatedAt" = ${input.at}::timestamp(3)
      FROM written w
      WHERE r."workflowId" = w."id" AND r."version" = ${input.basedOn}::int
        AND r."reason" = 'save' AND r."label" IS NULL AND r."createdAt" > ${since}::timestamp(3)
        AND NOT EXISTS (SELECT 1 FROM "Run" x WHERE x."workflowId" = r."workflowId" AND x."version" = r."version")
      RETURNING r."id"
    )`;
}

/** An empty document for a new workflow. */
export function createEmptyDocument(task = ''): WorkflowDocument {
  return { task, nodes: [], edges: [], tools: {} };
}

/**
 * The counts stored with a document: a revision keeps both, a workflow its node count (so the
 * history and the workflow list never parse documents).
 */
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
    reason?: RevisionReason;
  },
): Promise<WorkflowRecord> {
  const id = createId('wf');
  const task = input.task ?? input.document?.task ?? '';
  const document = input.document ?? createEmptyDocument(task);
  const text = JSON.stringify(document);
  const counts = getDocumentCounts(document);
  const now = new Date();
  const ownerId = input.ownerId ?? null;
  // One statement, so atomic without an interactive transaction, and straight to the driver
  // (lib/db/sql.ts) rather than through Prisma's query compiler: the owner row if new, the
  // workflow at version 1, and its first revision copied from the inserted row. Foreign keys are
  // checked at the end of the statement, when all three rows exist. Every parameter is cast, as
  // in updateWorkflow.
  const revision = insertRevision({ counts, reason: input.reason ?? 'create', label: null, at: now });
  const [row] = await sql(db)<Row>`
    WITH owner AS (
      INSERT INTO "Owner" ("id", "createdAt")
      SELECT ${ownerId}::text, ${now}::timestamp(3) WHERE ${ownerId}::text IS NOT NULL
      ON CONFLICT ("id") DO NOTHING
    ), written AS (
      INSERT INTO "Workflow"
        ("id", "ownerId", "name", "task", "document", "nodeCount", "version", "forkedFromId",
         "createdAt", "updatedAt")
      VALUES (${id}::text, ${ownerId}::text, ${input.name}::text, ${task}::text, ${text}::json,
              ${counts.nodeCount}::int, 1, ${input.forkedFromId ?? null}::text, ${now}::timestamp(3),
              ${now}::timestamp(3))
      RETURNING "id", "ownerId", "name", "task", "version", "forkedFromId", "createdAt", "updatedAt",
                "document"
    ), ${revision}
    SELECT "id", "ownerId", "name", "task", "version", "forkedFromId", "createdAt", "updatedAt"
    FROM written`;
  return toRecord(row, document);
}

/** The workflow, or null. */
export async function getWorkflow(db: Db, id: string): Promise<WorkflowRecord | null> {
  const row = await getWorkflowText(db, id);
  if (!row) return null;
  const { documentText, ...rest } = row;
  return { ...rest, document: parseJson(documentText) as WorkflowDocument };
}

/** A workflow with its document as the stored JSON text, unparsed. */
export type WorkflowText = Omit<WorkflowRecord, 'document'> & { documentText: string };

/**
 * The workflow with its document as the JSON text the database holds, or null: for answers that
 * send the document on unchanged, so it is neither parsed nor serialized again on the way
 * (`json` keeps the text as written, key order included).
 */
export async function getWorkflowText(db: Db, id: string): Promise<WorkflowText | null> {
  const [row] = await sql(db)<WorkflowText>`
    SELECT "id", "ownerId", "name", "task", "document"::text AS "documentText", "version",
           "forkedFromId", "createdAt", "updatedAt"
    FROM "Workflow" WHERE "id" = ${id}`;
  return row ? { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) } : null;
}

/** Owner and version only: what a route needs to authorize before it acts. */
export async function getWorkflowAccess(db: Db, id: string): Promise<WorkflowAccess | null> {
  // Plain SQL on the hot paths: Prisma's query compiler costs milliseconds of CPU per model query
  // (13 % of `next start`'s CPU under `npm run load`), raw SQL none.
  const [row] = await sql(db)<WorkflowAccess>`
    SELECT "id", "ownerId", "version" FROM "Workflow" WHERE "id" = ${id}`;
  return row ?? null;
}

/**
 * One owner's workflows, most recently changed first; none without an owner (a browser that has
 * no cookie yet owns nothing). Node counts are the ones stored with each document: counting in
 * the query (`json_array_length(document->'nodes')`) made Postgres read and parse every listed
 * document, 8.7 ms for 20 documents of 1 MB in all against 0.2 ms for the column.
 */
export async function listWorkflows(
  db: Db,
  opts: { ownerId?: string | null; limit?: number } = {},
): Promise<WorkflowSummary[]> {
  if (!opts.ownerId) return [];
  const rows = await sql(db)<WorkflowSummary>`
    SELECT "id", "name", "task", "version", "forkedFromId", "updatedAt", "nodeCount"
    FROM "Workflow"
    WHERE "ownerId" = ${opts.ownerId}
    ORDER BY "updatedAt" DESC, "id"
    LIMIT ${opts.limit ?? 200}`;
  return rows.map((r) => ({ ...r, updatedAt: new Date(r.updatedAt) }));
}

export type UpdateOutcome =
  | { ok: true; workflow: WorkflowRecord }
  | { ok: false; reason: 'not_found' }
  /** `ownerId` was given and the workflow is someone else's (its document is not answered). */
  | { ok: false; reason: 'forbidden'; access: WorkflowAccess }
  | { ok: false; reason: 'conflict'; current: WorkflowRecord };

/**
 * Writes a new version if and only if the stored version is `expectedVersion` (optimistic
 * concurrency) and, when `ownerId` is given, the workflow is that owner's. The write is one SQL
 * statement, so one round trip and atomic on its own: the UPDATE … WHERE version = expected is
 * the compare-and-set (of N concurrent writers holding the same version exactly one wins; the
 * others see zero rows updated, as Postgres re-checks the WHERE after waiting for the winner's
 * row lock), and the history entry (folded into the current one, or a new one) and the pruning
 * of old unnamed entries are data-modifying CTEs that act only on the row it updated. The
 * document is sent once, as JSON text (Prisma's JSON parameter handling took ~2.5× as long for a
 * 500-node document), and the entry copies it from the updated row inside the database.
 *
 * The version always goes up by one; the history gets an entry per version except that an
 * autosave (`reason` save, no label) may be folded into the entry of the version it was based on
 * (foldRevision says when). A folded version is then no longer in the history: only its entry's
 * newest version is.
 */
export async function updateWorkflow(
  db: Db,
  id: string,
  input: {
    expectedVersion: number;
    name?: string;
    task?: string;
    document: WorkflowDocument;
    reason?: RevisionReason;
    label?: string | null;
    ownerId?: string;
  },
): Promise<UpdateOutcome> {
  const text = JSON.stringify(input.document);
  const task = input.task ?? input.document.task ?? '';
  const counts = getDocumentCounts(input.document);
  const reason = input.reason ?? 'save';
  const label = input.label ?? null;
  // Timestamps are passed in, as Prisma does, so they do not depend on the session time zone.
  const now = new Date();
  // Every parameter is cast: the SQL goes straight to the driver (lib/db/sql.ts), and Postgres
  // cannot infer a type for a value in the SELECT list that feeds the INSERT.
  const ownerId = input.ownerId ?? null;
  const foldable = reason === 'save' && label === null;
  const entry = foldable
    ? fragment`${foldRevision({ counts, basedOn: input.expectedVersion, at: now })},
      ${insertRevision({ counts, reason, label, at: now, unless: fragment`folded` })}`
    : insertRevision({ counts, reason, label, at: now });
  // A new entry makes one more unnamed one; the oldest beyond REVISION_LIMIT go (named ones stay).
  // A folded save adds none. The subquery reads the history as it was before this statement.
  const stillNew = foldable ? fragment`AND NOT EXISTS (SELECT 1 FROM folded)` : fragment``;
  const [row] = await sql(db)<Row>`
    WITH written AS (
      UPDATE "Workflow"
      SET "document" = ${text}::json, "nodeCount" = ${counts.nodeCount}::int, "version" = "version" + 1,
          "task" = ${task}::text,
          "name" = COALESCE(${input.name ?? null}::text, "name"), "updatedAt" = ${now}::timestamp(3)
      WHERE "id" = ${id}::text AND "version" = ${input.expectedVersion}::int
        AND (${ownerId}::text IS NULL OR "ownerId" = ${ownerId}::text)
      RETURNING "id", "ownerId", "name", "task", "version", "forkedFromId", "createdAt", "updatedAt",
                "document"
    ), ${entry}, pruned AS (
      DELETE FROM "WorkflowRevision"
      WHERE "workflowId" = ${id}::text AND "label" IS NULL AND EXISTS (SELECT 1 FROM written) ${stillNew}
        AND "version" <= (
          SELECT "version" FROM "WorkflowRevision"
          WHERE "workflowId" = ${id}::text AND "label" IS NULL
          ORDER BY "version" DESC OFFSET ${REVISION_LIMIT - 1}::int LIMIT 1)
    )
    SELECT "id", "ownerId", "name", "task", "version", "forkedFromId", "createdAt", "updatedAt"
    FROM written`;
  if (row) return { ok: true, workflow: toRecord(row, input.document) };
  // Nothing written: one read says why (gone, someone else's, or a newer version).
  const current = await getWorkflow(db, id);
  if (!current) return { ok: false, reason: 'not_found' };
  if (input.ownerId !== undefined && current.ownerId !== input.ownerId) {
    const access = { id: current.id, ownerId: current.ownerId, version: current.version };
    return { ok: false, reason: 'forbidden', access };
  }
  return { ok: false, reason: 'conflict', current };
}

/** Deletes a workflow with its revisions and share links. False when it did not exist. */
export async function deleteWorkflow(db: Db, id: string): Promise<boolean> {
  const { count } = await db.workflow.deleteMany({ where: { id } });
  return count > 0;
}

type CopySource = Pick<WorkflowRecord, 'id' | 'name' | 'task' | 'document'>;

/** A copy of a shared workflow owned by `ownerId`, recording where it came from (`forkedFromId`). */
export async function forkWorkflow(db: Db, source: CopySource, ownerId: string): Promise<WorkflowRecord> {
  const name = /\(fork\)$/.test(source.name) ? source.name : fitName(`${source.name} (fork)`);
  return createWorkflow(db, {
    name,
    task: source.task,
    document: source.document,
    ownerId,
    forkedFromId: source.id,
    reason: 'fork',
  });
}

/**
 * A copy of one of the owner's own workflows ("Copy of …"), with a history of its own that begins
 * at version 1 (`duplicate`); `forkedFromId` records where it came from.
 */
export async function duplicateWorkflow(
  db: Db,
  source: CopySource,
  ownerId: string,
): Promise<WorkflowRecord> {
  return createWorkflow(db, {
    name: getCopyName(source.name),
    task: source.task,
    document: source.document,
    ownerId,
    forkedFromId: source.id,
    reason: 'duplicate',
  });
}
