'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';

/** Creates an empty workflow through the API and opens it. */
export function NewWorkflowButton() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onClick() {
    setBusy(true);
    setError(null);
    const res = await fetch('/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Untitled workflow' }),
    });
    const body = await res.json().catch(() => ({ message: `HTTP ${res.status}` }));
    setBusy(false);
    if (!res.ok) return setError(body.message ?? `Could not create a workflow (HTTP ${res.status}).`);
    router.push(`/w/${body.workflow.id}`);
  }
  return (
    <div>
      <button className="btn btn-primary" onClick={onClick} disabled={busy} data-testid="new-workflow">
        New empty workflow
      </button>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
