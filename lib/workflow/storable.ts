/**
 * Whether a workflow document can be stored (lib/tools/storable.ts): each tool declaration and
 * each value in it (a node's argument, a placeholder's parameter) nests at most MAX_VALUE_DEPTH
 * levels from its own top, as in a toolkit or a step's stored arguments, so whatever one of them
 * accepts the others accept too; and no text in it holds a NUL character or an unpaired surrogate.
 * Pure.
 */
import { joinPointer, type Issue } from '../result';
import { getStorableIssues } from '../tools/storable';
import type { WorkflowDocument } from './types';

/**
 * Why `doc` cannot be stored, each problem at its JSON path in the document. `text: false` skips
 * the walk for text the database cannot hold, for a document whose every string was checked
 * already (a request body's: lib/http/body.ts refuses such text in the whole body).
 */
export function getDocumentStorageIssues(doc: WorkflowDocument, opts: { text?: boolean } = {}): Issue[] {
  // Text anywhere; nesting where it matters: the document itself is stored as JSON text, which
  // holds any depth, but its declarations and values go on into toolkits and a run's records.
  const issues =
    opts.text === false ? [] : getStorableIssues(doc, { at: '', what: 'The document', maxDepth: Infinity });
  const slot = (value: unknown, at: string, what: string) =>
    issues.push(...getStorableIssues(value, { at, what, text: false }));
  for (const [name, entry] of Object.entries(doc.tools ?? {})) {
    slot(entry?.declaration, joinPointer('/tools', name, 'declaration'), `The declaration of "${name}"`);
  }
  (doc.nodes ?? []).forEach((node, i) => {
    for (const [name, value] of Object.entries(node.args ?? {})) {
      slot(value, joinPointer('/nodes', i, 'args', name), `The value of "${name}"`);
    }
    (node.placeholderParams ?? []).forEach((param, j) =>
      slot(
        param.value,
        joinPointer('/nodes', i, 'placeholderParams', j, 'value'),
        `The value of "${param.name}"`,
      ),
    );
  });
  return issues;
}
