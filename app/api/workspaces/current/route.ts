/**
 * PUT /api/workspaces/current {id} — the workspace this browser's account works in from now on
 * (an httpOnly cookie that lib/http/access.ts reads, checking membership on every request).
 */
import { getPrisma } from '@/lib/db/client';
import { getMemberRole } from '@/lib/db/workspaces';
import { getRequestOwner, requireSignedIn, WORKSPACE_COOKIE } from '@/lib/http/access';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { isSecureRequest } from '@/lib/http/owner';
import { validateCurrentWorkspace } from '../schema';

export const dynamic = 'force-dynamic';

export const PUT = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const { id } = await parseJsonBody(request, validateCurrentWorkspace);
  const owner = await getRequestOwner(request);
  const userId = requireSignedIn(owner, 'switch workspaces');
  const role = await getMemberRole(await getPrisma(), id, userId);
  if (!role) throw new AppError('not_found:workspace', `No workspace with id "${id}" that you belong to.`);
  const cookie = [
    `${WORKSPACE_COOKIE}=${encodeURIComponent(id)}`,
    'Path=/',
    `Max-Age=${400 * 24 * 60 * 60}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(isSecureRequest(request) ? ['Secure'] : []),
  ].join('; ');
  return Response.json({ current: id, role }, { headers: { 'set-cookie': cookie } });
});
