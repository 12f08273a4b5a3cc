import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { getPrisma } from '@/lib/db/client';
import { getMemberRole, listMembers } from '@/lib/db/workspaces';
import { getPageAccount } from '@/lib/http/access';
import { MembersManager } from '@/components/account/members-manager';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Members' };

type Props = { params: Promise<{ id: string }> };

/** A workspace's members (any member sees them; owners and admins manage them). */
export default async function MembersPage({ params }: Props) {
  const { id } = await params;
  const { user } = await getPageAccount();
  if (!user) redirect('/sign-in');
  const db = await getPrisma();
  const role = await getMemberRole(db, id, user.id);
  // Another workspace is not found, whether or not it exists.
  if (!role) notFound();
  const [workspace, { members, invitations }] = await Promise.all([
    db.owner.findUnique({ where: { id }, select: { name: true, kind: true } }),
    listMembers(db, id),
  ]);
  return (
    <main className="page">
      <p className="muted" style={{ margin: '0 0 8px' }}>
        <Link href="/">← Workflows</Link>
      </p>
      <h1 data-testid="workspace-name">{workspace?.name || 'Workspace'}</h1>
      <p className="muted" style={{ margin: 0 }}>
        Your role here: <span data-testid="my-role">{role}</span>. Owners manage members and delete; editors
        edit, run and share; viewers read and export.
      </p>
      <MembersManager
        workspace={{ id, name: workspace?.name ?? '', kind: workspace?.kind ?? 'team', role }}
        members={members}
        invitations={invitations}
        me={user.id}
      />
    </main>
  );
}
