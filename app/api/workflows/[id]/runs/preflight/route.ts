/**
 * GET /api/workflows/[id]/runs/preflight?version=N — what a test-run of a saved version (the
 * current one without `version`) would do, before anything is called: the tools and servers it
 * calls, and which nodes cannot run and why. Nothing is started; the servers are only looked up
 * in this server's configuration (and an HTTP one through the URL guard).
 */
import type { PreflightJson } from '@/lib/api/types';
import { withErrors } from '@/lib/http/errors';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { getPreparedPreflight, prepareRun } from '@/lib/queue/runs';
import { loadOwnedWorkflow, parseVersion } from '../../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const raw = new URL(request.url).searchParams.get('version');
  const version = raw === null ? undefined : parseVersion(raw, 'version');
  const { db, workflow, owner } = await loadOwnedWorkflow(request, id, 'run', 'run');
  const prepared = await prepareRun(db, workflow, version ?? workflow.version, owner);
  const preflight = getRunPathRedactor(owner.id).json(getPreparedPreflight(prepared));
  return Response.json({ preflight } satisfies { preflight: PreflightJson });
});
