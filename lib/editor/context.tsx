'use client';
/** Provides one editor store per editor and reads it with selectors (xyflow's provider pattern). */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import {
  createEditorStore,
  getHistoryStore,
  type EditorInit,
  type EditorState,
  type EditorStore,
  type HistoryStore,
} from './store';

type HistoryState = ReturnType<HistoryStore['getState']>;

const EditorStoreContext = createContext<EditorStore | null>(null);

/** Makes one store for the editor below it (from `init`, once) or provides the `store` given. */
export function EditorStoreProvider({
  init,
  store: given,
  children,
}: {
  init?: EditorInit;
  store?: EditorStore;
  children: ReactNode;
}) {
  const [store] = useState(() => {
    if (given) return given;
    if (!init) throw new Error('EditorStoreProvider needs `init` or `store`.');
    return createEditorStore(init);
  });
  // Without value problems from the server, node values are checked once the schema compiler
  // has loaded, after the first paint (with them, on the first change: see the store).
  useEffect(() => {
    if (store.getState().knownValueProblems) return;
    store
      .getState()
      .enableValueChecks()
      .catch(() => {
        // The chunk did not load (offline): values stay unchecked here; the server checks them.
      });
  }, [store]);
  return <EditorStoreContext.Provider value={store}>{children}</EditorStoreContext.Provider>;
}

/** The store itself, for actions and non-reactive reads. Throws outside the provider. */
export function useEditorStoreApi(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error('useEditorStore must be used inside <EditorStoreProvider>.');
  return store;
}

/** Subscribes to a slice of the editor state. Use module-level selector constants. */
export function useEditorStore<T>(selector: (state: EditorState) => T): T {
  return useStore(useEditorStoreApi(), selector);
}

/** Subscribes to the undo history (e.g. `s => s.pastStates.length > 0` for "can undo"). */
export function useEditorHistory<T>(selector: (state: HistoryState) => T): T {
  return useStore(getHistoryStore(useEditorStoreApi()), selector);
}
