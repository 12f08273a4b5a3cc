/**
 * GET /api/workflows/[id]/runs — past test-runs of the workflow, newest first.
 * POST /api/workflows/[id]/runs — `{version}`: run that saved version. The request stores the run
 * (the export exactly as downloaded, its hash, one queued row per node) and puts it on the job
 * queue; a worker executes it. 201 with the run; 422 when no node can run.
 */
import { createRun, finishRun, listRuns, setRunJob } from '@/lib/db/runs';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { enqueueRun } from '@/lib/queue/app';
import { getRunLimits } from '@/lib/run/limits';
import { requireOwnedWorkflow } from '../../access';
import { prepareRun, toPreflightJson, toRunJson } from '../../../runs/access';
import { validateCreateRun } from './schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

// A run starts processes and calls tools with side effects: keep a runaway script in check.
const runs = createRateLimiter({ name: 'test-runs', limit: 30, windowMs: 60_000 });

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const { db } = await requireOwnedWorkflow(request, id, 'see the runs of');
  const list = await listRuns(db, id, { limit: 100 });
  return Response.json({ runs: list.map(toRunJson) });
});

export const POST = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateCreateRun);
  const { db, owner } = await requireOwnedWorkflow(request, id, 'run');
  await enforceRateLimit(runs, getRateLimitKey(request, owner), 'test-runs');
  const prepared = await prepareRun(db, id, body.version, owner);
  if (prepared.plan.nodes.every((n) => n.blocked)) {
    throw new AppError(
      'unprocessable:nothing_to_run',
      prepared.plan.nodes.length === 0
        ? 'The workflow has no steps to run.'
        : 'No step of this version can run; the pre-flight list says why for each.',
      { details: { preflight: toPreflightJson(prepared) } },
    );
  }
  const run = await createRun(db, {
    workflowId: id,
    ownerId: owner.id,
    version: prepared.version,
    exportText: prepared.exportText,
    exportHash: prepared.exportHash,
    limits: getRunLimits(process.env),
    nodes: prepared.plan.nodes,
  });
  try {
    await setRunJob(db, run.id, await enqueueRun(db, run.id));
  } catch (error) {
    console.error(`Could not queue run ${run.id}:`, error);
    await finishRun(
      db,
      run.id,
      'failed',
      {
        code: 'queue_unavailable',
        message: 'The run could not be put on the job queue; try again.',
      },
      ['queued'],
    ).catch(() => {});
    throw new AppError('unavailable:queue', 'The run could not be put on the job queue; try again.', {
      cause: error,
    });
  }
  return withOwnerCookie(
    Response.json(
      { run: toRunJson(run), preflight: toPreflightJson(prepared) },
      { status: 201, headers: { location: `/api/runs/${run.id}` } },
    ),
    owner,
    request,
  );
});
