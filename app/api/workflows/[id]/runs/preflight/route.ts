/**
 * GET /api/workflows/[id]/runs/preflight?version=N — what a test-run of a saved version would do,
 * before anything is called: the tools and servers it calls, and which nodes cannot run and why.
 * Nothing is started; the servers are only looked up in this server's configuration.
 */
import { withErrors } from '@/lib/http/errors';
import { parseVersion, requireOwnedWorkflow } from '../../../access';
import { prepareRun, toPreflightJson } from '../../../../runs/access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const raw = new URL(request.url).searchParams.get('version');
  const version = raw === null ? undefined : parseVersion(raw, 'version');
  const { db, owner } = await requireOwnedWorkflow(request, id, 'run');
  const prepared = await prepareRun(db, id, version, owner);
  return Response.json({ preflight: toPreflightJson(prepared) });
});
