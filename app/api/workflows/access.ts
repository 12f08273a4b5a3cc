/**
 * The opening every /api/workflows/[id]/** route shares: who asks, the database, and the
 * workflow — 404 when it is unknown, 403 when it is not in the caller's workspace or the caller's
 * role there does not allow the action (lib/http/access.ts). Routes that need the
 * document use `loadOwnedWorkflow`; the others read only its owner and version with
 * `requireOwnedWorkflow`; those that read more with it, `openOwnedWorkflow`.
 */
import { getPrisma, type Db } from '@/lib/db/client';
import { getWorkflow, getWorkflowAccess, type WorkflowAccess, type WorkflowRecord } from '@/lib/db/workflows';
import { AppError } from '@/lib/http/errors';
import { getExportFileName } from '@/lib/workflow/file-name';
import {
  assertWorkspaceAccess,
  getRequestOwner,
  getWorkflowOwner,
  type Action,
  type RequestOwner,
} from '@/lib/http/access';

/** 404 naming the id. */
export function workflowNotFound(id: string): AppError {
  return new AppError(
    'not_found:workflow',
    `No workflow with id "${id}". It may have been deleted; check the id or open it from your list.`,
  );
}

/**
 * What a route acts with once the workflow is known to be the caller's: `owner` is the caller, or
 * the workflow's workspace as an edit link grants it (lib/http/access.ts, getWorkflowOwner).
 */
export interface OwnedWorkflow<W> {
  db: Db;
  owner: RequestOwner;
  workflow: W;
}

/** `link`: an account's "can edit" link to this workflow is also a way in (docs/design.md §13.4). */
export interface OpenOptions {
  link?: boolean;
}

/**
 * Loads the workflow with `load` (whatever a route needs read with it, in the same round trip)
 * and refuses unless the caller may do `action` to it (`what` words the 403); 404 when `load`
 * finds none.
 */
export async function openOwnedWorkflow<W extends { id: string; ownerId: string | null }>(
  request: Request,
  id: string,
  what: string,
  action: Action,
  load: (db: Db, id: string) => Promise<W | null>,
  options: OpenOptions = {},
): Promise<OwnedWorkflow<W>> {
  const [caller, db] = await Promise.all([getRequestOwner(request), getPrisma()]);
  const workflow = await load(db, id);
  if (!workflow) throw workflowNotFound(id);
  if (!options.link) {
    assertWorkspaceAccess(caller, 'workflow', workflow, action, what);
    return { db, owner: caller, workflow };
  }
  return { db, owner: await getWorkflowOwner(caller, workflow, action, what), workflow };
}

/**
 * Loads who owns the workflow (and its version) and refuses unless the caller may do `action` to
 * it (`what` words the 403).
 */
export function requireOwnedWorkflow(
  request: Request,
  id: string,
  what: string,
  action: Action,
  options: OpenOptions = {},
): Promise<OwnedWorkflow<WorkflowAccess>> {
  return openOwnedWorkflow(request, id, what, action, getWorkflowAccess, options);
}

/** Loads the whole workflow, document included, and refuses unless the caller may do `action` to it. */
export function loadOwnedWorkflow(
  request: Request,
  id: string,
  what: string,
  action: Action,
  options: OpenOptions = {},
): Promise<OwnedWorkflow<WorkflowRecord>> {
  return openOwnedWorkflow(request, id, what, action, getWorkflow, options);
}

/** Response headers for a JSON download. */
export function getAttachmentHeaders(name: string): HeadersInit {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="${getExportFileName(name)}"`,
  };
}

/** Parses a version from the path or query; 400 naming where it came from otherwise. */
export function parseVersion(raw: string, where: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new AppError(
      `bad_request:${where}`,
      `The ${where} must be a positive integer version, not "${raw}".`,
    );
  return n;
}
