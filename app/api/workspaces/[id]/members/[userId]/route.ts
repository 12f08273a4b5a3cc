/**
 * PATCH /api/workspaces/[id]/members/[userId] {role} — change a member's role; DELETE — remove a
 * member. Owners and admins only; a workspace always keeps at least one owner.
 */
import { getPrisma } from '@/lib/db/client';
import { countOwners, getMemberRole, removeMember } from '@/lib/db/workspaces';
import { requireWorkspaceRole } from '@/lib/http/access';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { validateRole } from '../../../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; userId: string }> };

function memberNotFound(userId: string): AppError {
  return new AppError('not_found:member', `No member "${userId}" in this workspace.`);
}

const LAST_OWNER = new AppError(
  'conflict:last_owner',
  'A workspace needs at least one owner. Make another member an owner first.',
);

export const PATCH = withErrors(async (request: Request, context: Context) => {
  const { id, userId } = await context.params;
  assertSameOrigin(request);
  const { role } = await parseJsonBody(request, validateRole);
  const { role: callerRole } = await requireWorkspaceRole(
    request,
    id,
    'manage',
    'change roles in this workspace',
  );
  const db = await getPrisma();
  const current = await getMemberRole(db, id, userId);
  if (!current) throw memberNotFound(userId);
  // Only an owner makes or unmakes owners.
  if ((role === 'owner' || current === 'owner') && callerRole !== 'owner')
    throw new AppError('forbidden:role', 'Only an owner can make or unmake owners.');
  if (current === 'owner' && role !== 'owner' && (await countOwners(db, id)) <= 1) throw LAST_OWNER;
  await db.member.update({ where: { workspaceId_userId: { workspaceId: id, userId } }, data: { role } });
  return Response.json({ member: { userId, role } });
});

export const DELETE = withErrors(async (request: Request, context: Context) => {
  const { id, userId } = await context.params;
  assertSameOrigin(request);
  const { role: callerRole } = await requireWorkspaceRole(
    request,
    id,
    'manage',
    'remove members of this workspace',
  );
  const db = await getPrisma();
  const current = await getMemberRole(db, id, userId);
  if (!current) throw memberNotFound(userId);
  if (current === 'owner' && callerRole !== 'owner')
    throw new AppError('forbidden:role', 'Only an owner can remove an owner.');
  if (current === 'owner' && (await countOwners(db, id)) <= 1) throw LAST_OWNER;
  await removeMember(db, id, userId);
  return new Response(null, { status: 204 });
});
