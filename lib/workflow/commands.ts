/**
 * Pure editing commands the editor store calls: each takes a document and returns the next one
 * (untouched nodes and edges are shared; a command that changes nothing returns the same
 * document, so the store can skip an undo step). Refusals are values with a reason.
 */
import { hashDeclaration } from '../tools/canonical-json';
import type { ToolDeclaration } from '../tools/types';
import { err, ok, type Issue, type Result } from '../result';
import { cloneJson, setJsonMember } from './params';
import {
  createEdgeId,
  getInputPorts,
  getOutputPorts,
  getToolSnapshot,
  hasPath,
  isTypeCompatible,
} from './graph';
import {
  asNodeId,
  type EdgeId,
  type NodeId,
  type NodeIssue,
  type WorkflowDocument,
  type WorkflowNode,
  type XY,
} from './types';

export { isTypeCompatible } from './graph';

/** The first `<base>_<n>` (n ≥ 1) that no node of the document uses. */
export function getUniqueNodeId(doc: WorkflowDocument, base = 'step', taken?: ReadonlySet<string>): NodeId {
  const used = new Set<string>(doc.nodes.map((n) => n.id));
  for (let n = 1; ; n++) {
    const id = `${base}_${n}`;
    if (!used.has(id) && !taken?.has(id)) return asNodeId(id);
  }
}

function updateNode(
  doc: WorkflowDocument,
  id: NodeId | string,
  change: (node: WorkflowNode) => WorkflowNode,
): WorkflowDocument {
  const index = doc.nodes.findIndex((n) => n.id === id);
  if (index === -1) return doc;
  const next = change(doc.nodes[index]);
  if (next === doc.nodes[index]) return doc;
  const nodes = doc.nodes.slice();
  nodes[index] = next;
  return { ...doc, nodes };
}

/** Drop snapshots of tools no node uses any more (an export lists only tools in use). */
function pruneTools(doc: WorkflowDocument): WorkflowDocument {
  const used = new Set(doc.nodes.map((n) => n.tool));
  const names = Object.keys(doc.tools);
  if (names.every((name) => used.has(name))) return doc;
  const tools: WorkflowDocument['tools'] = {};
  for (const name of names) if (used.has(name)) setJsonMember(tools, name, doc.tools[name]);
  return { ...doc, tools };
}

/**
 * Add a node calling `decl` at `position`, appended last, with id `id` or the first free
 * `step_<n>`. The declaration is snapshotted; a changed declaration of the same name replaces
 * the snapshot for every node of that tool (a document holds one declaration per tool name),
 * and nodes built from the old one keep their `toolHash` so drift shows. An edge into an input,
 * or from an output, that the new declaration no longer has is removed, with a warning on the
 * node it fed: left in place it would export a file that import refuses.
 */
export function addNode(
  doc: WorkflowDocument,
  decl: ToolDeclaration,
  position: XY,
  args: Record<string, unknown> = {},
  id: NodeId = getUniqueNodeId(doc),
): WorkflowDocument {
  const current = getToolSnapshot(doc, decl.name);
  const hash = current?.declaration === decl ? current.hash : hashDeclaration(decl);
  const node: WorkflowNode = {
    id,
    tool: decl.name,
    position: { x: position.x, y: position.y },
    args: { ...args },
    toolHash: hash,
  };
  if (current?.hash === hash) return { ...doc, nodes: [...doc.nodes, node] };
  // A computed key defines an own member, even for a tool named "__proto__".
  const tools = { ...doc.tools, [decl.name]: { declaration: decl, hash } };
  const fitted = removeEdgesWithoutPorts({ ...doc, tools }, [decl.name]);
  return { ...fitted, nodes: [...fitted.nodes, node] };
}

/**
 * After the snapshots of `toolNames` changed (or first appeared): remove every edge into an
 * input, or from an output, that a node of those tools no longer has, and note on the node the
 * edge fed why it went. Returns the same document when every edge still fits.
 */
export function removeEdgesWithoutPorts(
  doc: WorkflowDocument,
  toolNames: Iterable<string>,
): WorkflowDocument {
  const names = new Set(toolNames);
  const byId = new Map(doc.nodes.filter((n) => names.has(n.tool)).map((n) => [n.id as string, n]));
  if (byId.size === 0) return doc;
  const notes = new Map<string, NodeIssue[]>();
  const edges = doc.edges.filter((edge) => {
    const target = byId.get(edge.target);
    const source = byId.get(edge.source);
    let gone: string | undefined;
    if (target && !getInputPorts(doc, target).some((p) => p.name === edge.targetInput)) {
      gone = `"${target.id}" has no input "${edge.targetInput}" in the current declaration of tool "${target.tool}"`;
    } else if (source && !getOutputPorts(doc, source).some((p) => p.name === edge.sourceOutput)) {
      gone = `"${source.id}" has no output "${edge.sourceOutput}" in the current declaration of tool "${source.tool}"`;
    }
    if (gone === undefined) return true;
    const list = notes.get(edge.target) ?? [];
    list.push({
      severity: 'warning',
      code: 'edge_removed',
      message: `The edge ${edge.source}.${edge.sourceOutput} → ${edge.target}.${edge.targetInput} was removed: ${gone}. Connect the input again if it still needs a value.`,
      param: edge.targetInput,
    });
    notes.set(edge.target, list);
    return false;
  });
  if (notes.size === 0) return doc;
  const nodes = doc.nodes.map((n) =>
    notes.has(n.id) ? { ...n, notes: [...(n.notes ?? []), ...notes.get(n.id)!] } : n,
  );
  return { ...doc, nodes, edges };
}

/** Remove nodes, every edge touching them, and snapshots no remaining node uses. */
export function removeNodes(doc: WorkflowDocument, ids: Iterable<NodeId | string>): WorkflowDocument {
  const gone = new Set<string>(ids);
  if (!doc.nodes.some((n) => gone.has(n.id))) return doc;
  return pruneTools({
    ...doc,
    nodes: doc.nodes.filter((n) => !gone.has(n.id)),
    edges: doc.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)),
  });
}

/** The two ends of an edge to be made. */
export interface Connection {
  source: NodeId | string;
  sourceOutput: string;
  target: NodeId | string;
  targetInput: string;
}

/**
 * Wire an output to an input. Refused, with the reason, when an end does not exist, the types
 * do not fit (`isTypeCompatible`), the input already has an edge, or the edge would feed a node
 * from itself or close a cycle.
 */
export function connect(doc: WorkflowDocument, c: Connection): Result<WorkflowDocument> {
  const refuse = (path: string, code: string, message: string) => err<Issue[]>([{ path, code, message }]);
  const source = doc.nodes.find((n) => n.id === c.source);
  const target = doc.nodes.find((n) => n.id === c.target);
  if (!source) return refuse('/source', 'unknown_node', `There is no node "${c.source}" to connect from.`);
  if (!target) return refuse('/target', 'unknown_node', `There is no node "${c.target}" to connect to.`);
  const out = getOutputPorts(doc, source).find((p) => p.name === c.sourceOutput);
  if (!out) {
    return refuse('/sourceOutput', 'unknown_port', `Node "${source.id}" has no output "${c.sourceOutput}".`);
  }
  const input = getInputPorts(doc, target).find((p) => p.name === c.targetInput);
  if (!input) {
    return refuse('/targetInput', 'unknown_port', `Node "${target.id}" has no input "${c.targetInput}".`);
  }
  if (source.id === target.id) {
    return refuse(
      '/target',
      'self_loop',
      `A node cannot feed its own input: connect "${source.id}" to another node.`,
    );
  }
  if (!isTypeCompatible(out.type, input.type)) {
    return refuse(
      '/targetInput',
      'type_mismatch',
      `Output "${out.name}" is ${out.type} but input "${input.name}" takes ${input.type}: pick an input of type ${out.type} (or any).`,
    );
  }
  const existing = doc.edges.find((e) => e.target === target.id && e.targetInput === input.name);
  if (existing) {
    return refuse(
      '/targetInput',
      'input_taken',
      `Input "${input.name}" of "${target.id}" is already fed by "${existing.source}.${existing.sourceOutput}": remove that edge first.`,
    );
  }
  if (hasPath(doc.edges, target.id, source.id)) {
    return refuse(
      '/target',
      'cycle',
      `"${source.id}" already depends on "${target.id}", so this edge would close a cycle.`,
    );
  }
  const edge = {
    id: createEdgeId(source.id, out.name, target.id, input.name),
    source: source.id,
    sourceOutput: out.name,
    target: target.id,
    targetInput: input.name,
  };
  return ok({ ...doc, edges: [...doc.edges, edge] });
}

/** Remove one edge; the input falls back to its arg, default or zero value. */
export function disconnect(doc: WorkflowDocument, edgeId: EdgeId | string): WorkflowDocument {
  if (!doc.edges.some((e) => e.id === edgeId)) return doc;
  return { ...doc, edges: doc.edges.filter((e) => e.id !== edgeId) };
}

/** Set one tool_arg of a node (rule 2: even `null` is a value). */
export function setArg(
  doc: WorkflowDocument,
  nodeId: NodeId | string,
  name: string,
  value: unknown,
): WorkflowDocument {
  return updateNode(doc, nodeId, (node) => {
    if (Object.prototype.hasOwnProperty.call(node.args, name) && Object.is(node.args[name], value))
      return node;
    return { ...node, args: { ...node.args, [name]: value } };
  });
}

/** Remove one tool_arg so the parameter falls back to its default or zero value. */
export function resetArg(doc: WorkflowDocument, nodeId: NodeId | string, name: string): WorkflowDocument {
  return updateNode(doc, nodeId, (node) => {
    if (!Object.prototype.hasOwnProperty.call(node.args, name)) return node;
    const { [name]: _removed, ...args } = node.args;
    return { ...node, args };
  });
}

/** Move nodes to new positions (ids not in the document are ignored). */
export function moveNodes(
  doc: WorkflowDocument,
  positions: ReadonlyMap<string, XY> | Record<string, XY>,
): WorkflowDocument {
  const get = (id: string) =>
    positions instanceof Map
      ? positions.get(id)
      : Object.prototype.hasOwnProperty.call(positions, id)
        ? (positions as Record<string, XY>)[id]
        : undefined;
  let changed = false;
  const nodes = doc.nodes.map((node) => {
    const to = get(node.id);
    if (!to || (to.x === node.position.x && to.y === node.position.y)) return node;
    changed = true;
    return { ...node, position: { x: to.x, y: to.y } };
  });
  return changed ? { ...doc, nodes } : doc;
}

/** Set a node's title; an empty or blank label removes it (the tool name shows instead). */
export function renameNode(doc: WorkflowDocument, id: NodeId | string, label: string): WorkflowDocument {
  const trimmed = label.trim();
  return updateNode(doc, id, (node) => {
    if ((node.label ?? '') === trimmed) return node;
    if (trimmed === '') {
      const { label: _old, ...rest } = node;
      return rest;
    }
    return { ...node, label: trimmed };
  });
}

/**
 * Copy nodes, shifted by `offset`, with new unique ids (`<id>_copy_<n>`); edges between two
 * copied nodes are copied too, edges from outside are not (an input takes one edge). The
 * copies are appended in document order.
 */
export function duplicateNodes(
  doc: WorkflowDocument,
  ids: Iterable<NodeId | string>,
  offset: XY,
): WorkflowDocument {
  const chosen = new Set<string>(ids);
  const originals = doc.nodes.filter((n) => chosen.has(n.id));
  if (originals.length === 0) return doc;
  const taken = new Set<string>();
  const newId = new Map<string, NodeId>();
  for (const node of originals) {
    const id = getUniqueNodeId(doc, `${node.id}_copy`, taken);
    taken.add(id);
    newId.set(node.id, id);
  }
  const copies = originals.map((node): WorkflowNode => ({
    ...cloneJson(node), // a copy never shares arg objects with its original
    id: newId.get(node.id)!,
    position: { x: node.position.x + offset.x, y: node.position.y + offset.y },
  }));
  const edges = doc.edges
    .filter((e) => newId.has(e.source) && newId.has(e.target))
    .map((e) => {
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
  return { ...doc, nodes: [...doc.nodes, ...copies], edges: [...doc.edges, ...edges] };
}
