'use client';
import { useEffect, useState } from 'react';
import { useEditorStore } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';
import { createShare, listShares, revokeShare } from '@/lib/api/workflows';
import type { Jsonified, ShareListResponse } from '@/lib/api/types';
import type { SecretFinding } from '@/lib/workflow/secrets';
import { Modal } from '@/components/ui/dialog';
import { ConfirmButton } from '@/components/ui/confirm';
import { formatWhen } from './format-when';

type ShareSummary = Jsonified<ShareListResponse>['shares'][number];

/** What a link lets its holder do (docs/design.md §13.4). */
const ROLE_CHOICES = [
  { role: 'viewer', label: 'Can view' },
  { role: 'editor', label: 'Can edit' },
] as const;
type LinkRole = (typeof ROLE_CHOICES)[number]['role'];

const EXPIRY_CHOICES = [
  { label: 'Never', days: null },
  { label: '1 day', days: 1 },
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
] as const;

const selectId = (s: EditorState) => s.meta.id;
const selectSaveState = (s: EditorState) => s.saveState;

function describeFinding(f: SecretFinding): string {
  return f.kind.startsWith('value of')
    ? 'holds a credential-like value'
    : `looks like ${/^[aeiou]/i.test(f.kind) ? 'an' : 'a'} ${f.kind}`;
}

/** The values that look like secrets, and the owner's confirmation that they may be shared. */
function SecretsWarning(props: {
  secrets: SecretFinding[];
  acknowledged: boolean;
  onAcknowledge: (acknowledged: boolean) => void;
}) {
  return (
    <div className="share__secrets" role="alert" data-testid="share-secrets">
      <strong>These values look like secrets, and anyone with the link would see them:</strong>
      <ul>
        {props.secrets.map((f) => (
          <li key={`${f.nodeId}.${f.field}`} data-testid="share-secret">
            <code>
              {f.nodeId}.{f.field}
            </code>{' '}
            ({f.tool}) {describeFinding(f)}
          </li>
        ))}
      </ul>
      <p>Remove them from the workflow first, or confirm that they are safe to share.</p>
      <label className="share__confirm">
        <input
          type="checkbox"
          checked={props.acknowledged}
          onChange={(e) => props.onAcknowledge(e.target.checked)}
          data-testid="share-acknowledge"
        />{' '}
        I checked these values; share anyway
      </label>
    </div>
  );
}

/** The link just made, shown once to copy (only a fingerprint of it is stored). */
function CreatedLink({ url, copied, onCopy }: { url: string; copied: boolean; onCopy: () => void }) {
  return (
    <div className="share__created" data-testid="share-created">
      <p>Copy the link now: only a fingerprint of it is stored, so it cannot be shown again.</p>
      <div className="share__link-row">
        <input
          readOnly
          value={url}
          aria-label="The new link"
          onFocus={(e) => e.target.select()}
          data-testid="share-link"
        />
        <button type="button" className="btn" onClick={onCopy} data-testid="share-copy">
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** The links that work now, each with what it allows and a Revoke that asks first. */
function LinkList({
  shares,
  onRevoke,
}: {
  shares: ShareSummary[] | null;
  onRevoke: (shareId: string) => void;
}) {
  return (
    <ul className="share__list" data-testid="share-list">
      {shares?.map((s) => (
        <li key={s.id} data-testid="share-item">
          <span>
            {s.role === 'editor' ? 'Can edit' : 'Can view'} · created {formatWhen(s.createdAt)}
            {s.expiresAt
              ? s.expired
                ? ' · expired'
                : ` · expires ${new Date(s.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`
              : ' · never expires'}
          </span>
          <ConfirmButton
            className="btn btn-small btn-danger"
            confirm={{
              title: 'Revoke this link?',
              description:
                s.role === 'editor'
                  ? 'Everyone who edits through it loses access at once: their next save is refused. A revoked link cannot be brought back; you can create a new one.'
                  : 'Anyone who opens it from now on is told the link is not available. A revoked link cannot be brought back; you can create a new one.',
              confirmLabel: 'Revoke link',
            }}
            onConfirm={() => onRevoke(s.id)}
            data-testid="share-revoke"
          >
            Revoke
          </ConfirmButton>
        </li>
      ))}
    </ul>
  );
}

/**
 * Links to the saved workflow: "can view" (a read-only page) or "can edit" (the holder signs in
 * and edits this workflow); create one (optionally expiring), copy it once (only a hash is
 * stored), and revoke. Values that look like secrets are listed before a link is made, and the
 * owner must confirm to share them.
 */
export function ShareDialog({ onClose }: { onClose: () => void }) {
  const id = useEditorStore(selectId);
  const saveState = useEditorStore(selectSaveState);
  const [shares, setShares] = useState<ShareSummary[] | null>(null);
  const [secrets, setSecrets] = useState<SecretFinding[]>([]);
  const [acknowledged, setAcknowledged] = useState(false);
  const [expiry, setExpiry] = useState<number | null>(null);
  const [role, setRole] = useState<LinkRole>('viewer');
  // The link just made, shown once to copy; gone when that link is revoked.
  const [created, setCreated] = useState<{ url: string; shareId: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Bumped after creating or revoking a link to list again; a save lists again by itself.
  const [listed, setListed] = useState(0);
  useEffect(() => {
    let current = true;
    void listShares(id).then((res) => {
      if (!current) return;
      if (!res.ok) return setError(`Could not load the links: ${res.error.message}`);
      setShares(res.value.shares);
      setSecrets(res.value.secrets);
    });
    return () => {
      current = false;
    };
  }, [id, saveState, listed]);

  const create = async () => {
    setBusy(true);
    setError(null);
    const res = await createShare(id, { expiresInDays: expiry, acknowledgeSecrets: acknowledged, role });
    setBusy(false);
    if (!res.ok) {
      // The server scanned a newer copy than this dialog did: show what it found.
      if (res.error.code === 'unprocessable:secrets' && Array.isArray(res.error.body?.secrets))
        setSecrets(res.error.body.secrets as SecretFinding[]);
      return setError(res.error.message);
    }
    setCreated({
      url: new URL(res.value.path, window.location.origin).toString(),
      shareId: res.value.share.id,
    });
    setCopied(false);
    setAcknowledged(false);
    setListed((n) => n + 1);
  };

  const revoke = async (shareId: string) => {
    const res = await revokeShare(id, shareId);
    if (!res.ok) return setError(`Could not revoke the link: ${res.error.message}`);
    setCreated((shown) => (shown?.shareId === shareId ? null : shown));
    setListed((n) => n + 1);
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.url);
      setCopied(true);
    } catch {
      setError('The browser refused clipboard access: select the link and copy it by hand.');
    }
  };

  const needsConfirm = secrets.length > 0 && !acknowledged;
  return (
    <Modal title="Share a link" onClose={onClose} testId="share-dialog" closeTestId="share-close">
      <p className="muted" data-testid="share-explained">
        {role === 'viewer'
          ? 'Anyone with the link sees the last saved version on a read-only canvas, can download its JSON and fork a copy of their own. They cannot change yours.'
          : 'Anyone with the link who signs in can edit this workflow, and their saves are checked against yours as your own are. They cannot run, share or delete it, and lose it as soon as you revoke the link.'}
        {saveState !== 'saved'
          ? ' Your latest changes are not saved yet; the link shows them once they are.'
          : ''}
      </p>

      {secrets.length ? (
        <SecretsWarning secrets={secrets} acknowledged={acknowledged} onAcknowledge={setAcknowledged} />
      ) : null}

      <div className="share__create">
        <label>
          Anyone with the link{' '}
          <select
            value={role}
            onChange={(e) => setRole(e.target.value === 'editor' ? 'editor' : 'viewer')}
            data-testid="share-role"
          >
            {ROLE_CHOICES.map((c) => (
              <option key={c.role} value={c.role}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires{' '}
          <select
            value={expiry ?? ''}
            onChange={(e) => setExpiry(e.target.value ? Number(e.target.value) : null)}
            data-testid="share-expiry"
          >
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.label} value={c.days ?? ''}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || needsConfirm || shares === null}
          onClick={() => void create()}
          data-testid="share-create"
        >
          {secrets.length ? 'Create link anyway' : 'Create link'}
        </button>
      </div>

      {created ? <CreatedLink url={created.url} copied={copied} onCopy={() => void copy()} /> : null}

      {error ? (
        <p className="error-text" role="alert" data-testid="share-error">
          {error}
        </p>
      ) : null}

      <h3 className="share__heading">Links that work now</h3>
      {shares?.length === 0 ? <p className="muted">No links yet.</p> : null}
      <LinkList shares={shares} onRevoke={(shareId) => void revoke(shareId)} />
    </Modal>
  );
}
