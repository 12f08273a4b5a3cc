/**
 * POST /api/runs/[runId]/cancel — stop a test-run: a queued run is cancelled at once, a running
 * one stops its calls and cancels the steps not started (within about a second when its worker is
 * another process). Cancelling a run that already ended changes nothing.
 */
import { getPrisma } from '@/lib/db/client';
import { getRun } from '@/lib/db/runs';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { cancelRun } from '@/lib/queue/app';
import { FINAL_RUN_STATUSES } from '@/lib/run/types';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { requireOwnedRun, toRunJson } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ runId: string }> };

export const POST = withErrors(async (request: Request, context: Context) => {
  const { runId } = await context.params;
  assertSameOrigin(request);
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  const run = await requireOwnedRun(db, runId, owner, 'cancel', 'run');
  if (!FINAL_RUN_STATUSES.has(run.status)) await cancelRun(db, runId);
  return Response.json({ run: toRunJson((await getRun(db, runId))!, getRunPathRedactor(run.ownerId)) });
});
