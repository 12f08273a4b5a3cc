'use client';
/**
 * Past test-runs of a workflow: version, status, when, how long; each opens on the canvas of the
 * version that ran. In the editor (runs-dialog.tsx) and beside a run.
 */
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { listRuns } from '@/lib/api/runs';
import type { RunJson } from '@/lib/api/types';
import { formatWhen } from '@/components/save/format-when';
import { formatDuration } from './run-status';
import './run.css';

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
