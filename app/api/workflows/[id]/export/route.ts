/** GET /api/workflows/[id]/export — the workflow as v1 node JSON (DESIGN §2), as a download. */
import { withErrors } from '@/lib/http/errors';
import { exportWorkflow, formatExportFile } from '@/lib/workflow/export';
import { getAttachmentHeaders, loadOwnedWorkflow } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const { workflow } = await loadOwnedWorkflow(request, id, 'export');
  const exported = exportWorkflow(workflow.document, { id: workflow.id, name: workflow.name });
  return new Response(formatExportFile(exported), {
    headers: getAttachmentHeaders(workflow.name),
  });
});
