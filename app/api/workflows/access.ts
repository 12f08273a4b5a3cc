/** The authorize step every /api/workflows/[id]/** route shares: 404 when unknown, 403 when not mine. */
import type { Db } from '@/lib/db/client';
import { getWorkflowAccess, type WorkflowAccess } from '@/lib/db/workflows';
import { AppError } from '@/lib/http/errors';
import { assertOwnsWorkflow, type RequestOwner } from '@/lib/http/owner';

/** 404 naming the id. */
export function workflowNotFound(id: string): AppError {
  return new AppError(
    'not_found:workflow',
    `No workflow with id "${id}". It may have been deleted; check the id or open it from your list.`,
  );
}

/** Loads who owns the workflow and refuses unless it is `owner` (`action` words the 403). */
export async function requireOwnedWorkflow(
  db: Db,
  id: string,
  owner: RequestOwner,
  action: string,
): Promise<WorkflowAccess> {
  const access = await getWorkflowAccess(db, id);
  if (!access) throw workflowNotFound(id);
  assertOwnsWorkflow(owner, access, action);
  return access;
}

/** A file name for downloads: the workflow name reduced to safe characters. */
export function getExportFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w\s.-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80);
  return `${slug || 'workflow'}.toolflow.json`;
}

/** Response headers for a JSON download. */
export function getAttachmentHeaders(name: string): HeadersInit {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="${getExportFileName(name)}"`,
    'cache-control': 'no-store',
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
