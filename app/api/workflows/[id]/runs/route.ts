/**
 * GET /api/workflows/[id]/runs — past test-runs of the workflow, newest first.
 * POST /api/workflows/[id]/runs — `{version}` (required: the version whose pre-flight list the
 * person confirmed): run that saved version. The request stores the run (the export exactly as
 * downloaded, its hash, its plan, one queued row per node) and puts it on the job queue; a worker
 * executes it (lib/queue/runs.ts). 201 with the run; 422 when no node can run.
 */
import type { PreflightJson } from '@/lib/api/types';
import { listRuns } from '@/lib/db/runs';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { assertRunCapacity, getPreparedPreflight, prepareRun, startRun } from '@/lib/queue/runs';
import { getRunLimits, getWorkspaceActiveRunCap } from '@/lib/run/limits';
import { loadOwnedWorkflow, requireOwnedWorkflow } from '../../access';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { toRunJson } from '../../../runs/access';
import { validateCreateRun } from './schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

// A run starts processes and calls tools with side effects: keep a runaway script in check. Both
// budgets are the workspace's (docs/design.md §13.6): so many new runs a minute, and so many
// queued or running at once.
const runs = createRateLimiter({ name: 'test-runs', limit: 30, windowMs: 60_000 });

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const { db, owner } = await requireOwnedWorkflow(request, id, 'see the runs of', 'read');
  const list = await listRuns(db, id, { limit: 100 });
  const paths = getRunPathRedactor(owner.id);
  return Response.json({ runs: list.map((run) => toRunJson(run, paths)) });
});

export const POST = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateCreateRun);
  const { db, owner, workflow } = await loadOwnedWorkflow(request, id, 'run', 'run');
  await enforceRateLimit(runs, getRateLimitKey(request, owner), 'test-runs');
  await assertRunCapacity(db, owner.id, getWorkspaceActiveRunCap(process.env));
  const prepared = await prepareRun(db, workflow, body.version, owner);
  const run = await startRun(db, prepared, { ownerId: owner.id, limits: getRunLimits(process.env) });
  const paths = getRunPathRedactor(owner.id);
  return withOwnerCookie(
    Response.json(
      {
        run: toRunJson(run, paths),
        preflight: paths.json(getPreparedPreflight(prepared)) satisfies PreflightJson,
      },
      { status: 201, headers: { location: `/api/runs/${run.id}` } },
    ),
    owner,
    request,
  );
});
