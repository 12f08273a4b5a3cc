/**
 * GET /api/account/tokens — the signed-in account's live API tokens (never their secrets).
 * POST /api/account/tokens — `{name, workspaceId, expiresInDays?}`: a new token acting in that
 * workspace (one the account belongs to) with the account's role there; 201 with the secret,
 * which is shown this once (docs/design.md §13.5).
 */
import { createApiToken, listApiTokens } from '@/lib/db/api-tokens';
import { getPrisma } from '@/lib/db/client';
import { getMemberRole } from '@/lib/db/workspaces';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { createRateLimiter, enforceRateLimit } from '@/lib/http/rate-limit';
import { requireTokenManager } from './access';
import { validateCreateToken } from './schema';

export const dynamic = 'force-dynamic';

const creations = createRateLimiter({ name: 'api-tokens', limit: 20, windowMs: 60_000 });

export const GET = withErrors(async (request: Request) => {
  const userId = await requireTokenManager(request, 'list API tokens');
  return Response.json({ tokens: await listApiTokens(await getPrisma(), userId) });
});

export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateCreateToken);
  const userId = await requireTokenManager(request, 'make API tokens');
  await enforceRateLimit(creations, `user:${userId}`, 'new API tokens');
  const db = await getPrisma();
  if (!(await getMemberRole(db, body.workspaceId, userId)))
    throw new AppError(
      'not_found:workspace',
      `No workspace with id "${body.workspaceId}" that you belong to. A token acts in one of your workspaces.`,
    );
  const expiresAt = body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86_400_000) : null;
  const made = await createApiToken(db, {
    userId,
    workspaceId: body.workspaceId,
    name: body.name.trim(),
    expiresAt,
  });
  return Response.json(made, { status: 201 });
});
