/** GET /api/workflows/[id]/export — the workflow as v1 node JSON (docs/design.md §4.3), as a download. */
import { withErrors } from '@/lib/http/errors';
import { withInternedTools } from '@/lib/workflow/check';
import { exportWorkflow, formatExportFile } from '@/lib/workflow/export';
import { getAttachmentHeaders, loadOwnedWorkflow } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const { workflow } = await loadOwnedWorkflow(request, id, 'export', 'read', { link: true });
  // Shared declarations: a tool's parameter plan and value checks are worked out once per process.
  const exported = exportWorkflow(withInternedTools(workflow.document), {
    id: workflow.id,
    name: workflow.name,
  });
  return new Response(formatExportFile(exported), {
    headers: getAttachmentHeaders(workflow.name),
  });
});
