/**
 * The one place where domain objects meet React Flow's (STYLE: xyflow keeps NodeBase
 * framework-neutral). Flow nodes carry only ids; node components read their data by id.
 */
import type { Edge, Node } from '@xyflow/react';
import { asNodeId, type NodeId, type WorkflowDocument, type WorkflowEdge } from '../workflow/types';

export type ToolFlowNode = Node<{ nodeId: string }, 'tool'>;
export type ToolFlowEdge = Edge;

/** An edge to be made, in domain terms. */
export interface DomainConnection {
  source: NodeId;
  sourceOutput: string;
  target: NodeId;
  targetInput: string;
}

/** Handle ids: one target per input parameter, one source per output. */
export const inputHandleId = (name: string) => `in:${name}`;
export const outputHandleId = (name: string) => `out:${name}`;
export const getHandleName = (handleId: string | null | undefined) =>
  (handleId ?? '').replace(/^(in|out):/, '');

/**
 * Flow nodes for a document. `previous` keeps React Flow's own state (selection, measured size)
 * for nodes that still exist, and returns the very same object when nothing React Flow shows
 * changed, so React Flow re-renders only the nodes that did.
 */
export function toFlowNodes(
  doc: WorkflowDocument,
  previous: readonly ToolFlowNode[] = [],
  selected?: ReadonlySet<string>,
): ToolFlowNode[] {
  const before = new Map(previous.map((n) => [n.id, n]));
  return doc.nodes.map((n) => {
    const old = before.get(n.id);
    const isSelected = selected ? selected.has(n.id) : (old?.selected ?? false);
    if (
      old &&
      old.position.x === n.position.x &&
      old.position.y === n.position.y &&
      (old.selected ?? false) === isSelected
    ) {
      return old;
    }
    return {
      ...(old ?? {}),
      id: n.id,
      type: 'tool',
      position: n.position,
      selected: isSelected,
      data: old?.data ?? { nodeId: n.id },
    };
  });
}

/** Flow edges for the document's edges, keeping each edge's selection. */
export function toFlowEdges(
  edges: readonly WorkflowEdge[],
  previous: readonly ToolFlowEdge[] = [],
): ToolFlowEdge[] {
  const before = new Map(previous.map((e) => [e.id, e]));
  return edges.map((e) => {
    const old = before.get(e.id);
    if (old && old.source === e.source && old.target === e.target) return old;
    return {
      id: e.id,
      source: e.source,
      target: e.target,
      sourceHandle: outputHandleId(e.sourceOutput),
      targetHandle: inputHandleId(e.targetInput),
      selected: old?.selected ?? false,
    };
  });
}

/** A React Flow connection (handle ids) in domain terms; undefined when a handle is missing. */
export function toDomainConnection(c: {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}): DomainConnection | undefined {
  if (!c.source || !c.target || !c.sourceHandle || !c.targetHandle) return undefined;
  return {
    source: asNodeId(c.source),
    sourceOutput: getHandleName(c.sourceHandle),
    target: asNodeId(c.target),
    targetInput: getHandleName(c.targetHandle),
  };
}

/** The connection a drag from one handle to another would make, whichever end it started from. */
export function toDomainConnectionFromHandles(
  from: { nodeId: string; id?: string | null; type: 'source' | 'target' },
  to: { nodeId: string; id?: string | null; type: 'source' | 'target' },
): DomainConnection | undefined {
  if (from.type === to.type) return undefined;
  const [source, target] = from.type === 'source' ? [from, to] : [to, from];
  return toDomainConnection({
    source: source.nodeId,
    sourceHandle: source.id ?? null,
    target: target.nodeId,
    targetHandle: target.id ?? null,
  });
}
