/**
 * POST /api/workflows/[id]/duplicate — a copy of one of the caller's workflows, as it is saved
 * now: "Copy of <name>", owned by the caller, its history beginning at version 1 (`duplicate`).
 * 201 with the copy.
 */
import type { WorkflowResponse } from '@/lib/api/types';
import { duplicateWorkflow } from '@/lib/db/workflows';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { loadOwnedWorkflow } from '../../access';
import { workflowCreations } from '../../limits';
import { assertExportableDocument } from '../../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const POST = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  await enforceRateLimit(
    workflowCreations,
    getRateLimitKey(request, await getRequestOwner(request)),
    'new workflows',
  );
  const { db, owner, workflow: source } = await loadOwnedWorkflow(request, id, 'duplicate', 'edit');
  // Saved before every write was checked, a workflow may not export; its copy would keep that.
  assertExportableDocument(source.document, {
    at: '',
    what: `Workflow "${id}"`,
    code: 'unprocessable:document',
  });
  const workflow = await duplicateWorkflow(db, source, owner.id);
  return Response.json({ workflow } satisfies WorkflowResponse, {
    status: 201,
    headers: { location: `/api/workflows/${workflow.id}` },
  });
});
