/**
 * POST /api/shares/[token]/accept — a signed-in account takes up a live "can edit" link: from now
 * on it may open and save that one workflow, at /w/<workflowId>, for as long as the link is live
 * (docs/design.md §13.4). 401 without an account, 404 for a link that is not live (unknown,
 * revoked and expired alike), 403 for a "can view" link.
 */
import type { AcceptShareResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { grantShare } from '@/lib/db/shares';
import { getRequestOwner, requireSignedIn } from '@/lib/http/access';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { requireSharedWorkflow, SHARE_HEADERS } from '../../shared';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

export const POST = withErrors(async (request: Request, context: Context) => {
  const { token } = await context.params;
  assertSameOrigin(request);
  const userId = requireSignedIn(await getRequestOwner(request), 'edit through a share link');
  const db = await getPrisma();
  const { share } = await requireSharedWorkflow(db, token);
  if (share.role !== 'editor')
    throw new AppError(
      'forbidden:share_role',
      'This link lets you view the workflow, not edit it. Ask its owner for a "can edit" link.',
    );
  await grantShare(db, share.id, userId);
  return Response.json({ workflowId: share.workflowId } satisfies AcceptShareResponse, {
    headers: SHARE_HEADERS,
  });
});
