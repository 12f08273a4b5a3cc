import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { listApiTokens } from '@/lib/db/api-tokens';
import { getPrisma } from '@/lib/db/client';
import { getAuth } from '@/lib/http/auth';
import { getPageAccount } from '@/lib/http/access';
import { PasswordForm, ProfileForm, SessionsList, type SessionRow } from '@/components/account/account-forms';
import { TokensManager } from '@/components/account/tokens-manager';
import '@/components/account/account.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Account' };

/** The signed-in browser's sessions (Better Auth's), without their tokens. */
async function getSessions(): Promise<SessionRow[]> {
  const { headers } = await import('next/headers');
  const requestHeaders = new Headers(await headers());
  const auth = await getAuth();
  const [sessions, current] = await Promise.all([
    auth.api.listSessions({ headers: requestHeaders }),
    auth.api.getSession({ headers: requestHeaders }),
  ]);
  return sessions
    .map((s) => ({
      id: s.id,
      current: s.id === current?.session.id,
      userAgent: s.userAgent ?? null,
      ipAddress: s.ipAddress ?? null,
      createdAt: new Date(s.createdAt).toISOString(),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.createdAt.localeCompare(a.createdAt));
}

/**
 * The account: name, password, sessions, API tokens, and the workspaces it belongs to with a way
 * to their members (docs/design.md §13). A guest has no account and is sent to sign in.
 */
export default async function AccountPage() {
  const { user, owner, workspaces } = await getPageAccount();
  if (!user) redirect('/sign-in');
  const [sessions, tokens] = await Promise.all([getSessions(), listApiTokens(await getPrisma(), user.id)]);
  return (
    <main className="page">
      <p className="muted" style={{ margin: '0 0 8px' }}>
        <Link href="/">← Workflows</Link>
      </p>
      <h1>Account</h1>
      <div className="account-grid">
        <div>
          <section className="account__section" aria-labelledby="account-profile">
            <h2 id="account-profile">Profile</h2>
            <ProfileForm name={user.name} email={user.email} />
          </section>
          <section className="account__section" aria-labelledby="account-password">
            <h2 id="account-password">Password</h2>
            <PasswordForm />
          </section>
          <section className="account__section" aria-labelledby="account-workspaces">
            <h2 id="account-workspaces">Workspaces and members</h2>
            <ul className="account__links" data-testid="account-workspaces">
              {workspaces.map((workspace) => (
                <li key={workspace.id}>
                  <Link href={`/workspaces/${encodeURIComponent(workspace.id)}`}>{workspace.name}</Link>{' '}
                  <span className="muted">your role: {workspace.role}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
        <div>
          <section className="account__section" aria-labelledby="account-sessions">
            <h2 id="account-sessions">Sessions</h2>
            <SessionsList sessions={sessions} />
          </section>
          <section className="account__section" aria-labelledby="account-tokens">
            <h2 id="account-tokens">API tokens</h2>
            <TokensManager
              tokens={tokens.map((t) => ({
                ...t,
                createdAt: t.createdAt.toISOString(),
                lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
                expiresAt: t.expiresAt?.toISOString() ?? null,
              }))}
              workspaces={workspaces}
              current={owner?.id ?? null}
            />
          </section>
        </div>
      </div>
    </main>
  );
}
