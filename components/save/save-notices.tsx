'use client';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import { getSaveSession } from '@/lib/editor/use-autosave';
import type { EditorState } from '@/lib/editor/store';
import type { SaveSession, SaveSessionState } from '@/lib/editor/autosave';

/** Before autosave has started (it loads with the first change): nothing scheduled, nothing restored. */
const NO_SESSION = createStore<Pick<SaveSessionState, 'retryAt' | 'restoredAt'>>()(() => ({
  retryAt: null,
  restoredAt: null,
}));

const selectSaveState = (s: EditorState) => s.saveState;
const selectSaveError = (s: EditorState) => s.saveError;
type SessionTimes = Pick<SaveSessionState, 'retryAt' | 'restoredAt'>;
const selectRetryAt = (s: SessionTimes) => s.retryAt;
const selectRestoredAt = (s: SessionTimes) => s.restoredAt;

/** Seconds until `at`, ticking while it is in the future. */
function useCountdown(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * What the user must know about saving besides a conflict: the server cannot save right now (the
 * changes are safe in this browser and a retry is scheduled), a save was refused, or unsaved
 * changes from an earlier visit were put back. Shown before autosave has started too: it says
 * so when its code could not be fetched.
 */
export function SaveNotices({ session }: { session: SaveSession | null }) {
  const store = useEditorStoreApi();
  const saveState = useEditorStore(selectSaveState);
  const saveError = useEditorStore(selectSaveError);
  const times = session?.state ?? NO_SESSION;
  const retryAt = useStore(times, selectRetryAt);
  const restoredAt = useStore(times, selectRestoredAt);
  const [dismissedRestore, setDismissedRestore] = useState<number | null>(null);
  const seconds = useCountdown(retryAt);

  return (
    <>
      {saveState === 'offline' || saveState === 'error' ? (
        <div
          className={`save-banner save-banner--${saveState}`}
          role="status"
          data-testid={saveState === 'offline' ? 'offline-banner' : 'save-error-banner'}
        >
          <p className="save-banner__title">
            <strong>{saveState === 'offline' ? 'Not saved yet.' : 'Not saved.'}</strong> {saveError}
            {seconds !== null ? ` Next try in ${seconds} s.` : ''}
          </p>
          <div className="save-banner__actions">
            <button
              type="button"
              className="btn"
              onClick={() => void getSaveSession(store).then((started) => started?.saveNow())}
              data-testid="save-retry"
            >
              Try again now
            </button>
          </div>
        </div>
      ) : null}
      {restoredAt !== null && restoredAt !== dismissedRestore ? (
        <div className="save-banner save-banner--info" role="status" data-testid="restored-banner">
          <p className="save-banner__title">
            Unsaved changes from your last visit were kept in this browser and have been put back
            {saveState === 'saved' ? ' and saved' : ''}. Undo removes them.
          </p>
          <div className="save-banner__actions">
            <button type="button" className="btn" onClick={() => setDismissedRestore(restoredAt)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
