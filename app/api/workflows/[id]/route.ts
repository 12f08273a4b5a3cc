/**
 * GET /api/workflows/[id] — read (owner only: a workflow URL is not a share link);
 * PUT — save with optimistic concurrency (409 with the server copy on a stale version);
 * DELETE — remove it with its revisions and share links.
 */
import type { SavedWorkflowResponse, VersionConflictBody } from '@/lib/api/types';
import { deleteWorkflow, getWorkflowText, updateWorkflow } from '@/lib/db/workflows';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { assertOwnsWorkflow, getRequestOwner } from '@/lib/http/owner';
import { getPrisma } from '@/lib/db/client';
import { requireOwnedWorkflow, workflowNotFound } from '../access';
import { assertExportableDocument, validateUpdateWorkflow } from '../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const owner = getRequestOwner(request);
  const row = await getWorkflowText(await getPrisma(), id);
  if (!row) throw workflowNotFound(id);
  assertOwnsWorkflow(owner, row, 'open');
  // The document goes out as the stored JSON text, never parsed and serialized again; the other
  // fields around it in WorkflowResponse's order.
  const { documentText, id: _id, ownerId, name, task, ...rest } = row;
  const head = JSON.stringify({ id: row.id, ownerId, name, task }).slice(0, -1);
  const tail = JSON.stringify(rest).slice(1);
  return new Response(`{"workflow":${head},"document":${documentText},${tail}}`, {
    headers: { 'content-type': 'application/json' },
  });
});

export const PUT = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateUpdateWorkflow);
  assertExportableDocument(body.document, { at: '/document', what: 'The document' });
  // The ownership check rides on the write itself (one statement, one round trip); only a write
  // that changed nothing looks further, to say 404, 403 or 409 in that order.
  const owner = getRequestOwner(request);
  const outcome = await updateWorkflow(await getPrisma(), id, {
    expectedVersion: body.version,
    name: body.name,
    task: body.task,
    document: body.document,
    ownerId: owner.id,
  });
  if (outcome.ok) {
    const { document: _sent, ...workflow } = outcome.workflow;
    return Response.json({ workflow } satisfies SavedWorkflowResponse);
  }
  if (outcome.reason === 'not_found') throw workflowNotFound(id);
  if (outcome.reason === 'forbidden') {
    assertOwnsWorkflow(owner, outcome.access, 'change');
    throw new Error(`Workflow "${id}" was refused to its own owner.`);
  }
  throw new AppError(
    'conflict:version',
    `This workflow changed elsewhere: you saved on top of version ${body.version}, the server has version ${outcome.current.version}. Reload it or keep yours as a new version.`,
    { details: { current: outcome.current } satisfies Pick<VersionConflictBody, 'current'> },
  );
});

export const DELETE = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const { db } = await requireOwnedWorkflow(request, id, 'delete');
  if (!(await deleteWorkflow(db, id))) throw workflowNotFound(id);
  return new Response(null, { status: 204 });
});
