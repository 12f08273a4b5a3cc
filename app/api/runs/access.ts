/**
 * What the run routes share: loading a run its owner may see, and the JSON shapes the API answers
 * with. Runs are owner-only: share links never reach them. Preparing and starting a run is
 * lib/queue/runs.ts.
 */
import type { Db } from '@/lib/db/client';
import { getRun, type NodeRunSummary, type RunSummary } from '@/lib/db/runs';
import { AppError } from '@/lib/http/errors';
import type { RequestOwner } from '@/lib/http/owner';

/** 404 naming the run. */
export function runNotFound(id: string): AppError {
  return new AppError(
    'not_found:run',
    `No test-run with id "${id}". It may have been deleted with its workflow.`,
  );
}

/** Loads a run and refuses (403) anyone but its owner. */
export async function requireOwnedRun(
  db: Db,
  id: string,
  owner: RequestOwner,
  action: string,
): Promise<RunSummary> {
  const run = await getRun(db, id);
  if (!run) throw runNotFound(id);
  if (run.ownerId !== owner.id) {
    throw new AppError(
      'forbidden:run',
      `You cannot ${action} test-run "${id}": it belongs to another browser. Runs are visible to their owner only.`,
    );
  }
  return run;
}

/** A run as the API returns it (dates as ISO strings, no owner id). */
export function toRunJson(run: RunSummary) {
  const { ownerId: _ownerId, ...rest } = run;
  return rest;
}

/** Nodes as the API returns them. */
export function toNodesJson(nodes: NodeRunSummary[]) {
  return nodes;
}
