/** GET /api/workflows/[id]/export — the workflow as v1 node JSON (DESIGN §2), as a download. */
import { getPrisma } from '@/lib/db/client';
import { getWorkflow } from '@/lib/db/workflows';
import { withErrors } from '@/lib/http/errors';
import { assertOwnsWorkflow, getRequestOwner } from '@/lib/http/owner';
import { exportWorkflow } from '@/lib/workflow/export';
import { getAttachmentHeaders, workflowNotFound } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const owner = getRequestOwner(request);
  const db = await getPrisma();
  const workflow = await getWorkflow(db, id);
  if (!workflow) throw workflowNotFound(id);
  assertOwnsWorkflow(owner, workflow, 'export');
  const exported = exportWorkflow(workflow.document, { id: workflow.id, name: workflow.name });
  return new Response(JSON.stringify(exported, null, 2) + '\n', {
    headers: getAttachmentHeaders(workflow.name),
  });
});
