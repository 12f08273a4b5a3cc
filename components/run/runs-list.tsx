'use client';
/**
 * Past test-runs of a workflow: version, status, when, how long; each opens on the canvas of the
 * version that ran. In the editor (a dialog) and beside a run.
 */
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { listRuns } from '@/lib/api/runs';
import type { RunJson } from '@/lib/api/types';
import { useEditorStore } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';
import { formatWhen } from '@/components/save/format-when';
import { formatDuration } from './run-status';
import '@/components/save/save.css';
import './run.css';

const selectId = (s: EditorState) => s.meta.id;

/** The list, for the workflow `workflowId`; `current` marks the run on show. */
export function RunsList({
  workflowId,
  current,
  refresh = 0,
}: {
  workflowId: string;
  current?: string;
  refresh?: number;
}) {
  const [runs, setRuns] = useState<RunJson[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void listRuns(workflowId).then((res) => {
      if (!live) return;
      if (res.ok) setRuns(res.value.runs);
      else setError(res.error.message);
    });
    return () => {
      live = false;
    };
  }, [workflowId, refresh]);
  if (error) return <p className="run-error">{error}</p>;
  if (!runs) return <p className="muted">Loading runs…</p>;
  if (runs.length === 0)
    return <p className="muted">No runs yet. Run the workflow to see its results here.</p>;
  return (
    <ol className="runs-list" data-testid="runs-list">
      {runs.map((run) => {
        const took =
          run.startedAt && run.finishedAt
            ? formatDuration(Date.parse(run.finishedAt) - Date.parse(run.startedAt))
            : null;
        return (
          <li
            key={run.id}
            className={run.id === current ? 'runs-list__item runs-list__item--on' : 'runs-list__item'}
          >
            <Link
              href={`/w/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(run.id)}`}
              data-testid="runs-item"
            >
              <span className={`run-pill run-pill--${run.status}`}>{run.status}</span> version {run.version}
              <span className="muted">
                {' '}
                · {formatWhen(run.createdAt)}
                {took ? ` · ${took}` : ''}
              </span>
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

/** The list in a dialog over the editor. */
export function RunsDialog({ onClose }: { onClose: () => void }) {
  const id = useEditorStore(selectId);
  return (
    <div className="save-modal" role="dialog" aria-modal="true" aria-label="Runs" data-testid="runs-dialog">
      <div className="save-modal__box">
        <header className="save-drawer__head">
          <strong>Test-runs</strong>
          <button type="button" className="link-btn" onClick={onClose}>
            Close
          </button>
        </header>
        <RunsList workflowId={id} />
      </div>
    </div>
  );
}
