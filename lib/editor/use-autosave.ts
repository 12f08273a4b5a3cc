'use client';
/**
 * The editor's side of autosave (the engine is autosave.ts): `useAutosave` starts the engine for
 * an editor store with the browser's fetch, localStorage and timers, and saves at once when the
 * browser comes back online; `useSaveSession` gives the save UI the running session and
 * `getSaveSession` starts it for a caller that needs it now.
 *
 * The engine is loaded on demand: at mount when this browser keeps unsaved changes of the
 * workflow (they are put back at once), else with the document's first change or a rename; until then
 * nothing is unsaved. The copy the editor opened is kept from mount, so an engine started after
 * the first edit saves on top of the right version. Should its code not arrive (offline at the
 * first edit), the unsaved document is kept in localStorage here and the editor says it is
 * offline; the engine is asked for again with the next change and when the browser is back
 * online, and then saves it.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { AutosaverDeps, SaveSession, ServerCopy } from './autosave';
import { getPendingKey, OFFLINE_MESSAGE, writePendingSave } from './pending-save';
import type { EditorStore } from './store';

const sessions = new WeakMap<EditorStore, SaveSession>();
/** Starts (once) the session of each mounted editor's store. */
const starters = new WeakMap<EditorStore, () => Promise<SaveSession>>();

function getBrowserDeps(): AutosaverDeps {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    storage = null; // disabled by the browser's privacy settings
  }
  return {
    storage,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    now: () => Date.now(),
  };
}

function hasPendingSave(storage: Pick<Storage, 'getItem'> | null, workflowId: string): boolean {
  try {
    return storage?.getItem(getPendingKey(workflowId)) != null;
  } catch {
    return false;
  }
}

/** Starts autosave for the editor's store (once per store) and retries when the browser is back online. */
export function useAutosave(store: EditorStore) {
  useEffect(() => {
    const deps = getBrowserDeps();
    const { meta, doc } = store.getState();
    const opened: ServerCopy = { version: meta.version, name: meta.name, document: doc };
    /** Whether the editor holds a change the engine has to save: an edit or a new name. */
    const isChanged = (s: { doc: unknown; meta: { name: string } }) =>
      s.doc !== opened.document || s.meta.name !== opened.name;
    let session: SaveSession | null = null;
    let starting: Promise<SaveSession> | null = null;
    let keptHere = false;
    let disposed = false;
    let stopWatching = () => {};

    /** Without the engine: keep the unsaved document in this browser and say the server is out of reach. */
    const keepUnsaved = () => {
      const s = store.getState();
      if (s.meta.readOnly || !isChanged(s) || !deps.storage) return;
      keptHere = writePendingSave(deps.storage, meta.id, {
        v: 1,
        baseVersion: opened.version,
        savedAt: deps.now(),
        doc: s.doc,
        ...(s.meta.name !== opened.name ? { name: s.meta.name } : {}),
      });
      s.setSaveState('offline', OFFLINE_MESSAGE);
    };

    const start = () => {
      starting ??= import('./autosave').then(
        ({ createAutosaver }) => {
          if (disposed) throw new Error('The editor was closed before autosave started.');
          // What keepUnsaved wrote is this visit's, not an earlier one's to put back: the engine
          // keeps and saves the document it finds in the editor.
          if (keptHere) {
            try {
              deps.storage?.removeItem(getPendingKey(meta.id));
            } catch {
              // Unreadable storage: the engine finds nothing and keeps the editor's document.
            }
          }
          session = createAutosaver(store, deps, opened);
          sessions.set(store, session);
          notify();
          stopWatching();
          return session;
        },
        (error: unknown) => {
          starting = null;
          if (!disposed) keepUnsaved();
          throw error;
        },
      );
      return starting;
    };
    const startQuietly = () => void start().catch(() => {});
    starters.set(store, start);

    if (!meta.readOnly) {
      if (hasPendingSave(deps.storage, meta.id)) startQuietly();
      else
        stopWatching = store.subscribe((s, prev) => {
          if (s.doc !== prev.doc || s.meta.name !== prev.meta.name) startQuietly();
        });
    }
    const onOnline = () => {
      if (session) void session.saveNow();
      else if (isChanged(store.getState())) startQuietly();
    };
    window.addEventListener('online', onOnline);
    return () => {
      disposed = true;
      window.removeEventListener('online', onOnline);
      stopWatching();
      if (starters.get(store) === start) starters.delete(store);
      if (session) {
        session.dispose();
        if (sessions.get(store) === session) sessions.delete(store);
        notify();
      }
    };
  }, [store]);
}

/**
 * The autosave session of a mounted editor's store, started now if it has not been (History's
 * restore hands it the restored copy; Export and Run save first). Null when no editor is mounted
 * for the store or the engine's code could not be fetched.
 */
export function getSaveSession(store: EditorStore): Promise<SaveSession | null> {
  const started = sessions.get(store);
  if (started) return Promise.resolve(started);
  const start = starters.get(store);
  return start ? start().catch(() => null) : Promise.resolve(null);
}

// Lets components that render before the session started pick it up afterwards.
const listeners = new Set<() => void>();
let generation = 0;
function notify() {
  generation += 1;
  for (const l of listeners) l();
}
const subscribeSessions = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The autosave session of an editor store, once it has started (null before). */
export function useSaveSession(store: EditorStore): SaveSession | null {
  useSyncExternalStore(
    subscribeSessions,
    () => generation,
    () => 0,
  );
  return sessions.get(store) ?? null;
}
