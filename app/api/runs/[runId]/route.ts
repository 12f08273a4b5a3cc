/** GET /api/runs/[runId] — a test-run with its nodes' statuses, errors and times (owner only). */
import { getPrisma } from '@/lib/db/client';
import { getRunNodes } from '@/lib/db/runs';
import { withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { requireOwnedRun, toNodesJson, toRunJson } from '../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ runId: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { runId } = await context.params;
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  const run = await requireOwnedRun(db, runId, owner, 'see');
  const paths = getRunPathRedactor(run.ownerId);
  return Response.json({
    run: toRunJson(run, paths),
    nodes: toNodesJson(await getRunNodes(db, runId), paths),
  });
});
