/**
 * Renaming the workflow open in an editor: the store's `meta.name`, which autosave (autosave.ts)
 * saves with the document, in the same order as every other change, so a rename never races an
 * edit for a version. Not an undoable document edit. Kept out of the store's own actions so its
 * code loads with the rename field, not with the editor.
 */
import type { EditorStore } from './store';

/** Sets the name, trimmed; ignored when blank, unchanged, or the editor is read-only. */
export function setWorkflowName(store: EditorStore, name: string): void {
  const trimmed = name.trim();
  const { meta } = store.getState();
  if (!trimmed || trimmed === meta.name || meta.readOnly) return;
  store.setState({ meta: { ...meta, name: trimmed }, saveState: 'dirty' });
}
