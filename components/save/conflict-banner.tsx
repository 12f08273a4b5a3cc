'use client';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useEditorStore } from '@/lib/editor/context';
import { selectDoc } from '@/lib/editor/selectors';
import type { SaveSession, SaveSessionState } from '@/lib/editor/autosave';
import { mergeConflict } from '@/lib/editor/conflict-merge';

const selectConflict = (s: SaveSessionState) => s.conflict;

/**
 * Shown when a save was refused because the workflow changed elsewhere. Nothing is overwritten
 * until the user picks: merge both (default when the edits do not collide), reload theirs, or
 * keep mine as a new version on top of theirs.
 */
export function ConflictBanner({ session }: { session: SaveSession }) {
  const conflict = useStore(session.state, selectConflict);
  const doc = useEditorStore(selectDoc);
  // Recomputed as I keep editing, so the preview is always what Merge would do.
  const merge = useMemo(() => (conflict && doc ? mergeConflict(conflict, doc) : null), [conflict, doc]);
  if (!conflict) return null;
  return (
    <div className="save-banner save-banner--conflict" role="alert" data-testid="conflict-banner">
      <p className="save-banner__title">
        <strong>This workflow changed elsewhere.</strong> Another tab or device saved version{' '}
        {conflict.server.version} while you were editing. Nothing has been overwritten: choose what to keep.
      </p>
      {!conflict.base && conflict.baseMissing ? (
        <p className="save-banner__detail" data-testid="conflict-base-missing">
          The version your changes started from is no longer in the history, so the two cannot be merged:
          reload theirs, or keep yours as a new version (theirs stays in History).
        </p>
      ) : !conflict.base ? (
        <p className="save-banner__detail">Loading the version you started from, to merge against…</p>
      ) : merge && merge.conflicts.length === 0 ? (
        <p className="save-banner__detail" data-testid="conflict-merge-clean">
          Your changes and theirs touch different things: merging keeps both.
        </p>
      ) : merge ? (
        <div className="save-banner__detail" data-testid="conflict-merge-collisions">
          Merging keeps both, but {merge.conflicts.length} thing
          {merge.conflicts.length === 1 ? ' was' : 's were'} changed in both places; yours is kept there:
          <ul>
            {merge.conflicts.slice(0, 6).map((c) => (
              <li key={c.where}>{c.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="save-banner__actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!merge}
          onClick={() => merge && session.mergeBoth(merge.doc)}
          data-testid="conflict-merge"
        >
          Merge both
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => session.reload()}
          title="Take their copy; Undo brings yours back."
          data-testid="conflict-reload"
        >
          Reload theirs
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => session.keepMine()}
          title="Save your copy as a new version; theirs stays in History."
          data-testid="conflict-keep-mine"
        >
          Keep mine
        </button>
      </div>
    </div>
  );
}
