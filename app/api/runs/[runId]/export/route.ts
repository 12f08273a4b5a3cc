/**
 * GET /api/runs/[runId]/export — the file that ran, byte for byte; its SHA-256 is the run's
 * `exportHash` (also sent as `x-toolflow-export-hash`).
 */
import { getPrisma } from '@/lib/db/client';
import { getRunExport } from '@/lib/db/runs';
import { withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { requireOwnedRun } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ runId: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { runId } = await context.params;
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  await requireOwnedRun(db, runId, owner, 'download');
  const { exportText, exportHash } = (await getRunExport(db, runId))!;
  return new Response(exportText, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="run-${runId}.toolflow.json"`,
      'x-toolflow-export-hash': exportHash,
    },
  });
});
