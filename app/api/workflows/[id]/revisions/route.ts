/** GET /api/workflows/[id]/revisions — saved versions, newest first (`?before=<version>&limit=`). */
import type { RevisionListResponse } from '@/lib/api/types';
import { getHistoryPage } from '@/lib/db/revisions';
import { REVISION_LIMIT } from '@/lib/db/workflows';
import { AppError, withErrors } from '@/lib/http/errors';
import { openOwnedWorkflow } from '../../access';

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
  // Access and the page in one round trip; the page is answered only once access is allowed.
  const { workflow } = await openOwnedWorkflow(
    request,
    id,
    'see the history of',
    'read',
    (db, id) => getHistoryPage(db, id, { before, limit }),
    { link: true },
  );
  const { revisions } = workflow;
  return Response.json({ revisions, retention: REVISION_LIMIT } satisfies RevisionListResponse);
});
