/**
 * Auto-layout of a whole document: real node sizes where React Flow measured them, estimated
 * from the parameter count for nodes not painted yet (a planner's fresh nodes).
 */
import { moveNodes } from '../workflow/commands';
import { getInputPorts, getOutputPorts } from '../workflow/graph';
import type { WorkflowDocument } from '../workflow/types';
import type { ToolFlowNode } from './adapters';
import { getLayoutPositions, type LayoutBox } from './layout';
import { NODE_WIDTH, getEstimatedNodeHeight } from './node-metrics';

/** The box of every node: measured when known, else estimated (assuming a badge strip, to be safe). */
export function getNodeBoxes(doc: WorkflowDocument, flowNodes: readonly ToolFlowNode[]): LayoutBox[] {
  const measured = new Map(flowNodes.map((n) => [n.id, n.measured]));
  return doc.nodes.map((node) => {
    const size = measured.get(node.id);
    if (size?.width && size.height) return { id: node.id, width: size.width, height: size.height };
    const height = getEstimatedNodeHeight(
      getInputPorts(doc, node).length,
      getOutputPorts(doc, node).length,
      true,
    );
    return { id: node.id, width: NODE_WIDTH, height };
  });
}

/** The document with every node moved to its auto-layout position (same object if none moved). */
export function getLayoutDocument(
  doc: WorkflowDocument,
  flowNodes: readonly ToolFlowNode[],
): WorkflowDocument {
  if (doc.nodes.length === 0) return doc;
  return moveNodes(doc, getLayoutPositions(getNodeBoxes(doc, flowNodes), doc.edges));
}
