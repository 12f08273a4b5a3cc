/** GET /api/workflows — my workflows; POST /api/workflows — create one (owned by the caller). */
import type { WorkflowListResponse, WorkflowResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { createWorkflow, listWorkflows } from '@/lib/db/workflows';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { assertCan, getRequestOwner } from '@/lib/http/access';
import { enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { workflowCreations } from './limits';
import { assertExportableDocument, readWorkflowName, validateCreateWorkflow } from './schema';

export const dynamic = 'force-dynamic';

export const GET = withErrors(async (request: Request) => {
  const owner = await getRequestOwner(request);
  assertCan(owner, 'read', 'see the workflows of this workspace');
  const db = await getPrisma();
  const workflows = owner.isNew ? [] : await listWorkflows(db, { ownerId: owner.id });
  return withOwnerCookie(Response.json({ workflows } satisfies WorkflowListResponse), owner, request);
});

export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const owner = await getRequestOwner(request);
  assertCan(owner, 'edit', 'create workflows in this workspace');
  await enforceRateLimit(workflowCreations, getRateLimitKey(request, owner), 'new workflows');
  const body = await parseJsonBody(request, validateCreateWorkflow);
  const name = readWorkflowName(body.name);
  if (body.document)
    assertExportableDocument(body.document, { at: '/document', what: 'The document', inCheckedBody: true });
  const db = await getPrisma();
  const workflow = await createWorkflow(db, { ...body, name, ownerId: owner.id });
  return withOwnerCookie(
    Response.json({ workflow } satisfies WorkflowResponse, {
      status: 201,
      headers: { location: `/api/workflows/${workflow.id}` },
    }),
    owner,
    request,
  );
});
