/**
 * GET /api/workflows/[id]/revisions/[version] — one revision with its document and what changed
 * between it and the entry before it (`?against=<version>` compares with another one,
 * `?against=current` with the current version), always from the older to the newer: counts, a
 * summary line, and the steps by title with their parameters before and after;
 * PATCH — name it (`{label}`: kept beyond the retention bound) or clear its name (`{label: null}`).
 */
import type { LabelRevisionResponse, RevisionResponse } from '@/lib/api/types';
import type { Db } from '@/lib/db/client';
import {
  getFoldedInto,
  getRevision,
  getRevisionWithAccess,
  setRevisionLabel,
  type RevisionRecord,
} from '@/lib/db/revisions';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { getDisplayTitle } from '@/lib/editor/display-title';
import { diffDocuments, summarizeDiff } from '@/lib/workflow/diff';
import { getStepChanges } from '@/lib/workflow/step-changes';
import { openOwnedWorkflow, parseVersion, requireOwnedWorkflow } from '../../../access';
import { validateLabelRevision } from '../../../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; version: string }> };

/**
 * 404 for a version that is not in the history: folded into a later autosave entry (named in
 * `foldedInto`, to open instead), or pruned, or never saved.
 */
async function revisionNotFound(db: Db, id: string, version: number): Promise<AppError> {
  const foldedInto = await getFoldedInto(db, id, version);
  if (foldedInto !== null)
    return new AppError(
      'not_found:revision',
      `Version ${version} of workflow "${id}" was an autosave folded into the history entry that keeps version ${foldedInto}: only an entry's newest version is kept. Open version ${foldedInto} instead.`,
      { details: { foldedInto } },
    );
  return new AppError(
    'not_found:revision',
    `Workflow "${id}" has no revision ${version}. Old unnamed revisions are pruned; list them with GET /api/workflows/${id}/revisions.`,
  );
}

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id, version: rawVersion } = await context.params;
  const version = parseVersion(rawVersion, 'version');
  const against = new URL(request.url).searchParams.get('against');
  // Access, the revision and (with no `against`) the entry before it, in one round trip.
  const { db, workflow } = await openOwnedWorkflow(
    request,
    id,
    'see the history of',
    'read',
    (db, id) => getRevisionWithAccess(db, id, version, { previous: against === null }),
    { link: true },
  );
  const { revision } = workflow;
  if (!revision) throw await revisionNotFound(db, id, version);
  const againstVersion =
    against === null ? null : against === 'current' ? workflow.version : parseVersion(against, 'against');
  const base =
    againstVersion === null
      ? workflow.previous
      : againstVersion === version
        ? revision
        : await getRevision(db, id, againstVersion);
  if (againstVersion !== null && !base) throw await revisionNotFound(db, id, againstVersion);
  const [older, newer]: [RevisionRecord | null, RevisionRecord] =
    base && base.version > version ? [revision, base] : [base, revision];
  const diff = older ? diffDocuments(older.document, newer.document) : null;
  const steps = older ? getStepChanges(older.document, newer.document, { toolTitle: getDisplayTitle }) : [];
  return Response.json({
    revision,
    comparedWith: base?.version ?? null,
    diff,
    steps,
    summary: diff ? summarizeDiff(diff) : 'First version',
  } satisfies RevisionResponse);
});

export const PATCH = withErrors(async (request: Request, context: Context) => {
  const { id, version: rawVersion } = await context.params;
  const version = parseVersion(rawVersion, 'version');
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateLabelRevision);
  const { db } = await requireOwnedWorkflow(request, id, 'name revisions of', 'edit', { link: true });
  if (!(await setRevisionLabel(db, id, version, body.label?.trim() || null)))
    throw await revisionNotFound(db, id, version);
  return Response.json({ version, label: body.label?.trim() || null } satisfies LabelRevisionResponse);
});
