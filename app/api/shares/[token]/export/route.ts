/** GET /api/shares/[token]/export — the shared workflow as v1 node JSON, as a download. */
import { getPrisma } from '@/lib/db/client';
import { withErrors } from '@/lib/http/errors';
import { exportWorkflow, formatExportFile } from '@/lib/workflow/export';
import { getAttachmentHeaders } from '../../../workflows/access';
import { requireSharedWorkflow, SHARE_HEADERS } from '../../shared';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

export const GET = withErrors(async (_request: Request, context: Context) => {
  const { token } = await context.params;
  const db = await getPrisma();
  const { workflow } = await requireSharedWorkflow(db, token);
  const exported = exportWorkflow(workflow.document, { id: workflow.id, name: workflow.name });
  return new Response(formatExportFile(exported), {
    headers: { ...getAttachmentHeaders(workflow.name), ...SHARE_HEADERS },
  });
});
