'use client';
/**
 * Saves the document after edits settle, with the version it was based on. A 409 means the
 * workflow changed elsewhere: the editor keeps its copy and says so, never overwriting.
 */
import { useEffect } from 'react';
import type { EditorStore } from './store';

export const AUTOSAVE_DELAY_MS = 600;

export function useAutosave(store: EditorStore) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let saving = false;
    const save = async () => {
      const { meta, doc, saveState } = store.getState();
      if (saving || saveState !== 'dirty' || meta.readOnly) return;
      saving = true;
      store.getState().setSaveState('saving');
      try {
        const res = await fetch(`/api/workflows/${meta.id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ version: meta.version, document: doc }),
        });
        const body = await res.json().catch(() => ({}));
        if (res.ok) {
          // Edits made while saving leave the state dirty: markSaved keeps that.
          const changedMeanwhile = store.getState().doc !== doc;
          store.getState().markSaved(body.workflow.version);
          if (changedMeanwhile) store.getState().setSaveState('dirty');
        } else if (res.status === 409) {
          store.getState().setSaveState('conflict', body.message ?? 'This workflow changed elsewhere.');
        } else {
          store
            .getState()
            .setSaveState(res.status === 503 ? 'offline' : 'error', body.message ?? `HTTP ${res.status}`);
        }
      } catch (error) {
        store.getState().setSaveState('offline', (error as Error).message);
      } finally {
        saving = false;
        if (store.getState().saveState === 'dirty') timer = setTimeout(save, AUTOSAVE_DELAY_MS);
      }
    };
    const unsubscribe = store.subscribe((state, prev) => {
      if (state.doc !== prev.doc && state.saveState === 'dirty') {
        clearTimeout(timer);
        timer = setTimeout(save, AUTOSAVE_DELAY_MS);
      }
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [store]);
}
