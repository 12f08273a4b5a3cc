/** What every /api/toolkits route shares: loading with ownership, and error values → HTTP errors. */
import type { Db } from '@/lib/db/client';
import { getToolkit, type ToolkitRecord } from '@/lib/db/toolkits';
import type { McpProblem } from '@/lib/mcp/client';
import { AppError } from '@/lib/http/errors';
import { assertCan, assertWorkspaceAccess, type RequestOwner } from '@/lib/http/access';
import type { Issue } from '@/lib/result';
import { getToolkitRunnability } from '@/lib/toolkits/runnable';

/** 404 naming the id. */
export function toolkitNotFound(id: string): AppError {
  return new AppError(
    'not_found:toolkit',
    `No toolkit with id "${id}". It may have been deleted; reload the toolkit list.`,
  );
}

/**
 * Loads a toolkit the caller may see: a built-in (everyone) or their own. `action` words the 403;
 * `write` refuses built-ins, which are part of Toolflow and change only with it.
 */
export async function requireToolkit(
  db: Db,
  id: string,
  owner: RequestOwner,
  action: string,
  access: 'read' | 'write',
): Promise<ToolkitRecord> {
  const toolkit = await getToolkit(db, id);
  if (!toolkit) throw toolkitNotFound(id);
  if (toolkit.builtin) {
    if (access === 'read') assertCan(owner, 'read', `${action} "${toolkit.name}"`);
    if (access === 'write') {
      throw new AppError(
        'forbidden:builtin_toolkit',
        `You cannot ${action} "${toolkit.name}": it is a built-in sample toolkit. Add your own toolkit instead.`,
      );
    }
    return toolkit;
  }
  assertWorkspaceAccess(owner, 'toolkit', toolkit, access === 'write' ? 'edit' : 'read', action);
  return toolkit;
}

/** Problems with what the database can store (lib/tools/storable.ts), not with the declarations' meaning. */
const STORAGE_CODES = new Set(['too_deep', 'unstorable_text']);

/**
 * 422 for declarations that could not be read, with every issue and its JSON path; 400 when the
 * only problems are ones the database cannot store (too deep, a NUL character).
 */
export function declarationsError(issues: Issue[]): AppError {
  const [first] = issues;
  const where = first.path ? `${first.path}: ` : '';
  const more =
    issues.length > 1
      ? ` (${issues.length - 1} more problem${issues.length > 2 ? 's' : ''} listed in "issues")`
      : '';
  const storage = issues.every((issue) => STORAGE_CODES.has(issue.code ?? ''));
  return new AppError(
    storage ? 'bad_request:declarations' : 'unprocessable:declarations',
    `The tool declarations ${storage ? 'cannot be stored' : 'could not be read'}. ${where}${first.message}${more}`,
    {
      details: { issues },
    },
  );
}

/**
 * An MCP failure as an HTTP error: a refused URL or unknown server name is the request's fault
 * (400); anything the server did wrong is 422 with which server, which step and why.
 */
export function mcpError(problem: McpProblem): AppError {
  const details = {
    mcp: {
      server: problem.server,
      step: problem.step,
      code: problem.code,
      ...(problem.issues ? { issues: problem.issues } : {}),
    },
  };
  if (problem.code === 'url_refused') return new AppError('bad_request:mcpUrl', problem.message, { details });
  return new AppError(`unprocessable:mcp_${problem.step}`, problem.message, { details });
}

/**
 * A toolkit as the API returns it (dates as ISO strings by Response.json), with whether a test-run
 * can call its tools here (`configuredServers`: lib/mcp/config.ts getConfiguredServerNames).
 */
export function toToolkitJson(toolkit: ToolkitRecord, configuredServers: ReadonlySet<string>) {
  const { ownerId: _ownerId, ...rest } = toolkit;
  const { runnable, note } = getToolkitRunnability(toolkit, configuredServers);
  return { ...rest, runnable, runnableNote: note };
}
