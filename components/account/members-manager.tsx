'use client';
/**
 * A workspace's members: who has which role, the invitations waiting for an address, and, for
 * owners and admins, inviting by e-mail, changing roles and removing members. Also makes a new
 * shared workspace and switches to it.
 */
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import {
  createWorkspace,
  inviteMember,
  removeMember,
  setMemberRole,
  switchWorkspace,
} from '@/lib/api/account';
import type { ApiResult } from '@/lib/api/client';
import './account.css';

const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;

export interface MembersManagerProps {
  workspace: { id: string; name: string; kind: string; role: string };
  members: { userId: string; email: string; name: string; role: string }[];
  invitations: { email: string; role: string }[];
  me: string;
}

export function MembersManager({ workspace, members, invitations, me }: MembersManagerProps) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const canManage = workspace.role === 'owner' || workspace.role === 'admin';

  async function act(call: Promise<ApiResult<unknown>>) {
    setError(null);
    const result = await call;
    if (!result.ok) setError(result.error.message);
    else router.refresh();
    return result.ok;
  }

  async function onInvite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    if (
      await act(
        inviteMember(workspace.id, { email: String(form.get('email')), role: String(form.get('role')) }),
      )
    )
      formElement.reset();
  }

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '');
    setError(null);
    const made = await createWorkspace(name);
    if (!made.ok) {
      setError(made.error.message);
      return;
    }
    const json = made.value;
    await switchWorkspace(json.workspace.id);
    router.push(`/workspaces/${encodeURIComponent(json.workspace.id)}`);
    router.refresh();
  }

  return (
    <>
      <ul className="list" data-testid="member-list">
        {members.map((member) => (
          <li key={member.userId} className="card" data-testid="member">
            <span className="members__name">
              <strong>{member.name || member.email}</strong> <span className="muted">{member.email}</span>
            </span>
            {canManage && member.userId !== me ? (
              <span style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                <select
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  data-testid="member-role"
                  onChange={(event) => act(setMemberRole(workspace.id, member.userId, event.target.value))}
                >
                  {ROLES.map((role) => (
                    <option key={role}>{role}</option>
                  ))}
                </select>
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  data-testid="member-remove"
                  onClick={() => act(removeMember(workspace.id, member.userId))}
                >
                  Remove
                </button>
              </span>
            ) : (
              <span className="muted" data-testid="member-role-text">
                {member.role}
              </span>
            )}
          </li>
        ))}
        {invitations.map((invitation) => (
          <li key={invitation.email} className="card" data-testid="invitation">
            <span className="members__name">
              {invitation.email} <span className="muted">invited, not signed up yet</span>
            </span>
            <span className="muted">{invitation.role}</span>
          </li>
        ))}
      </ul>
      {canManage && workspace.kind !== 'personal' && (
        <form className="members__invite" onSubmit={onInvite} data-testid="invite-form">
          <label>
            Invite by e-mail
            <input name="email" type="email" required data-testid="invite-email" />
          </label>
          <label>
            Role
            <select name="role" defaultValue="editor" data-testid="invite-role">
              {ROLES.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn btn-primary" data-testid="invite-submit">
            Invite
          </button>
        </form>
      )}
      {workspace.kind === 'personal' && (
        <p className="muted">
          Your personal workspace is yours alone. To work with others, make a shared one.
        </p>
      )}
      {error && (
        <p className="error-text" role="alert" data-testid="members-error">
          {error}
        </p>
      )}
      <form className="members__invite" onSubmit={onCreate} data-testid="create-workspace-form">
        <label>
          New shared workspace
          <input name="name" required maxLength={80} data-testid="new-workspace-name" />
        </label>
        <button type="submit" className="btn" data-testid="create-workspace">
          Create
        </button>
      </form>
    </>
  );
}
