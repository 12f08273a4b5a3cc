'use client';
/**
 * The account corner of the home page: a guest sees "Sign in"; a signed-in person sees which
 * workspace they work in (and switches), its members page, and "Sign out".
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { signOut, switchWorkspace } from '@/lib/api/account';
import './account.css';

export interface AccountBarProps {
  user: { email: string } | null;
  workspaces: { id: string; name: string; role: string }[];
  current: string | null;
}

export function AccountBar({ user, workspaces, current }: AccountBarProps) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  if (!user)
    return (
      <Link href="/sign-in" data-testid="nav-sign-in">
        Sign in
      </Link>
    );

  function done(result: { ok: boolean; error?: { message: string } }) {
    setError(result.ok ? null : (result.error?.message ?? 'That did not work.'));
    return result.ok;
  }

  return (
    <span className="account-bar" data-testid="account-bar">
      <label>
        <span className="sr-only">Workspace</span>
        <select
          value={current ?? ''}
          data-testid="workspace-switcher"
          onChange={async (event) => {
            if (done(await switchWorkspace(event.target.value))) router.refresh();
          }}
        >
          {workspaces.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              {workspace.name} ({workspace.role})
            </option>
          ))}
        </select>
      </label>
      {current && (
        <Link href={`/workspaces/${encodeURIComponent(current)}`} data-testid="nav-members">
          Members
        </Link>
      )}
      <Link
        href="/account"
        className="muted account-bar__user"
        title={`${user.email}: your account, password, sessions and API tokens`}
        data-testid="account-email"
      >
        {user.email}
      </Link>
      <button
        type="button"
        className="link-btn"
        data-testid="sign-out"
        onClick={async () => {
          if (done(await signOut())) {
            router.push('/');
            router.refresh();
          }
        }}
      >
        Sign out
      </button>
      {error && (
        <span className="error-text" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
