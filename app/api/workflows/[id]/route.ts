/**
 * GET /api/workflows/[id] — read (owner only: a workflow URL is not a share link);
 * PUT — save with optimistic concurrency (409 with the server copy on a stale version);
 * DELETE — remove it with its revisions and share links.
 */
import type { VersionConflictBody, WorkflowResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { deleteWorkflow, getWorkflow, updateWorkflow } from '@/lib/db/workflows';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { assertOwnsWorkflow, getRequestOwner } from '@/lib/http/owner';
import { requireOwnedWorkflow, workflowNotFound } from '../access';
import { assertExportableDocument, validateUpdateWorkflow } from '../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const owner = getRequestOwner(request);
  const db = await getPrisma();
  const workflow = await getWorkflow(db, id);
  if (!workflow) throw workflowNotFound(id);
  assertOwnsWorkflow(owner, workflow, 'open');
  return Response.json({ workflow } satisfies WorkflowResponse);
});

export const PUT = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const owner = getRequestOwner(request);
  const body = await parseJsonBody(request, validateUpdateWorkflow);
  assertExportableDocument(body.document, { at: '/document', what: 'The document' });
  const db = await getPrisma();
  await requireOwnedWorkflow(db, id, owner, 'change');
  const outcome = await updateWorkflow(db, id, {
    expectedVersion: body.version,
    name: body.name,
    task: body.task,
    document: body.document,
  });
  if (outcome.ok) return Response.json({ workflow: outcome.workflow } satisfies WorkflowResponse);
  if (outcome.reason === 'not_found') throw workflowNotFound(id);
  throw new AppError(
    'conflict:version',
    `This workflow changed elsewhere: you saved on top of version ${body.version}, the server has version ${outcome.current.version}. Reload it or keep yours as a new version.`,
    { details: { current: outcome.current } satisfies Pick<VersionConflictBody, 'current'> },
  );
});

export const DELETE = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const owner = getRequestOwner(request);
  const db = await getPrisma();
  await requireOwnedWorkflow(db, id, owner, 'delete');
  if (!(await deleteWorkflow(db, id))) throw workflowNotFound(id);
  return new Response(null, { status: 204 });
});
