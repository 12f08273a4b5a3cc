/**
 * GET /api/workspaces/[id]/members — its members and waiting invitations (any member);
 * POST {email, role} — invite by e-mail (owners and admins). The answer is the same whether or
 * not the address has an account (lib/db/workspaces.ts inviteMember).
 */
import { getPrisma } from '@/lib/db/client';
import { inviteMember, listMembers } from '@/lib/db/workspaces';
import { requireWorkspaceRole } from '@/lib/http/access';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { createRateLimiter, enforceRateLimit } from '@/lib/http/rate-limit';
import { validateInvite } from '../../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

const invitations = createRateLimiter({ name: 'invitations', limit: 60, windowMs: 60_000 });

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const { role } = await requireWorkspaceRole(request, id, 'read', 'see the members of this workspace');
  const db = await getPrisma();
  const workspace = await db.owner.findUnique({ where: { id }, select: { name: true, kind: true } });
  return Response.json({ workspace: { id, ...workspace, role }, ...(await listMembers(db, id)) });
});

export const POST = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const { email, role } = await parseJsonBody(request, validateInvite);
  const { userId } = await requireWorkspaceRole(request, id, 'manage', 'invite members to this workspace');
  await enforceRateLimit(invitations, `user:${userId}`, 'invitations');
  const db = await getPrisma();
  const workspace = await db.owner.findUnique({ where: { id }, select: { kind: true } });
  if (workspace?.kind === 'personal')
    throw new AppError(
      'bad_request:workspace',
      'A personal workspace is yours alone. Create a shared workspace and invite members there.',
    );
  await inviteMember(db, id, email, role, userId);
  return Response.json({ invited: { email: email.trim().toLowerCase(), role } }, { status: 201 });
});
