'use client';
import { lazy, Suspense, useRef, useState } from 'react';
import { useEditorStore } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';
import type { WorkflowActionsMode } from './workflow-manage';

// What these buttons open loads when first asked for (one chunk); the heading stands in meanwhile.
const WorkflowNameField = lazy(() =>
  import('./workflow-manage').then((m) => ({ default: m.WorkflowNameField })),
);
const WorkflowActions = lazy(() => import('./workflow-manage').then((m) => ({ default: m.WorkflowActions })));

const selectName = (s: EditorState) => s.meta.name;
const selectReadOnly = (s: EditorState) => s.meta.readOnly;

/**
 * The workflow's name, the editor's heading: shortened with an ellipsis when the header has no
 * room (the whole name in its title), and renamed in place with Rename.
 */
export function WorkflowTitle() {
  const name = useEditorStore(selectName);
  const readOnly = useEditorStore(selectReadOnly);
  const [editing, setEditing] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const heading = (
    <h1 className="editor__name" title={name} data-testid="workflow-name">
      {name}
    </h1>
  );
  if (editing)
    return (
      <Suspense fallback={heading}>
        <WorkflowNameField
          onDone={(refocus) => {
            setEditing(false);
            // Back to Rename after Enter or Escape, as a keyboard user expects; not after a click away.
            if (refocus) requestAnimationFrame(() => renameButton.current?.focus());
          }}
        />
      </Suspense>
    );
  return (
    <>
      {heading}
      {readOnly ? null : (
        <button
          type="button"
          ref={renameButton}
          className="link-btn editor__rename"
          onClick={() => setEditing(true)}
          data-testid="rename-workflow"
        >
          Rename
        </button>
      )}
    </>
  );
}

const selectViaLink = (s: EditorState) => !!s.meta.viaLink;

/** The header's "More" menu: Duplicate and Delete for the workflow open in the editor (not through an edit link). */
export function WorkflowMenu() {
  const readOnly = useEditorStore(selectReadOnly);
  const viaLink = useEditorStore(selectViaLink);
  const [mode, setMode] = useState<WorkflowActionsMode | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  if (readOnly || viaLink) return null;
  return (
    <div className="workflow-menu">
      <button
        type="button"
        ref={trigger}
        className="btn btn-small"
        aria-haspopup="true"
        aria-expanded={mode === 'menu'}
        aria-controls={mode === 'menu' ? 'workflow-menu' : undefined}
        onClick={() => setMode(mode === 'menu' ? null : 'menu')}
        data-testid="workflow-menu"
      >
        More
      </button>
      {mode ? (
        <Suspense fallback={null}>
          <WorkflowActions mode={mode} onModeChange={setMode} trigger={trigger} />
        </Suspense>
      ) : null}
    </div>
  );
}
