/**
 * The one place where domain objects meet React Flow's (STYLE: xyflow keeps NodeBase
 * framework-neutral). Flow nodes carry only ids; node components read their data by id.
 */
import type { Edge, Node } from '@xyflow/react';
import type { WorkflowDocument, WorkflowEdge } from '../workflow/types';

export type ToolFlowNode = Node<{ nodeId: string }, 'tool'>;
export type ToolFlowEdge = Edge;

/** Handle ids: one target per input parameter, one source per output. */
export const inputHandleId = (name: string) => `in:${name}`;
export const outputHandleId = (name: string) => `out:${name}`;
export const getHandleName = (handleId: string | null | undefined) =>
  (handleId ?? '').replace(/^(in|out):/, '');

/**
 * Flow nodes for a document. `previous` keeps React Flow's own state (selection, measured size)
 * for nodes that still exist, so rebuilding after an edit does not reset it.
 */
export function toFlowNodes(doc: WorkflowDocument, previous: readonly ToolFlowNode[] = []): ToolFlowNode[] {
  const before = new Map(previous.map((n) => [n.id, n]));
  return doc.nodes.map((n) => {
    const old = before.get(n.id);
    if (old && old.position.x === n.position.x && old.position.y === n.position.y) return old;
    return {
      ...(old ?? {}),
      id: n.id,
      type: 'tool',
      position: n.position,
      data: old?.data ?? { nodeId: n.id },
    };
  });
}

/** Flow edges for the document's edges. */
export function toFlowEdges(edges: readonly WorkflowEdge[]): ToolFlowEdge[] {
  return edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    sourceHandle: outputHandleId(e.sourceOutput),
    targetHandle: inputHandleId(e.targetInput),
  }));
}
