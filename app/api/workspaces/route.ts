/**
 * GET /api/workspaces — the workspaces the caller can work in and the one it works in now; a
 * guest has exactly one, its browser's. POST /api/workspaces — a new shared workspace, its
 * creator its owner (signed-in accounts only).
 */
import { getPrisma } from '@/lib/db/client';
import { createTeamWorkspace, listWorkspaces } from '@/lib/db/workspaces';
import { parseJsonBody } from '@/lib/http/body';
import { getRequestOwner, requireSignedIn } from '@/lib/http/access';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { validateCreateWorkspace } from './schema';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';

export const dynamic = 'force-dynamic';

const creations = createRateLimiter({ name: 'workspace-creations', limit: 20, windowMs: 60_000 });

export const GET = withErrors(async (request: Request) => {
  const owner = await getRequestOwner(request);
  const workspaces = owner.userId
    ? await listWorkspaces(await getPrisma(), owner.userId)
    : [{ id: owner.id, name: 'This browser', kind: 'anonymous', role: 'owner' as const }];
  return withOwnerCookie(
    Response.json({ workspaces, current: owner.id, signedIn: owner.userId !== null }),
    owner,
    request,
  );
});

export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const name = (await parseJsonBody(request, validateCreateWorkspace)).name.trim();
  const owner = await getRequestOwner(request);
  const userId = requireSignedIn(owner, 'create a shared workspace');
  await enforceRateLimit(creations, getRateLimitKey(request, owner), 'new workspaces');
  const workspace = await createTeamWorkspace(await getPrisma(), userId, name);
  return Response.json({ workspace }, { status: 201 });
});
