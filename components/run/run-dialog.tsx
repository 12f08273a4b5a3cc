'use client';
/**
 * The pre-flight list and the confirmation of a test-run. The run executes the saved
 * version, so unsaved changes are saved first; then the server says which tools it would call on
 * which servers, and which steps cannot run and why. Tools have real side effects: nothing is
 * called until the person confirms.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { getPreflight, startRun } from '@/lib/api/runs';
import type { PreflightJson } from '@/lib/api/types';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';
import { countOf } from '@/lib/plural';
import { getSaveSession } from '@/lib/editor/use-autosave';
import { Modal } from '@/components/ui/dialog';
import './run.css';

const selectId = (s: EditorState) => s.meta.id;

/** What the dialog shows and does: the pre-flight once the saved version is checked, and Run. */
interface RunPreflightState {
  preflight: PreflightJson | null;
  error: string | null;
  starting: boolean;
  confirm(): Promise<void>;
}

/** Saves, asks the server for the pre-flight of the saved version, and starts the run on confirm. */
function useRunPreflight(): RunPreflightState {
  const store = useEditorStoreApi();
  const id = useEditorStore(selectId);
  const router = useRouter();
  const [preflight, setPreflight] = useState<PreflightJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      if (store.getState().saveState !== 'saved') await (await getSaveSession(store))?.saveNow();
      if (!live) return;
      if (store.getState().saveState !== 'saved') {
        setError(
          'The run executes the saved version: your changes could not be saved yet (see the message above). Try again once they are.',
        );
        return;
      }
      const res = await getPreflight(id, store.getState().meta.version);
      if (!live) return;
      if (res.ok) setPreflight(res.value.preflight);
      else setError(res.error.message);
    })();
    return () => {
      live = false;
    };
    // Once per opening: the version is read when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const confirm = async () => {
    if (!preflight) return;
    setStarting(true);
    const res = await startRun(id, preflight.version);
    if (!res.ok) {
      setStarting(false);
      setError(res.error.message);
      return;
    }
    router.push(`/w/${encodeURIComponent(id)}/runs/${encodeURIComponent(res.value.run.id)}`);
  };

  return { preflight, error, starting, confirm };
}

/** The dialog: its shell (focus, Escape, the title) around the content. */
export function RunDialog({ onClose }: { onClose: () => void }) {
  const state = useRunPreflight();
  return (
    <Modal
      title={`Test-run${state.preflight ? ` version ${state.preflight.version}` : ''}`}
      onClose={onClose}
      size="wide"
      testId="run-dialog"
      closeTestId="run-close"
    >
      <RunDialogContent {...state} onClose={onClose} />
    </Modal>
  );
}

/** Steps that cannot run, under a heading that says why they are listed. */
function BlockedSteps({
  nodes,
  heading,
  testId,
}: {
  nodes: PreflightJson['nodes'];
  heading: string;
  testId: string;
}) {
  if (nodes.length === 0) return null;
  return (
    <>
      <h3 className="run-dialog__h">{heading}</h3>
      <ul className="run-dialog__blocked" data-testid={testId}>
        {nodes.map((n) => (
          <li key={n.nodeId} data-testid={`run-blocked-${n.nodeId}`}>
            <strong>
              {n.stepIndex}. {n.label ?? n.nodeId}
            </strong>{' '}
            <code>{n.toolName}</code>: {n.blocked!.message}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The Run button's words: how many steps run, or why none may. */
function getConfirmText(preflight: PreflightJson, starting: boolean): string {
  if (starting) return 'Starting…';
  if (preflight.refusal?.code === 'invalid_steps')
    return `Fix ${countOf(preflight.invalid, 'invalid step')} first`;
  if (preflight.refusal) return 'Nothing can run';
  return `Run ${countOf(preflight.runnable, 'step')}`;
}

/** What the dialog says: the servers and tools to be called, the steps that cannot run, and Run. */
export function RunDialogContent({
  preflight,
  error,
  starting,
  confirm,
  onClose,
}: RunPreflightState & { onClose(): void }) {
  const invalid = preflight?.nodes.filter((n) => n.blocked && n.invalid) ?? [];
  const unavailable = preflight?.nodes.filter((n) => n.blocked && !n.invalid) ?? [];
  return (
    <>
      {error ? (
        <p className="run-error" role="alert" data-testid="run-error">
          {error}
        </p>
      ) : null}
      {!preflight && !error ? <p className="muted">Saving and checking what the run would call…</p> : null}
      {preflight ? (
        <>
          <p className="run-warning">
            The tools below are called <strong>for real</strong>, with the arguments of the saved version:
            they may change data on their servers.
          </p>
          <h3 className="run-dialog__h">Servers and tools to be called</h3>
          {preflight.servers.length ? (
            <ul className="run-dialog__servers" data-testid="run-servers">
              {preflight.servers.map((s) => (
                <li key={s.label} data-testid="run-server">
                  <code>{s.label}</code>{' '}
                  <span className="muted">
                    ({s.dataNote ? 'runnable sample' : s.kind === 'stdio' ? 'configured server' : 'URL'})
                  </span>
                  : {s.tools.join(', ')}
                  {s.dataNote ? (
                    <p className="run-dialog__note" data-testid="run-server-data">
                      {s.dataNote}
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">None.</p>
          )}
          {invalid.length === 0 && unavailable.length === 0 ? (
            <h3 className="run-dialog__h">Every step can run</h3>
          ) : null}
          <BlockedSteps
            nodes={invalid}
            heading={`${countOf(invalid.length, 'step is', 'steps are')} invalid`}
            testId="run-invalid"
          />
          <BlockedSteps
            nodes={unavailable}
            heading={`${countOf(unavailable.length, 'step')} cannot run here`}
            testId="run-blocked"
          />
          {unavailable.length && !preflight.refusal ? (
            <p className="muted">They are marked failed without a call; the steps they feed are skipped.</p>
          ) : null}
          {preflight.refusal ? (
            <p className="run-dialog__refusal" role="status" data-testid="run-refusal">
              {preflight.refusal.message}
            </p>
          ) : null}
          <footer className="run-dialog__actions">
            <button type="button" className="btn" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={preflight.refusal !== undefined || preflight.runnable === 0 || starting}
              onClick={() => void confirm()}
              data-testid="run-confirm"
            >
              {getConfirmText(preflight, starting)}
            </button>
          </footer>
        </>
      ) : null}
    </>
  );
}
