/**
 * GET /api/workflows/[id]/revisions/[version] — one revision with its document and a diff summary
 * against the version before it (`?against=<version>` compares with another one);
 * PATCH — name it (`{label}`: kept beyond the retention bound) or clear its name (`{label: null}`).
 */
import type { LabelRevisionResponse, RevisionResponse } from '@/lib/api/types';
import { getPreviousRevision, getRevision, setRevisionLabel } from '@/lib/db/revisions';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { diffDocuments, summarizeDiff } from '@/lib/workflow/diff';
import { parseVersion, requireOwnedWorkflow } from '../../../access';
import { validateLabelRevision } from '../../../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; version: string }> };

function revisionNotFound(id: string, version: number): AppError {
  return new AppError(
    'not_found:revision',
    `Workflow "${id}" has no revision ${version}. Old unnamed revisions are pruned; list them with GET /api/workflows/${id}/revisions.`,
  );
}

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id, version: rawVersion } = await context.params;
  const version = parseVersion(rawVersion, 'version');
  const against = new URL(request.url).searchParams.get('against');
  const { db } = await requireOwnedWorkflow(request, id, 'see the history of');
  const revision = await getRevision(db, id, version);
  if (!revision) throw revisionNotFound(id, version);
  const base =
    against === null
      ? await getPreviousRevision(db, id, version)
      : await getRevision(db, id, parseVersion(against, 'against'));
  if (against !== null && !base) throw revisionNotFound(id, Number(against));
  const diff = base ? diffDocuments(base.document, revision.document) : null;
  return Response.json({
    revision,
    comparedWith: base?.version ?? null,
    diff,
    summary: diff ? summarizeDiff(diff) : 'First version',
  } satisfies RevisionResponse);
});

export const PATCH = withErrors(async (request: Request, context: Context) => {
  const { id, version: rawVersion } = await context.params;
  const version = parseVersion(rawVersion, 'version');
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateLabelRevision);
  const { db } = await requireOwnedWorkflow(request, id, 'name revisions of');
  if (!(await setRevisionLabel(db, id, version, body.label?.trim() || null)))
    throw revisionNotFound(id, version);
  return Response.json({ version, label: body.label?.trim() || null } satisfies LabelRevisionResponse);
});
