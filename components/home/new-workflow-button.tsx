'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { createWorkflow } from '@/lib/api/workflows';

/** Creates an empty workflow through the API and opens it. */
export function NewWorkflowButton() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onClick() {
    setBusy(true);
    setError(null);
    const res = await createWorkflow({ name: 'Untitled workflow' });
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    router.push(`/w/${res.value.workflow.id}`);
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
