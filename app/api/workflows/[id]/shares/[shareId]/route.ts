/** DELETE /api/workflows/[id]/shares/[shareId] — revoke a link; it answers 404 from then on. */
import { revokeShare } from '@/lib/db/shares';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { requireOwnedWorkflow } from '../../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; shareId: string }> };

export const DELETE = withErrors(async (request: Request, context: Context) => {
  const { id, shareId } = await context.params;
  assertSameOrigin(request);
  const { db } = await requireOwnedWorkflow(request, id, 'revoke links of', 'share');
  if (!(await revokeShare(db, id, shareId)))
    throw new AppError('not_found:share', `Workflow "${id}" has no share link "${shareId}".`);
  return new Response(null, { status: 204 });
});
