/**
 * Auto-layout of a whole document with dagre (layout.ts). A separate module so the editor loads
 * the layout engine when it first lays a graph out (load-auto-layout.ts), not with the page.
 */
import { moveNodes } from '../workflow/commands';
import type { WorkflowDocument } from '../workflow/types';
import type { ToolFlowNode } from './adapters';
import { getNodeBoxes } from './document-layout';
import { getLayoutPositions } from './layout';

/** The document with every node moved to its auto-layout position (same object if none moved). */
export function getLayoutDocument(
  doc: WorkflowDocument,
  flowNodes: readonly ToolFlowNode[],
): WorkflowDocument {
  if (doc.nodes.length === 0) return doc;
  return moveNodes(doc, getLayoutPositions(getNodeBoxes(doc, flowNodes), doc.edges));
}
