'use client';
/**
 * A test-run on the canvas of the version that ran: every node shows its live status
 * and duration, a click shows what it was sent and what came back, Cancel stops the run, and the
 * list of the workflow's runs is beside it. The canvas is the editor's, read-only, built from the
 * exact export that ran.
 */
import { ReactFlowProvider } from '@xyflow/react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { cancelRun } from '@/lib/api/runs';
import { EditorStoreProvider, useEditorStore } from '@/lib/editor/context';
import { selectSelectedNodeIds } from '@/lib/editor/selectors';
import { countOf } from '@/lib/plural';
import { FINAL_RUN_STATUSES } from '@/lib/run/types';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { WorkflowCanvas } from '@/components/canvas/workflow-canvas';
import { NodeResult } from './node-result';
import { formatDuration, RunStatusContext, type NodeRunBadge } from './run-status';
import { RunsList } from './runs-list';
import { useRunStream, type RunState } from './use-run-stream';
import '@/components/ui/controls.css';
import '@/components/editor/editor.css';
import './run.css';

export interface RunViewProps {
  workflow: { id: string; name: string };
  document: WorkflowDocument;
  initial: RunState;
}

function Details({ state, workflowId }: { state: RunState; workflowId: string }) {
  const selected = useEditorStore(selectSelectedNodeIds);
  const [tab, setTab] = useState<'step' | 'runs'>('step');
  const nodeId = selected[0];
  const status = state.nodes.find((n) => n.nodeId === nodeId)?.status ?? '';
  return (
    <aside className="editor__side run-side" aria-label="Run details" data-testid="run-side">
      <div className="tabs" role="tablist">
        {(['step', 'runs'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`run-tab-${t}`}
            aria-selected={tab === t}
            aria-controls="run-side-panel"
            className={`tabs__tab${tab === t ? ' tabs__tab--on' : ''}`}
            onClick={() => setTab(t)}
            data-testid={`run-tab-${t}`}
          >
            {t === 'step' ? 'Step' : 'Runs'}
          </button>
        ))}
      </div>
      {/* Focusable, so a keyboard can scroll a long result. */}
      <div
        className="editor__side-body"
        id="run-side-panel"
        role="tabpanel"
        aria-labelledby={`run-tab-${tab}`}
        tabIndex={0}
      >
        {tab === 'runs' ? (
          <RunsList
            workflowId={workflowId}
            current={state.run.id}
            refresh={FINAL_RUN_STATUSES.has(state.run.status) ? 1 : 0}
          />
        ) : nodeId ? (
          <NodeResult runId={state.run.id} nodeId={nodeId} status={status} />
        ) : (
          <p className="muted">Click a step to see the arguments it was sent and what came back.</p>
        )}
      </div>
    </aside>
  );
}

/** What the banner under the bar says, and whether it is an error or a plain note. */
function getBanner(
  state: RunState,
  local: { problem: string | null; cancelError: string | null; cancelArrivedLate: boolean },
): { text: string; tone: 'error' | 'note' } | null {
  const { run } = state;
  if (local.cancelError) return { text: local.cancelError, tone: 'error' };
  if (local.problem) return { text: local.problem, tone: 'error' };
  const finished = FINAL_RUN_STATUSES.has(run.status) && run.status !== 'cancelled';
  if (finished && local.cancelArrivedLate)
    return { text: `The run had already finished when Cancel arrived: it ${run.status}.`, tone: 'note' };
  if (finished && run.cancelRequestedAt)
    return { text: `Cancel came too late: the run ${run.status} before it could be stopped.`, tone: 'note' };
  if (run.status === 'cancelled') {
    const stopped = state.nodes.filter((n) => n.status === 'cancelled').length;
    const ended = state.nodes.length - stopped;
    return {
      text: `Cancelled: ${countOf(stopped, 'step')} stopped or not started${ended ? `; ${countOf(ended, 'step')} had ended and keep ${ended === 1 ? 'its result' : 'their results'}` : ''}.`,
      tone: 'note',
    };
  }
  return run.error ? { text: run.error.message, tone: 'error' } : null;
}

function Summary({ state }: { state: RunState }) {
  const counts = new Map<string, number>();
  for (const n of state.nodes) counts.set(n.status, (counts.get(n.status) ?? 0) + 1);
  return (
    <span className="run-summary" data-testid="run-summary">
      {[...counts].map(([status, n]) => `${n} ${status}`).join(' · ')}
    </span>
  );
}

export function RunView({ workflow, document, initial }: RunViewProps) {
  const { state, problem, applyRun } = useRunStream(initial);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [cancelArrivedLate, setCancelArrivedLate] = useState(false);
  const badges = useMemo(
    () =>
      new Map<string, NodeRunBadge>(
        state.nodes.map((n) => [n.nodeId, { status: n.status, durationMs: n.durationMs }]),
      ),
    [state.nodes],
  );
  const { run } = state;
  const final = FINAL_RUN_STATUSES.has(run.status);
  const took =
    run.startedAt && run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : null;

  const cancel = async () => {
    setCancelling(true);
    const res = await cancelRun(run.id);
    if (!res.ok) {
      setCancelling(false);
      setCancelError(res.error.message);
      return;
    }
    // The run ended before the request reached the server: nothing was cancelled, and that is said.
    const after = res.value.run.status;
    if (FINAL_RUN_STATUSES.has(after) && after !== 'cancelled') setCancelArrivedLate(true);
    applyRun(res.value.run);
  };
  const banner = getBanner(state, { problem, cancelError, cancelArrivedLate });

  return (
    <EditorStoreProvider
      init={{
        meta: { id: workflow.id, name: workflow.name, version: run.version, readOnly: true },
        doc: document,
      }}
    >
      <ReactFlowProvider>
        <RunStatusContext.Provider value={badges}>
          <div className="editor run-view" data-testid="run-view" data-run-status={run.status}>
            <header className="editor__bar" data-testid="run-bar">
              <Link href="/" className="editor__brand">
                Toolflow
              </Link>
              <span className="editor__sep" aria-hidden="true">
                /
              </span>
              <Link
                href={`/w/${encodeURIComponent(workflow.id)}`}
                className="editor__name"
                data-testid="run-back"
              >
                {workflow.name}
              </Link>
              <span className="editor__sep" aria-hidden="true">
                /
              </span>
              <h1 className="run-view__title">Run of version {run.version}</h1>
              <span className={`run-pill run-pill--${run.status}`} data-testid="run-status">
                {run.status}
              </span>
              {took !== null ? <span className="muted">{formatDuration(took)}</span> : null}
              <Summary state={state} />
              <div className="editor__slot">
                {!final ? (
                  <button
                    type="button"
                    className="btn btn-small btn-danger"
                    disabled={cancelling}
                    onClick={() => void cancel()}
                    data-testid="run-cancel"
                  >
                    {cancelling ? 'Cancelling…' : 'Cancel'}
                  </button>
                ) : null}
                <a
                  className="btn btn-small"
                  href={`/api/runs/${encodeURIComponent(run.id)}/export`}
                  download
                  title={`The file that ran: ${run.exportHash}`}
                  data-testid="run-download"
                >
                  File that ran
                </a>
              </div>
            </header>
            {banner ? (
              <p
                className={`run-banner${banner.tone === 'note' ? ' run-banner--note' : ''}`}
                role="status"
                data-testid="run-banner"
                data-tone={banner.tone}
              >
                {banner.text}
              </p>
            ) : null}
            <div className="run-view__body">
              <main className="editor__center">
                <div className="editor__canvas">
                  <WorkflowCanvas />
                </div>
              </main>
              <Details state={state} workflowId={workflow.id} />
            </div>
          </div>
        </RunStatusContext.Provider>
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}
