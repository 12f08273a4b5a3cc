/**
 * GET /api/runs/[runId]/nodes/[nodeId] — one node of a run: the arguments exactly as sent, the
 * result (content blocks, structuredContent) or the error, what was cut for storage, the times.
 */
import { getPrisma } from '@/lib/db/client';
import { getNodeRun } from '@/lib/db/runs';
import { AppError, withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { requireOwnedRun } from '../../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ runId: string; nodeId: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { runId, nodeId } = await context.params;
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  const run = await requireOwnedRun(db, runId, owner, 'see');
  const node = await getNodeRun(db, runId, nodeId);
  if (!node) throw new AppError('not_found:node', `Test-run "${runId}" has no step "${nodeId}".`);
  // Arguments, result and error alike: a result may name a server path as much as an error.
  return Response.json({ node: getRunPathRedactor(run.ownerId).json(node) });
});
