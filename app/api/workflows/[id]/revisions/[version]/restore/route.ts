/**
 * POST /api/workflows/[id]/revisions/[version]/restore `{version}` — saves that revision's
 * document as a new version on top of `version` (the one the client holds; 409 when stale).
 */
import type { RestoreRevisionResponse, VersionConflictBody } from '@/lib/api/types';
import { getRevision, restoreRevision } from '@/lib/db/revisions';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { parseVersion, requireOwnedWorkflow, workflowNotFound } from '../../../../access';
import { assertExportableDocument, validateRestoreRevision } from '../../../../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; version: string }> };

export const POST = withErrors(async (request: Request, context: Context) => {
  const { id, version: rawVersion } = await context.params;
  const version = parseVersion(rawVersion, 'version');
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateRestoreRevision);
  const { db } = await requireOwnedWorkflow(request, id, 'restore', 'edit', { link: true });
  const revision = await getRevision(db, id, version);
  if (!revision)
    throw new AppError('not_found:revision', `Workflow "${id}" has no revision ${version} to restore.`);
  // Saved before every write was checked, a revision may not export; restoring it would keep that.
  assertExportableDocument(revision.document, {
    at: '',
    what: `Revision ${version}`,
    code: 'unprocessable:document',
  });
  const outcome = await restoreRevision(db, id, revision, body.version);
  if (outcome.ok)
    return Response.json({
      workflow: outcome.workflow,
      restoredFrom: version,
    } satisfies RestoreRevisionResponse);
  if (outcome.reason === 'not_found') throw workflowNotFound(id);
  throw new AppError(
    'conflict:version',
    `This workflow changed elsewhere (the server has version ${outcome.current.version}, you have ${body.version}). Reload it, then restore again.`,
    { details: { current: outcome.current } satisfies Pick<VersionConflictBody, 'current'> },
  );
});
