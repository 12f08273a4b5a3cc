'use client';
/**
 * What the editor's header does to the workflow, loaded when first asked for (workflow-header.tsx
 * holds the buttons): the rename field, and the "More" menu with Duplicate (saves first, then
 * opens the copy) and Delete (asks first, then goes back to the home page). The menu closes on
 * Escape, a click outside or Tab away; focus starts on its first item and goes back to "More".
 */
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { deleteWorkflow, duplicateWorkflow } from '@/lib/api/workflows';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import { getPendingKey } from '@/lib/editor/pending-save';
import type { EditorState } from '@/lib/editor/store';
import { getSaveSession, useSaveSession } from '@/lib/editor/use-autosave';
import { setWorkflowName } from '@/lib/editor/workflow-name';
import { WORKFLOW_NAME_MAX } from '@/lib/workflow/name';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import './workflow-manage.css';

/**
 * The editor's heading as a field, to rename the workflow: Enter or leaving the field keeps the
 * new name, Escape the old one. The name goes to the store (`setWorkflowName`), so autosave saves
 * it in order with the edits. `onDone(refocus)`: refocus after Enter or Escape, not after a click away.
 */
export function WorkflowNameField({ onDone }: { onDone(refocus: boolean): void }) {
  const store = useEditorStoreApi();
  const [draft, setDraft] = useState(() => store.getState().meta.name);
  const [done, setDone] = useState(false);

  const finish = (keep: boolean, refocus: boolean) => {
    if (done) return;
    setDone(true);
    if (keep) setWorkflowName(store, draft);
    onDone(refocus);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      finish(true, true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      finish(false, true);
    }
  };
  return (
    <h1 className="editor__name editor__name--editing">
      <input
        className="editor__name-input"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => finish(true, false)}
        maxLength={WORKFLOW_NAME_MAX}
        aria-label="Workflow name"
        // The field replaces the button that asked for it: focus follows.
        autoFocus
        onFocus={(e) => e.target.select()}
        data-testid="workflow-name-input"
      />
    </h1>
  );
}

/** The list of actions, or the question before deleting. */
export type WorkflowActionsMode = 'menu' | 'delete';

const selectName = (s: EditorState) => s.meta.name;

export function WorkflowActions({
  mode,
  onModeChange,
  trigger,
}: {
  mode: WorkflowActionsMode;
  onModeChange(mode: WorkflowActionsMode | null): void;
  trigger: RefObject<HTMLButtonElement | null>;
}) {
  const store = useEditorStoreApi();
  const router = useRouter();
  const name = useEditorStore(selectName);
  const list = useRef<HTMLDivElement>(null);
  const session = useSaveSession(store);
  const [busy, setBusy] = useState<'duplicate' | 'delete' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const deleting = useRef(false);

  const close = (refocus = true) => {
    onModeChange(null);
    // After the next paint: a question being closed still holds focus inside itself until then.
    if (refocus) requestAnimationFrame(() => trigger.current?.focus());
  };

  // Focus starts on the first item; a click outside the menu (and its "More" button) closes it.
  useEffect(() => {
    if (mode !== 'menu') return;
    list.current?.querySelector<HTMLElement>('button')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!list.current?.contains(target) && !trigger.current?.contains(target)) onModeChange(null);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [mode, onModeChange, trigger]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(list.current?.querySelectorAll<HTMLElement>('button:not(:disabled)') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  const duplicate = async () => {
    setBusy('duplicate');
    setError(null);
    // The copy is made from the saved workflow: save what the canvas shows first.
    const session = await getSaveSession(store);
    if (store.getState().saveState !== 'saved') await session?.saveNow();
    if (store.getState().saveState !== 'saved') {
      setBusy(null);
      return setError('Duplicate waits for your changes to be saved; see the message above, then try again.');
    }
    const res = await duplicateWorkflow(store.getState().meta.id);
    setBusy(null);
    if (!res.ok) return setError(res.error.message);
    onModeChange(null);
    router.push(`/w/${res.value.workflow.id}`);
  };

  const remove = async () => {
    const { id } = store.getState().meta;
    // Nothing may be saved once the workflow is gone: autosave stops, and what it kept here goes.
    session?.dispose();
    const res = await deleteWorkflow(id);
    if (!res.ok) {
      deleting.current = false;
      setBusy(null);
      return setError(`${res.error.message} Reload the page before editing again.`);
    }
    try {
      window.localStorage.removeItem(getPendingKey(id));
    } catch {
      // Storage disabled: nothing was kept there.
    }
    router.replace('/');
  };

  if (mode === 'delete')
    return (
      <ConfirmDialog
        title="Delete this workflow?"
        description={`“${name}” is deleted with its history, its share links and its test-runs. This cannot be undone; duplicate it first to keep a copy.`}
        confirmLabel="Delete workflow"
        onConfirm={() => {
          // The menu stays, saying so, until the server answers (an error is shown there).
          deleting.current = true;
          setBusy('delete');
          onModeChange('menu');
          void remove();
        }}
        onClose={() => {
          if (!deleting.current) close();
        }}
      />
    );
  return (
    <div className="workflow-menu__list" id="workflow-menu" ref={list} onKeyDown={onKeyDown}>
      <button
        type="button"
        className="workflow-menu__item"
        disabled={busy !== null}
        onClick={() => void duplicate()}
        data-testid="duplicate-workflow"
      >
        {busy === 'duplicate' ? 'Duplicating…' : 'Duplicate'}
      </button>
      <button
        type="button"
        className="workflow-menu__item workflow-menu__item--danger"
        aria-haspopup="dialog"
        disabled={busy !== null}
        onClick={() => onModeChange('delete')}
        data-testid="delete-workflow"
      >
        {busy === 'delete' ? 'Deleting…' : 'Delete…'}
      </button>
      {error ? (
        <p className="error-text workflow-menu__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
