/** GET /api/shares/[token] — the shared workflow, read-only (404 once revoked or expired). */
import type { SharedWorkflowResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { withErrors } from '@/lib/http/errors';
import { requireSharedWorkflow, SHARE_HEADERS } from '../shared';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

export const GET = withErrors(async (_request: Request, context: Context) => {
  const { token } = await context.params;
  const db = await getPrisma();
  const { share, workflow } = await requireSharedWorkflow(db, token);
  return Response.json(
    {
      workflow: {
        name: workflow.name,
        task: workflow.task,
        version: workflow.version,
        document: workflow.document,
        updatedAt: workflow.updatedAt,
      },
      share: { expiresAt: share.expiresAt, readOnly: true },
    } satisfies SharedWorkflowResponse,
    { headers: SHARE_HEADERS },
  );
});
