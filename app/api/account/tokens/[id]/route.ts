/**
 * DELETE /api/account/tokens/[id] — revokes one of the signed-in account's API tokens; the next
 * request carrying it is refused 401 (docs/design.md §13.5). 404 when the account has no live
 * token with that id.
 */
import { revokeApiToken } from '@/lib/db/api-tokens';
import { getPrisma } from '@/lib/db/client';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { requireTokenManager } from '../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const DELETE = withErrors(async (request: Request, context: Context) => {
  assertSameOrigin(request);
  const { id } = await context.params;
  const userId = await requireTokenManager(request, 'revoke API tokens');
  if (!(await revokeApiToken(await getPrisma(), userId, id)))
    throw new AppError('not_found:token', `You have no live API token with id "${id}".`);
  return new Response(null, { status: 204 });
});
