import 'server-only';
/**
 * Revision history: every accepted write is recorded in WorkflowRevision by the write's own
 * statement (lib/db/workflows.ts): as an entry of its own, or, for an autosave, folded into the
 * autosave entry of the last few minutes, which then keeps the newest version. Listing never
 * loads documents; restoring writes the old document as a new version, so history only ever
 * grows forward.
 */
import type { WorkflowDocument } from '../workflow/types';
import type { Db } from './client';
import { updateWorkflow, type UpdateOutcome, type WorkflowAccess } from './workflows';
import { parseJson } from '../tools/json-value';
import { fragment, sql, SqlFragment } from './sql';

/** An entry of the history, as listed. */
export interface RevisionSummary {
  /** The version the entry keeps (the newest of those it stands for). */
  version: number;
  /** The first version it stands for: lower than `version` when autosaves were folded into it. */
  firstVersion: number;
  name: string;
  label: string | null;
  /** Why it exists (RevisionReason in lib/db/workflows.ts). */
  reason: string;
  /** The task a `create` entry began with (what the workflow was planned from); null for the others. */
  task: string | null;
  nodeCount: number;
  edgeCount: number;
  /** When the entry was begun. */
  createdAt: Date;
  /** When `version` was saved. */
  updatedAt: Date;
}

export interface RevisionRecord {
  version: number;
  firstVersion: number;
  name: string;
  task: string;
  label: string | null;
  reason: string;
  document: WorkflowDocument;
  createdAt: Date;
  updatedAt: Date;
}

const SUMMARY_FIELDS = fragment`"version", "firstVersion", "name", "label", "reason",
  CASE WHEN "reason" = 'create' THEN "task" END AS "task", "nodeCount", "edgeCount", "createdAt", "updatedAt"`;

const toSummary = (r: RevisionSummary): RevisionSummary => ({
  ...r,
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
});

/**
 * Revisions, newest first, without their documents: the counts are columns written with each
 * revision, and the page is an index range scan on (workflowId, version), so a page costs the
 * same however long the history is (scripts/bench/history.ts). Plain SQL, like the other reads on
 * hot paths (lib/db/workflows.ts says why).
 */
export async function listRevisions(
  db: Db,
  workflowId: string,
  opts: { limit?: number; before?: number } = {},
): Promise<RevisionSummary[]> {
  const rows = await sql(db)<RevisionSummary>`
    SELECT ${SUMMARY_FIELDS}
    FROM "WorkflowRevision"
    WHERE "workflowId" = ${workflowId} AND "version" < ${opts.before ?? 2 ** 31 - 1}
    ORDER BY "version" DESC
    LIMIT ${opts.limit ?? 250}`;
  return rows.map(toSummary);
}

/**
 * Who owns the workflow and its version, with a page of its history as `listRevisions` lists it,
 * in one statement (one round trip for the history route, which checks access first and answers
 * the page only when allowed); null when there is no such workflow.
 */
export async function getHistoryPage(
  db: Db,
  workflowId: string,
  opts: { limit?: number; before?: number } = {},
): Promise<(WorkflowAccess & { revisions: RevisionSummary[] }) | null> {
  const rows = await sql(db)<WorkflowAccess & { workflowVersion: number } & RevisionSummary>`
    SELECT w."id", w."ownerId", w."version" AS "workflowVersion", r.*
    FROM "Workflow" w
    LEFT JOIN LATERAL (
      SELECT ${SUMMARY_FIELDS}
      FROM "WorkflowRevision"
      WHERE "workflowId" = w."id" AND "version" < ${opts.before ?? 2 ** 31 - 1}
      ORDER BY "version" DESC
      LIMIT ${opts.limit ?? 250}
    ) r ON true
    WHERE w."id" = ${workflowId}
    ORDER BY r."version" DESC`;
  if (rows.length === 0) return null;
  const [{ id, ownerId, workflowVersion }] = rows;
  const revisions = rows
    .filter((row) => row.version !== null)
    .map(({ id: _id, ownerId: _owner, workflowVersion: _version, ...summary }) => toSummary(summary));
  return { id, ownerId, version: workflowVersion, revisions };
}

type RevisionRow = Omit<RevisionRecord, 'document'> & { documentText: string };

const REVISION_FIELDS = fragment`"version", "firstVersion", "name", "task", "label", "reason",
  "document"::text AS "documentText", "createdAt", "updatedAt"`;

const toRecord = ({ documentText, ...row }: RevisionRow): RevisionRecord => ({
  ...row,
  createdAt: new Date(row.createdAt),
  updatedAt: new Date(row.updatedAt),
  document: parseJson(documentText) as WorkflowDocument,
});

/**
 * The entry that keeps `version`, with its document, or null: null too for a version folded into
 * a later autosave entry (only the entry's newest version is kept).
 */
export async function getRevision(
  db: Db,
  workflowId: string,
  version: number,
): Promise<RevisionRecord | null> {
  const [row] = await sql(db)<RevisionRow>`
    SELECT ${REVISION_FIELDS}
    FROM "WorkflowRevision" WHERE "workflowId" = ${workflowId} AND "version" = ${version}`;
  return row ? toRecord(row) : null;
}

/**
 * The version of the autosave entry `version` was folded into (the entry that keeps a later
 * version and begins at or before this one), or null when it was not folded (it is kept, was
 * pruned, or never existed).
 */
export async function getFoldedInto(db: Db, workflowId: string, version: number): Promise<number | null> {
  const [row] = await sql(db)<{ version: number }>`
    SELECT "version" FROM "WorkflowRevision"
    WHERE "workflowId" = ${workflowId} AND "firstVersion" <= ${version} AND "version" > ${version}
    LIMIT 1`;
  return row?.version ?? null;
}

/** The columns of a revision with its document, each named with `prefix` (two revisions in one row). */
const revisionFields = (table: 'r' | 'p', prefix: string) =>
  new SqlFragment(
    [
      ['version', 'firstVersion', 'name', 'task', 'label', 'reason', 'createdAt', 'updatedAt']
        .map((column) => `${table}."${column}" AS "${prefix}${column}"`)
        .concat(`${table}."document"::text AS "${prefix}documentText"`)
        .join(', '),
    ],
    [],
  );

/** The revision whose columns carry `prefix` in `row`, or null when the join found none. */
function readPrefixed(row: Record<string, unknown>, prefix: string): RevisionRecord | null {
  if (row[`${prefix}version`] === null) return null;
  const fields = ['version', 'firstVersion', 'name', 'task', 'label', 'reason', 'createdAt', 'updatedAt'];
  const revision = Object.fromEntries(fields.map((field) => [field, row[prefix + field]]));
  return toRecord({ ...revision, documentText: row[`${prefix}documentText`] } as RevisionRow);
}

/**
 * Who owns the workflow and its current version, with the entry that keeps `version` (as
 * `getRevision` finds it) and, when `previous` is asked for, the newest entry older than
 * `version` (older ones may have been pruned): one statement, one round trip, for the route that
 * shows a revision. Null when there is no such workflow.
 */
export async function getRevisionWithAccess(
  db: Db,
  workflowId: string,
  version: number,
  opts: { previous: boolean },
): Promise<(WorkflowAccess & { revision: RevisionRecord | null; previous: RevisionRecord | null }) | null> {
  const previous = opts.previous
    ? fragment`LEFT JOIN LATERAL (
        SELECT * FROM "WorkflowRevision"
        WHERE "workflowId" = w."id" AND "version" < ${version}
        ORDER BY "version" DESC LIMIT 1
      ) p ON true`
    : fragment`LEFT JOIN "WorkflowRevision" p ON false`;
  const [row] = await sql(db)<Record<string, unknown> & WorkflowAccess & { workflowVersion: number }>`
    SELECT w."id", w."ownerId", w."version" AS "workflowVersion",
           ${revisionFields('r', 'r_')}, ${revisionFields('p', 'p_')}
    FROM "Workflow" w
    LEFT JOIN "WorkflowRevision" r ON r."workflowId" = w."id" AND r."version" = ${version}
    ${previous}
    WHERE w."id" = ${workflowId}`;
  if (!row) return null;
  return {
    id: row.id,
    ownerId: row.ownerId,
    version: row.workflowVersion,
    revision: readPrefixed(row, 'r_'),
    previous: readPrefixed(row, 'p_'),
  };
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
