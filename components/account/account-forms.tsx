'use client';
/**
 * The account page's own forms (Better Auth's endpoints under /api/auth): the name, the password,
 * and the signed-in sessions, with "sign out everywhere else" asked first.
 */
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { changePassword, revokeOtherSessions, updateProfile } from '@/lib/api/account';
import type { ApiResult } from '@/lib/api/client';
import { ConfirmButton } from '@/components/ui/confirm';
import './account.css';

/** A form's outcome line: what went wrong (an alert), or what was done (a status). */
function Outcome({ state, testId }: { state: { ok: boolean; text: string } | null; testId: string }) {
  if (!state) return null;
  return state.ok ? (
    <p className="muted account__note" role="status" data-testid={`${testId}-done`}>
      {state.text}
    </p>
  ) : (
    <p className="error-text account__note" role="alert" data-testid={`${testId}-error`}>
      {state.text}
    </p>
  );
}

function useOutcome() {
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null);
  const report = (result: ApiResult<unknown>, done: string) => {
    setState(result.ok ? { ok: true, text: done } : { ok: false, text: result.error.message });
    return result.ok;
  };
  return [state, report] as const;
}

export function ProfileForm({ name, email }: { name: string; email: string }) {
  const router = useRouter();
  const [state, report] = useOutcome();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    if (report(await updateProfile({ name: value }), 'Saved.')) router.refresh();
  }
  return (
    <form className="account__form" onSubmit={onSubmit} data-testid="profile-form">
      <p className="muted account__note">
        Signed in as <strong data-testid="account-page-email">{email}</strong>
      </p>
      <label>
        Name
        <input name="name" defaultValue={name} required maxLength={80} data-testid="profile-name" />
      </label>
      <button type="submit" className="btn" data-testid="profile-save">
        Save name
      </button>
      <Outcome state={state} testId="profile" />
    </form>
  );
}

export function PasswordForm() {
  const [state, report] = useOutcome();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const result = await changePassword({
      currentPassword: String(form.get('current') ?? ''),
      newPassword: String(form.get('next') ?? ''),
      revokeOtherSessions: form.get('others') === 'on',
    });
    if (report(result, 'Password changed.')) formElement.reset();
  }
  return (
    <form className="account__form" onSubmit={onSubmit} data-testid="password-form">
      <label>
        Current password
        <input
          name="current"
          type="password"
          autoComplete="current-password"
          required
          data-testid="password-current"
        />
      </label>
      <label>
        New password
        <input
          name="next"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={256}
          data-testid="password-new"
        />
      </label>
      <label className="account__check">
        <input name="others" type="checkbox" defaultChecked data-testid="password-others" />
        Sign out my other sessions
      </label>
      <button type="submit" className="btn" data-testid="password-save">
        Change password
      </button>
      <Outcome state={state} testId="password" />
    </form>
  );
}

export interface SessionRow {
  id: string;
  current: boolean;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
}

/** A user agent in a few words: the browser and the system it names. */
function describeAgent(agent: string | null): string {
  if (!agent) return 'Unknown client';
  const browser = /(Edg|Firefox|Chrome|Safari|curl|node)\/[\d.]+/.exec(agent)?.[1] ?? 'Browser';
  const system = /(Windows|Mac OS X|Android|iPhone|Linux)/.exec(agent)?.[1] ?? '';
  return system ? `${browser} on ${system.replace('Mac OS X', 'macOS')}` : browser;
}

export function SessionsList({ sessions }: { sessions: SessionRow[] }) {
  const router = useRouter();
  const [state, report] = useOutcome();
  const others = sessions.filter((s) => !s.current).length;
  return (
    <>
      <ul className="list" data-testid="session-list">
        {sessions.map((session) => (
          <li key={session.id} className="card" data-testid="session">
            <span className="members__name">
              <strong>{describeAgent(session.userAgent)}</strong>{' '}
              <span className="muted">
                {session.ipAddress ? `${session.ipAddress}, ` : ''}since{' '}
                {new Date(session.createdAt).toLocaleString('en-GB', {
                  dateStyle: 'medium',
                  timeStyle: 'short',
                })}
              </span>
            </span>
            {session.current && <span className="muted">this browser</span>}
          </li>
        ))}
      </ul>
      <ConfirmButton
        className="btn"
        disabled={others === 0}
        data-testid="sessions-revoke-others"
        confirm={{
          title: 'Sign out your other sessions?',
          description: `Every other browser signed in to this account (${others}) is signed out at its next request. This browser stays signed in.`,
          confirmLabel: 'Sign out others',
        }}
        onConfirm={async () => {
          if (report(await revokeOtherSessions(), 'Other sessions signed out.')) router.refresh();
        }}
      >
        Sign out other sessions
      </ConfirmButton>
      <Outcome state={state} testId="sessions" />
    </>
  );
}
