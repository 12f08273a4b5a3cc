'use client';
import { ReactFlowProvider } from '@xyflow/react';
import Link from 'next/link';
import { EditorStoreProvider, useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import type { EditorInit, EditorState } from '@/lib/editor/store';
import { useAutosave } from '@/lib/editor/use-autosave';
import { WorkflowCanvas } from '@/components/canvas/workflow-canvas';

const SAVE_LABELS: Record<EditorState['saveState'], string> = {
  saved: 'Saved',
  dirty: 'Unsaved changes',
  saving: 'Saving…',
  conflict: 'Changed elsewhere',
  offline: 'Offline — will retry',
  error: 'Not saved',
};

const selectName = (s: EditorState) => s.meta.name;
const selectSave = (s: EditorState) => s.saveState;
const selectSaveError = (s: EditorState) => s.saveError;

function EditorShell() {
  const store = useEditorStoreApi();
  useAutosave(store);
  const name = useEditorStore(selectName);
  const saveState = useEditorStore(selectSave);
  const saveError = useEditorStore(selectSaveError);
  return (
    <div className="editor">
      <header className="editor__bar">
        <Link href="/">Toolflow</Link>
        <strong data-testid="workflow-name">{name}</strong>
        <span
          className={`save-state save-state--${saveState}`}
          data-testid="save-state"
          title={saveError ?? undefined}
        >
          {SAVE_LABELS[saveState]}
        </span>
      </header>
      <WorkflowCanvas />
    </div>
  );
}

/** The workflow editor: one store, one canvas. */
export function Editor({ init }: { init: EditorInit }) {
  return (
    <EditorStoreProvider init={init}>
      <ReactFlowProvider>
        <EditorShell />
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}
