/**
 * The unsaved copy of a workflow kept in localStorage until the server has it: its key and its
 * shape. The autosave engine (autosave.ts) writes, restores and clears it; the editor's side
 * (use-autosave.ts, in the first load) checks for one at mount to start the engine at once, and
 * writes it itself if the engine's code cannot be fetched (offline at the first edit).
 */
import type { WorkflowDocument } from '../workflow/types';

/** What is kept in localStorage for a workflow with unsaved changes. */
export interface PendingSave {
  v: 1;
  baseVersion: number;
  savedAt: number;
  doc: WorkflowDocument;
  /** A new name not saved yet, when the workflow was renamed. */
  name?: string;
}

/** localStorage key for a workflow's unsaved document. */
export const getPendingKey = (workflowId: string) => `toolflow:unsaved:${workflowId}`;

/** What the editor says while the server cannot be reached. */
export const OFFLINE_MESSAGE = 'Cannot reach the server. Your changes are kept in this browser; retrying.';

/** Keeps `pending` for the workflow; false when the storage refused it (full or disabled). */
export function writePendingSave(
  storage: Pick<Storage, 'setItem'>,
  workflowId: string,
  pending: PendingSave,
): boolean {
  try {
    storage.setItem(getPendingKey(workflowId), JSON.stringify(pending));
    return true;
  } catch {
    return false;
  }
}
