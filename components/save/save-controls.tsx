'use client';
import { useState } from 'react';
import { lazyComponent } from '@/components/ui/lazy';
import { useStore } from 'zustand';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import type { SaveSession, SaveSessionState } from '@/lib/editor/autosave';
import type { EditorState } from '@/lib/editor/store';
import { getSaveSession, useSaveSession } from '@/lib/editor/use-autosave';
import { SaveNotices } from './save-notices';
import '@/components/ui/controls.css';
import './save.css';

// History and Share load on first click, not with the editor.
const RevisionsPanel = lazyComponent(() => import('./revisions-panel').then((m) => m.RevisionsPanel));
const ShareDialog = lazyComponent(() => import('./share-dialog').then((m) => m.ShareDialog));
// The conflict banner and its three-way merge load when a conflict is recorded: the server has
// just answered (a 409, or the version a restored change was based on), so it can send them.
const ConflictBanner = lazyComponent(() => import('./conflict-banner').then((m) => m.ConflictBanner));

const selectHasConflict = (s: SaveSessionState) => s.conflict !== null;

function ConflictSlot({ session }: { session: SaveSession }) {
  const hasConflict = useStore(session.state, selectHasConflict);
  return hasConflict ? <ConflictBanner session={session} /> : null;
}

const selectId = (s: EditorState) => s.meta.id;
const selectReadOnly = (s: EditorState) => s.meta.readOnly;
const selectViaLink = (s: EditorState) => !!s.meta.viaLink;

/**
 * The editor's saving and sharing controls: History, Export, Share, and the banners for a
 * conflict, an outage and restored changes. Mounted once in the editor's header (autosave itself
 * is started by the editor with `useAutosave`).
 */
export function SaveControls() {
  const store = useEditorStoreApi();
  const session = useSaveSession(store);
  const id = useEditorStore(selectId);
  const readOnly = useEditorStore(selectReadOnly);
  // Sharing stays with the workflow's workspace: an edit link does not make more links.
  const viaLink = useEditorStore(selectViaLink);
  const [open, setOpen] = useState<'history' | 'share' | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  if (readOnly) return null;

  // Export is the server's copy: save first, so the file has what the canvas shows.
  const onExport = async () => {
    setExportError(null);
    if (store.getState().saveState !== 'saved') await (await getSaveSession(store))?.saveNow();
    if (store.getState().saveState !== 'saved') {
      setExportError('Export waits for your changes to be saved; see the message above, then try again.');
      return;
    }
    const link = document.createElement('a');
    link.href = `/api/workflows/${encodeURIComponent(id)}/export`;
    link.download = '';
    document.body.appendChild(link);
    link.click();
    link.remove();
  };

  return (
    <>
      <div className="save-controls">
        <button
          type="button"
          className="btn btn-small"
          aria-haspopup="dialog"
          onClick={() => setOpen('history')}
          data-testid="open-history"
        >
          History
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => void onExport()}
          data-testid="export-json"
        >
          Export
        </button>
        {viaLink ? null : (
          <button
            type="button"
            className="btn btn-small btn-primary"
            aria-haspopup="dialog"
            onClick={() => setOpen('share')}
            data-testid="open-share"
          >
            Share
          </button>
        )}
      </div>
      <div className="save-banners">
        {session ? <ConflictSlot session={session} /> : null}
        <SaveNotices session={session} />
        {exportError ? (
          <div className="save-banner save-banner--error" role="alert">
            <p className="save-banner__title">{exportError}</p>
          </div>
        ) : null}
      </div>
      {open === 'history' ? <RevisionsPanel onClose={() => setOpen(null)} /> : null}
      {open === 'share' ? <ShareDialog onClose={() => setOpen(null)} /> : null}
    </>
  );
}
