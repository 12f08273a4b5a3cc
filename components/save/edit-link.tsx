'use client';
/**
 * The landing page of a "can edit" link for a signed-in account (app/s/[token]): what it was given
 * and a button that takes the link up (POST /api/shares/[token]/accept) and opens the editor on
 * that one workflow (docs/design.md §13.4).
 */
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { acceptShare } from '@/lib/api/workflows';
import '@/components/account/account.css';

export interface EditLinkProps {
  token: string;
  name: string;
  /** "3 steps: fetch the page…", said under the name. */
  summary: string;
  email: string;
  expiresAt: string | null;
}

export function EditLink(props: EditLinkProps) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function open() {
    setBusy(true);
    setError(null);
    const result = await acceptShare(props.token);
    if (!result.ok) {
      setBusy(false);
      setError(result.error.message);
      return;
    }
    router.push(`/w/${encodeURIComponent(result.value.workflowId)}`);
  }

  return (
    <main className="page auth" data-testid="edit-link">
      <h1>Edit “{props.name}”</h1>
      <p>You were sent a link that lets you edit this workflow. {props.summary}</p>
      <p className="muted">
        Signed in as {props.email}. Your changes are saved to the workflow itself, for everyone who works on
        it, for as long as the link works
        {props.expiresAt ? ` (until ${props.expiresAt.slice(0, 16).replace('T', ' ')} UTC)` : ''}. Its owner
        can revoke it at any time.
      </p>
      {error ? (
        <p className="error-text" role="alert" data-testid="edit-link-error">
          {error}
        </p>
      ) : null}
      <p>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void open()}
          data-testid="edit-link-open"
        >
          Open in the editor
        </button>
      </p>
    </main>
  );
}
