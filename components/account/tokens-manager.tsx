'use client';
/**
 * The account's API tokens (docs/design.md §13.5): make one for a workspace — its secret is shown
 * this once, with a copy button —, see the live ones, and revoke one after a question.
 */
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { createApiToken, revokeApiToken, type ApiTokenJson } from '@/lib/api/account';
import { ConfirmButton } from '@/components/ui/confirm';
import './account.css';

export interface TokensManagerProps {
  tokens: ApiTokenJson[];
  workspaces: { id: string; name: string; role: string }[];
  /** The workspace the browser works in now: the form's first choice. */
  current: string | null;
}

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' });

export function TokensManager({ tokens, workspaces, current }: TokensManagerProps) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<{ name: string; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const days = Number(form.get('expires'));
    setError(null);
    setCopied(false);
    const result = await createApiToken({
      name: String(form.get('name') ?? '').trim(),
      workspaceId: String(form.get('workspace') ?? ''),
      ...(days > 0 ? { expiresInDays: days } : {}),
    });
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setMade({ name: result.value.token.name, secret: result.value.secret });
    formElement.reset();
    router.refresh();
  }

  async function copy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setError('The browser did not allow copying: select the token and copy it yourself.');
    }
  }

  return (
    <>
      {made && (
        <div className="account__secret" role="status" data-testid="token-secret-box">
          <p className="account__note">
            <strong>{made.name}</strong>: copy this token now. It is shown only this once; Toolflow keeps only
            a fingerprint of it.
          </p>
          <div className="account__secret-row">
            <code data-testid="token-secret">{made.secret}</code>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => copy(made.secret)}
              data-testid="token-copy"
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
          <p className="muted account__note">
            Use it as <code>TOOLFLOW_TOKEN</code> for <code>toolflow push</code> and{' '}
            <code>toolflow pull</code>, or send it as <code>Authorization: Bearer …</code>.
          </p>
        </div>
      )}
      {tokens.length === 0 ? (
        <p className="muted account__note" data-testid="tokens-empty">
          No API tokens yet.
        </p>
      ) : (
        <ul className="list" data-testid="token-list">
          {tokens.map((token) => (
            <li key={token.id} className="card" data-testid="token">
              <span className="members__name">
                <strong>{token.name}</strong> <code className="muted">{token.start}…</code>{' '}
                <span className="muted">
                  in {token.workspaceName || 'a workspace'}, made {day(token.createdAt)}
                  {token.lastUsedAt ? `, last used ${day(token.lastUsedAt)}` : ', never used'}
                  {token.expiresAt ? `, expires ${day(token.expiresAt)}` : ''}
                </span>
              </span>
              <ConfirmButton
                className="btn btn-small btn-danger"
                data-testid="token-revoke"
                confirm={{
                  title: `Revoke the token “${token.name}”?`,
                  description:
                    'Scripts and the CLI using it are refused from their next request. This cannot be undone; make a new token to replace it.',
                  confirmLabel: 'Revoke token',
                }}
                onConfirm={async () => {
                  const result = await revokeApiToken(token.id);
                  if (!result.ok) setError(result.error.message);
                  else {
                    if (made) setMade(null);
                    router.refresh();
                  }
                }}
              >
                Revoke
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <form className="members__invite" onSubmit={onCreate} data-testid="token-form">
        <label>
          Token name
          <input name="name" required maxLength={80} placeholder="CI, laptop…" data-testid="token-name" />
        </label>
        <label>
          Workspace
          <select name="workspace" defaultValue={current ?? workspaces[0]?.id} data-testid="token-workspace">
            {workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name} ({workspace.role})
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires
          <select name="expires" defaultValue="90" data-testid="token-expires">
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
            <option value="0">never</option>
          </select>
        </label>
        <button type="submit" className="btn btn-primary" data-testid="token-create">
          Make token
        </button>
      </form>
      {error && (
        <p className="error-text" role="alert" data-testid="tokens-error">
          {error}
        </p>
      )}
    </>
  );
}
