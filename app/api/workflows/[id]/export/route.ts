/**
 * GET /api/workflows/[id]/export — the workflow as v1 node JSON (docs/design.md §4.3), as a
 * download; `?version=N` exports saved version N from its history instead of the current one
 * (`toolflow pull --version`), 404 when the history no longer keeps it. The `x-toolflow-version`
 * header names the version exported.
 */
import { getRevision } from '@/lib/db/revisions';
import { AppError, withErrors } from '@/lib/http/errors';
import { withInternedTools } from '@/lib/workflow/check';
import { exportWorkflow, formatExportFile } from '@/lib/workflow/export';
import { getAttachmentHeaders, loadOwnedWorkflow, parseVersion } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const asked = new URL(request.url).searchParams.get('version');
  const { db, workflow } = await loadOwnedWorkflow(request, id, 'export', 'read', { link: true });
  const version = asked === null ? workflow.version : parseVersion(asked, 'version');
  const source = version === workflow.version ? workflow : await getRevision(db, id, version);
  if (!source)
    throw new AppError(
      'not_found:version',
      `Workflow "${id}" has no saved version ${version} in its history (it is at version ${workflow.version}). List its versions with GET /api/workflows/${id}/revisions.`,
    );
  // Shared declarations: a tool's parameter plan and value checks are worked out once per process.
  const exported = exportWorkflow(withInternedTools(source.document), { id: workflow.id, name: source.name });
  return new Response(formatExportFile(exported), {
    headers: { ...getAttachmentHeaders(source.name), 'x-toolflow-version': String(version) },
  });
});
