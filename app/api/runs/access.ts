/**
 * What the run routes share: loading a run its owner may see, and the JSON shapes the API answers
 * with. Runs are owner-only: share links never reach them. Preparing and starting a run is
 * lib/queue/runs.ts. Every answer about a run passes its errors and results through the owner's
 * path redactor (lib/mcp/server-paths.ts): what is stored keeps the tools' own words, what is
 * served never shows an absolute server path.
 */
import type { Db } from '@/lib/db/client';
import { getRun, type NodeRunSummary, type RunSummary } from '@/lib/db/runs';
import { AppError } from '@/lib/http/errors';
import { assertWorkspaceAccess, type Action, type RequestOwner } from '@/lib/http/access';
import type { PathRedactor } from '@/lib/run/server-paths';

/** 404 naming the run. */
export function runNotFound(id: string): AppError {
  return new AppError(
    'not_found:run',
    `No test-run with id "${id}". It may have been deleted with its workflow.`,
  );
}

/** Loads a run and refuses (403) anyone outside its workspace, or whose role does not allow `action`. */
export async function requireOwnedRun(
  db: Db,
  id: string,
  owner: RequestOwner,
  what: string,
  action: Action = 'read',
): Promise<RunSummary> {
  const run = await getRun(db, id);
  if (!run) throw runNotFound(id);
  assertWorkspaceAccess(owner, 'run', run, action, what);
  return run;
}

/** A run as the API returns it (dates as ISO strings, no owner id, server paths redacted). */
export function toRunJson(run: RunSummary, paths: PathRedactor) {
  const { ownerId: _ownerId, ...rest } = run;
  return { ...rest, error: paths.json(rest.error) };
}

/** Nodes as the API returns them, server paths redacted. */
export function toNodesJson(nodes: NodeRunSummary[], paths: PathRedactor) {
  return nodes.map((node) => (node.error ? { ...node, error: paths.json(node.error) } : node));
}
