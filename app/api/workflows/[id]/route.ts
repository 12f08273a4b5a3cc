/**
 * GET /api/workflows/[id] — read (its workspace only, or an account holding a live edit link to
 * it: a workflow URL is not a share link);
 * PUT — save with optimistic concurrency (409 with the server copy on a stale version);
 * PATCH `{version, name}` — rename it, as a new version on top of `version` (409 likewise);
 * DELETE — remove it with its revisions, share links and runs.
 */
import type { SavedWorkflowResponse, VersionConflictBody, Workflow } from '@/lib/api/types';
import { deleteWorkflow, getWorkflowAccess, getWorkflowText, updateWorkflow } from '@/lib/db/workflows';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { can, getRequestOwner, getWorkflowOwner } from '@/lib/http/access';
import { getPrisma } from '@/lib/db/client';
import { loadOwnedWorkflow, requireOwnedWorkflow, workflowNotFound } from '../access';
import {
  assertExportableDocument,
  readWorkflowName,
  validateRenameWorkflow,
  validateUpdateWorkflow,
} from '../schema';

export const dynamic = 'force-dynamic';

/**
 * 409 `conflict:version` with the server's copy, for a write on top of a stale version: `done`
 * says what the client did ("saved on top of"), `next` what to do now.
 */
function versionConflict(sent: number, current: Workflow, done: string, next: string): AppError {
  return new AppError(
    'conflict:version',
    `This workflow changed elsewhere: you ${done} version ${sent}, the server has version ${current.version}. ${next}`,
    { details: { current } satisfies Pick<VersionConflictBody, 'current'> },
  );
}

const SAVE_CONFLICT = ['saved on top of', 'Reload it or keep yours as a new version.'] as const;
const RENAME_CONFLICT = ['renamed', 'Reload it, then rename it again.'] as const;

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const owner = await getRequestOwner(request);
  const row = await getWorkflowText(await getPrisma(), id);
  if (!row) throw workflowNotFound(id);
  await getWorkflowOwner(owner, row, 'read', 'open');
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
  const name = readWorkflowName(body.name);
  assertExportableDocument(body.document, { at: '/document', what: 'The document', inCheckedBody: true });
  // The ownership check rides on the write itself (one statement, one round trip); only a write
  // that changed nothing looks further, to say 404, 403 or 409 in that order. A caller whose role
  // does not allow editing (a viewer) is checked before anything is written: it may still hold an
  // edit link to this one workflow (getWorkflowOwner).
  const [caller, db] = await Promise.all([getRequestOwner(request), getPrisma()]);
  let owner = caller;
  if (!can(caller.role, 'edit')) {
    const access = await getWorkflowAccess(db, id);
    if (!access) throw workflowNotFound(id);
    owner = await getWorkflowOwner(caller, access, 'edit', 'change');
  }
  const save = (ownerId: string) =>
    updateWorkflow(db, id, {
      expectedVersion: body.version,
      name,
      task: body.task,
      document: body.document,
      reason: body.reason,
      ownerId,
    });
  let outcome = await save(owner.id);
  if (!outcome.ok && outcome.reason === 'forbidden' && !owner.viaLink) {
    // Another workspace's workflow: refused, unless the account opened a live edit link to it.
    owner = await getWorkflowOwner(caller, outcome.access, 'edit', 'change');
    outcome = await save(owner.id);
  }
  if (outcome.ok) {
    const { document: _sent, ...workflow } = outcome.workflow;
    return Response.json({ workflow } satisfies SavedWorkflowResponse);
  }
  if (outcome.reason === 'not_found') throw workflowNotFound(id);
  if (outcome.reason === 'forbidden') throw new Error(`Workflow "${id}" was refused to its own owner.`);
  throw versionConflict(body.version, outcome.current, ...SAVE_CONFLICT);
});

export const PATCH = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateRenameWorkflow);
  const name = readWorkflowName(body.name);
  const { db, owner, workflow } = await loadOwnedWorkflow(request, id, 'rename', 'edit', { link: true });
  if (workflow.version !== body.version) throw versionConflict(body.version, workflow, ...RENAME_CONFLICT);
  // A rename is a save of the same document under the new name: a version like any other, which
  // an autosave entry of the last few minutes takes in.
  const outcome = await updateWorkflow(db, id, {
    expectedVersion: body.version,
    name,
    task: workflow.task,
    document: workflow.document,
    ownerId: owner.id,
  });
  if (outcome.ok) {
    const { document: _kept, ...renamed } = outcome.workflow;
    return Response.json({ workflow: renamed } satisfies SavedWorkflowResponse);
  }
  if (outcome.reason === 'conflict') throw versionConflict(body.version, outcome.current, ...RENAME_CONFLICT);
  throw workflowNotFound(id);
});

export const DELETE = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const { db } = await requireOwnedWorkflow(request, id, 'delete', 'delete');
  if (!(await deleteWorkflow(db, id))) throw workflowNotFound(id);
  return new Response(null, { status: 204 });
});
