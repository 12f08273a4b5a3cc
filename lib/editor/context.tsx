'use client';
/** Provides one editor store per editor and reads it with selectors (xyflow's provider pattern). */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createEditorStore, type EditorInit, type EditorState, type EditorStore } from './store';

const EditorStoreContext = createContext<EditorStore | null>(null);

export function EditorStoreProvider({ init, children }: { init: EditorInit; children: ReactNode }) {
  const [store] = useState(() => createEditorStore(init));
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
