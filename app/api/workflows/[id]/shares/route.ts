/**
 * GET /api/workflows/[id]/shares — live links and the secret-scan findings for the document;
 * POST — create a link `{expiresInDays?, acknowledgeSecrets?, role?}`: "can view" (role `viewer`, the
 * default: the read-only page) or "can edit" (`editor`: holders sign in and edit this workflow;
 * docs/design.md §13.4). Either needs the `share` action, editor or better in the workspace. When a parameter value
 * looks like a secret, the first POST gets 422 naming the fields; the client shows them and
 * repeats with `acknowledgeSecrets: true` once the owner confirms. The token is in the response
 * only: just its SHA-256 is stored.
 */
import type { CreateShareResponse, SecretsBody, ShareListResponse } from '@/lib/api/types';
import { createShare, listShares } from '@/lib/db/shares';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { describeSecretFindings, findSecrets } from '@/lib/workflow/secrets';
import { loadOwnedWorkflow } from '../../access';
import { validateCreateShare } from '../../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

const shareCreations = createRateLimiter({ name: 'share-creations', limit: 30, windowMs: 60_000 });

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const { db, workflow } = await loadOwnedWorkflow(request, id, 'see the share links of', 'share');
  const now = new Date();
  const shares = (await listShares(db, id)).map((s) => ({
    ...s,
    expired: s.expiresAt !== null && s.expiresAt <= now,
  }));
  return Response.json({ shares, secrets: findSecrets(workflow.document) } satisfies ShareListResponse);
});

export const POST = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validateCreateShare);
  const { db, owner, workflow } = await loadOwnedWorkflow(request, id, 'share', 'share');
  await enforceRateLimit(shareCreations, getRateLimitKey(request, owner), 'share links');
  const secrets = findSecrets(workflow.document);
  if (secrets.length && !body.acknowledgeSecrets) {
    throw new AppError(
      'unprocessable:secrets',
      `This workflow has values that look like secrets, and anyone with the link would see them: ${describeSecretFindings(secrets)}. Remove them, or confirm to share anyway.`,
      { details: { secrets } satisfies Pick<SecretsBody, 'secrets'> },
    );
  }
  const expiresAt = body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86_400_000) : null;
  const { token, share } = await createShare(db, id, { expiresAt, role: body.role ?? 'viewer' });
  return Response.json({ share, token, path: `/s/${token}`, secrets } satisfies CreateShareResponse, {
    status: 201,
  });
});
