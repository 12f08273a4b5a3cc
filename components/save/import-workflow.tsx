'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { importWorkflow } from '@/lib/api/workflows';
import type { Issue } from '@/lib/result';
import '@/components/ui/controls.css';
import './save.css';

/** Matches the server's limit (lib/http/body.ts), so a big file is refused before uploading. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Import a workflow export (v1 or older) from a file: a button with a file picker, and the whole
 * page as a drop target. Every problem the server finds is listed with its JSON path; on success
 * the new workflow opens.
 */
export function ImportWorkflow() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; issues: Issue[] } | null>(null);

  const upload = async (file: File) => {
    setError(null);
    if (file.size > MAX_FILE_BYTES) {
      return setError({
        message: `"${file.name}" is ${(file.size / 1024 / 1024).toFixed(1)} MB; the limit is 5 MB. Remove large values from it and try again.`,
        issues: [],
      });
    }
    setBusy(true);
    let text: string;
    try {
      text = await file.text();
    } catch (cause) {
      setBusy(false);
      return setError({ message: `Could not read "${file.name}": ${(cause as Error).message}`, issues: [] });
    }
    const res = await importWorkflow(text);
    setBusy(false);
    if (res.ok) return router.push(`/w/${res.value.workflow.id}`);
    setError({ message: `Could not import "${file.name}": ${res.error.message}`, issues: res.error.issues });
  };

  useEffect(() => {
    let depth = 0;
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth += 1;
      setDragging(true);
    };
    const onLeave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault(); // allows the drop
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) void upload(file);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
    // upload only reads state setters and the router, which are stable
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="import-drop" data-testid="import-workflow">
      <button
        type="button"
        className="btn"
        disabled={busy}
        onClick={() => input.current?.click()}
        data-testid="import-button"
      >
        {busy ? 'Importing…' : 'Import JSON…'}
      </button>{' '}
      <span className="muted">or drop a workflow export anywhere on this page.</span>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
        data-testid="import-file"
      />
      {error ? (
        <div className="error-text" role="alert" data-testid="import-error">
          <p>{error.message}</p>
          {error.issues.length ? (
            <ul className="import-drop__issues" data-testid="import-issues">
              {error.issues.slice(0, 50).map((issue, i) => (
                <li key={i}>
                  <code>{issue.path || '(whole file)'}</code>: {issue.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {dragging ? (
        <div className="import-drop__overlay" data-testid="import-overlay">
          Drop a workflow JSON to import it
        </div>
      ) : null}
    </div>
  );
}
