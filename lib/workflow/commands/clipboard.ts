/**
 * Copy and paste of nodes. A copy carries the nodes, the edges among them and the declaration
 * snapshots they use, so it can be pasted after the originals are deleted (or into another
 * workflow). Pure; complements lib/workflow/commands.ts.
 */
import { getUniqueNodeId, removeEdgesWithoutPorts } from './document';
import { createEdgeId, getToolSnapshot } from '../graph';
import { cloneJson, createRecord } from '../../tools/json-value';
import type { NodeId, ToolSnapshot, WorkflowDocument, WorkflowEdge, WorkflowNode, XY } from '../types';

/** What Copy keeps. Plain JSON: it can go through the system clipboard unchanged. */
export interface NodeClipboard {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  tools: Record<string, ToolSnapshot>;
}

/** The given nodes (in document order), the edges between two of them, and their tools. */
export function copyNodes(doc: WorkflowDocument, ids: Iterable<NodeId | string>): NodeClipboard {
  const chosen = new Set<string>(ids);
  const nodes = doc.nodes.filter((n) => chosen.has(n.id));
  const edges = doc.edges.filter((e) => chosen.has(e.source) && chosen.has(e.target));
  const tools = createRecord<ToolSnapshot>();
  for (const n of nodes) {
    const snapshot = getToolSnapshot(doc, n.tool);
    if (snapshot) tools[n.tool] = snapshot;
  }
  return cloneJson({ nodes, edges, tools });
}

/**
 * Paste a clipboard: every node gets a new unique id (`<id>_copy_<n>`) and is shifted by
 * `offset`; edges among the pasted nodes are re-made between the copies; snapshots the document
 * lacks are added (a document's own snapshot of the same tool wins, and the copies keep their
 * `toolHash`, so a difference shows as drift). Returns the new ids in clipboard order.
 */
export function pasteNodes(
  doc: WorkflowDocument,
  clipboard: NodeClipboard,
  offset: XY,
): { doc: WorkflowDocument; ids: NodeId[] } {
  if (clipboard.nodes.length === 0) return { doc, ids: [] };
  const taken = new Set<string>();
  const newId = new Map<string, NodeId>();
  for (const node of clipboard.nodes) {
    const id = getUniqueNodeId(doc, `${node.id.replace(/_copy_\d+$/, '')}_copy`, taken);
    taken.add(id);
    newId.set(node.id, id);
  }
  const copies = clipboard.nodes.map((node): WorkflowNode => ({
    ...cloneJson(node),
    id: newId.get(node.id)!,
    position: { x: node.position.x + offset.x, y: node.position.y + offset.y },
  }));
  const edges = clipboard.edges
    .filter((e) => newId.has(e.source) && newId.has(e.target))
    .map((e): WorkflowEdge => {
      const source = newId.get(e.source)!;
      const target = newId.get(e.target)!;
      return {
        id: createEdgeId(source, e.sourceOutput, target, e.targetInput),
        source,
        sourceOutput: e.sourceOutput,
        target,
        targetInput: e.targetInput,
      };
    });
  const missing = Object.keys(clipboard.tools).filter((name) => !getToolSnapshot(doc, name));
  const tools = missing.length
    ? createRecord([
        ...Object.entries(doc.tools),
        ...missing.map((name) => [name, clipboard.tools[name]] as const),
      ])
    : doc.tools;
  // Nodes of the document that called a tool undeclared until now get its ports: an edge into
  // one they then lack goes (with a note), as when a node of a changed tool is added.
  const before = missing.length ? removeEdgesWithoutPorts({ ...doc, tools }, missing) : doc;
  return {
    doc: { ...before, tools, nodes: [...before.nodes, ...copies], edges: [...before.edges, ...edges] },
    ids: copies.map((c) => c.id),
  };
}
