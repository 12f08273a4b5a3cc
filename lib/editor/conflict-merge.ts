/**
 * The three-way merge of a save conflict (nothing is silently overwritten, docs/design.md §7.3): my current
 * document against theirs, from the version both started from. Apart from the autosave engine so
 * that the merge code loads with the conflict banner, which shows it and applies it, and not with
 * every editor.
 */
import { mergeDocuments, type MergeResult } from '../workflow/diff';
import type { WorkflowDocument } from '../workflow/types';
import type { SaveConflict } from './autosave';

/** The merge of `mine` with the conflict's server copy, or null while the base is not known. */
export function mergeConflict(conflict: SaveConflict, mine: WorkflowDocument): MergeResult | null {
  if (!conflict.base) return null;
  return mergeDocuments(conflict.base.document, mine, conflict.server.document);
}
