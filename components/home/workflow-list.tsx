'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState, type KeyboardEvent } from 'react';
import { deleteWorkflow, duplicateWorkflow, renameWorkflow } from '@/lib/api/workflows';
import type { Jsonified, WorkflowSummary } from '@/lib/api/types';
import { WORKFLOW_NAME_MAX } from '@/lib/workflow/name';
import { ConfirmButton } from '@/components/ui/confirm';
import '@/components/ui/controls.css';

type Summary = Jsonified<WorkflowSummary>;

interface RowProps {
  workflow: Summary;
  /** Says what happened, in the list's live region. */
  onDone(message: string): void;
  /** After a row leaves the list (deleted): where focus goes. */
  onGone(): void;
}

/** One of my workflows: its name (whole in the title, shortened on screen), and Rename, Duplicate, Delete. */
function WorkflowRow({ workflow, onDone, onGone }: RowProps) {
  const router = useRouter();
  const [renamed, setRenamed] = useState<{ name: string; version: number } | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  // What this row last wrote, until the list from the server says at least as much.
  const current = renamed && renamed.version > workflow.version ? renamed : workflow;

  const finishRename = async (keep: boolean, refocus: boolean) => {
    if (draft === null) return;
    const name = draft.trim();
    setDraft(null);
    if (refocus) requestAnimationFrame(() => renameButton.current?.focus());
    if (!keep || !name || name === current.name) return;
    setBusy(true);
    setError(null);
    const res = await renameWorkflow(workflow.id, { version: current.version, name });
    setBusy(false);
    if (!res.ok) {
      setError(res.error.message);
      // A 409 means the list is behind: bring it up to date for the next try.
      if (res.error.status === 409) router.refresh();
      return;
    }
    setRenamed({ name: res.value.workflow.name, version: res.value.workflow.version });
    onDone(`Renamed to “${res.value.workflow.name}”.`);
    router.refresh();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void finishRename(true, true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      void finishRename(false, true);
    }
  };

  const duplicate = async () => {
    setBusy(true);
    setError(null);
    const res = await duplicateWorkflow(workflow.id);
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    onDone(`Duplicated as “${res.value.workflow.name}”, now first in the list.`);
    router.refresh();
  };

  const remove = async () => {
    setBusy(true);
    setError(null);
    const res = await deleteWorkflow(workflow.id);
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    onDone(`Deleted “${current.name}”.`);
    onGone();
    router.refresh();
  };

  return (
    <li className="card" data-testid="workflow-item" data-workflow-id={workflow.id}>
      <div className="home__item">
        {draft !== null ? (
          <input
            className="home__rename-input"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            onBlur={() => void finishRename(true, false)}
            maxLength={WORKFLOW_NAME_MAX}
            aria-label="Workflow name"
            // The field replaces the Rename button that asked for it: focus follows.
            autoFocus
            onFocus={(e) => e.target.select()}
            data-testid="workflow-name-input"
          />
        ) : (
          <Link href={`/w/${workflow.id}`} className="home__item-name" title={current.name}>
            {current.name}
          </Link>
        )}
        {workflow.task ? (
          <div className="muted home__item-task" title={workflow.task}>
            {workflow.task}
          </div>
        ) : null}
        {error ? (
          <p className="error-text home__item-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="home__item-side">
        <span className="muted home__item-meta">
          {workflow.nodeCount} {workflow.nodeCount === 1 ? 'step' : 'steps'} · v{current.version} ·{' '}
          {workflow.updatedAt.slice(0, 16).replace('T', ' ')}
        </span>
        <span className="home__item-actions">
          <button
            type="button"
            ref={renameButton}
            className="link-btn"
            disabled={busy}
            onClick={() => setDraft(current.name)}
            aria-label={`Rename “${current.name}”`}
            data-testid="rename-workflow"
          >
            Rename
          </button>
          <button
            type="button"
            className="link-btn"
            disabled={busy}
            onClick={() => void duplicate()}
            aria-label={`Duplicate “${current.name}”`}
            data-testid="duplicate-workflow"
          >
            Duplicate
          </button>
          <ConfirmButton
            className="link-btn home__delete"
            disabled={busy}
            aria-label={`Delete “${current.name}”`}
            confirm={{
              title: 'Delete this workflow?',
              description: `“${current.name}” is deleted with its history, its share links and its test-runs. This cannot be undone; duplicate it first to keep a copy.`,
              confirmLabel: 'Delete workflow',
            }}
            onConfirm={() => void remove()}
            data-testid="delete-workflow"
          >
            Delete
          </ConfirmButton>
        </span>
      </div>
    </li>
  );
}

/**
 * My workflows, newest first, each to open, rename in place, duplicate or delete (after a
 * question). The list is the server's: after a change it is fetched again (router.refresh).
 */
export function WorkflowList({ workflows }: { workflows: Summary[] }) {
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <h2 className="home__section" ref={heading} tabIndex={-1}>
        My workflows
      </h2>
      <p role="status" className="home__status" data-testid="workflow-list-status">
        {status}
      </p>
      {workflows.length === 0 ? (
        <p className="muted" data-testid="no-workflows">
          No workflows yet: describe a task above, or start an empty one.
        </p>
      ) : (
        <ul className="list" data-testid="workflow-list">
          {workflows.map((w) => (
            <WorkflowRow key={w.id} workflow={w} onDone={setStatus} onGone={() => heading.current?.focus()} />
          ))}
        </ul>
      )}
    </>
  );
}
