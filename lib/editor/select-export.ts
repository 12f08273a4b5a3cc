/**
 * The JSON panel's selector: the live v1 export. Apart from selectors.ts so that the export
 * builder (lib/workflow/export.ts) loads with the panel, not with the editor.
 */
import { exportWorkflow } from '../workflow/export';
import type { WorkflowDocument, WorkflowExportV1 } from '../workflow/types';
import { getValueCheck } from './selectors';
import type { EditorState } from './store';

const exportCache = new WeakMap<
  WorkflowDocument,
  { id: string; name: string; valuesChecked: boolean; value: WorkflowExportV1 }
>();

/** The v1 export of the document: exactly what Export downloads. Memoised on the document. */
export const selectExport = (s: EditorState): WorkflowExportV1 => {
  const cached = exportCache.get(s.doc);
  if (
    cached &&
    cached.id === s.meta.id &&
    cached.name === s.meta.name &&
    cached.valuesChecked === s.valuesChecked
  ) {
    return cached.value;
  }
  const value = exportWorkflow(
    s.doc,
    { id: s.meta.id, name: s.meta.name },
    { checkValues: (node) => getValueCheck(s, node) },
  );
  exportCache.set(s.doc, { id: s.meta.id, name: s.meta.name, valuesChecked: s.valuesChecked, value });
  return value;
};
