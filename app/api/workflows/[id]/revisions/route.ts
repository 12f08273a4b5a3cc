/** GET /api/workflows/[id]/revisions — saved versions, newest first (`?before=<version>&limit=`). */
import type { RevisionListResponse } from '@/lib/api/types';
import { listRevisions } from '@/lib/db/revisions';
import { REVISION_LIMIT } from '@/lib/db/workflows';
import { AppError, withErrors } from '@/lib/http/errors';
import { requireOwnedWorkflow } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

function readPositiveInt(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new AppError(
      `bad_request:${name}`,
      `Query parameter "${name}" must be a positive integer, not "${raw}".`,
    );
  return n;
}

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const url = new URL(request.url);
  const before = readPositiveInt(url, 'before');
  const limit = Math.min(readPositiveInt(url, 'limit') ?? 100, 500);
  const { db } = await requireOwnedWorkflow(request, id, 'see the history of', 'read', { link: true });
  const revisions = await listRevisions(db, id, { before, limit });
  return Response.json({ revisions, retention: REVISION_LIMIT } satisfies RevisionListResponse);
});
