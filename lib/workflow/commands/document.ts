/**
 * Pure editing commands the editor store calls: each takes a document and returns the next one
 * (untouched nodes and edges are shared; a command that changes nothing returns the same
 * document, so the store can skip an undo step). Refusals are values with a reason.
 */
import { hashDeclaration } from '../../tools/canonical-json';
import type { ToolDeclaration } from '../../tools/types';
import { err, ok, type Issue, type Result } from '../../result';
import { createRecord, getMember, hasMember } from '../../tools/json-value';
import {
  appendEdge,
  appendNode,
  createEdgeId,
  findEdgeInto,
  findNode,
  getNodeIndex,
  getInputPorts,
  getOutputPorts,
  getToolSnapshot,
  hasPath,
  own,
  replaceNode,
} from '../graph';
import { getTypeClash } from '../typed-wiring';
import {
  asNodeId,
  type EdgeId,
  type NodeId,
  type NodeIssue,
  type WorkflowDocument,
  type WorkflowEdge,
  type WorkflowNode,
  type XY,
} from '../types';

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
  const index = getNodeIndex(doc.nodes, id);
  if (index === -1) return doc;
  const next = change(doc.nodes[index]);
  if (next === doc.nodes[index]) return doc;
  return { ...doc, nodes: replaceNode(doc.nodes, index, next) };
}

/** Drop snapshots of tools no node uses any more (an export lists only tools in use). */
function pruneTools(doc: WorkflowDocument): WorkflowDocument {
  const used = new Set(doc.nodes.map((n) => n.tool));
  const names = Object.keys(doc.tools);
  if (names.every((name) => used.has(name))) return doc;
  const tools = createRecord(
    names.filter((name) => used.has(name)).map((name) => [name, doc.tools[name]] as const),
  );
  return { ...doc, tools };
}

/** What a call records on its node besides the args (see WorkflowNode). */
export type NodeExtras = Pick<WorkflowNode, 'unknownArgs' | 'rawArguments' | 'notes'>;

/**
 * Add a node calling `decl` at `position`, appended last, with id `id` or the first free
 * `step_<n>`. The declaration is snapshotted; a changed declaration of the same name replaces
 * the snapshot for every node of that tool (a document holds one declaration per tool name),
 * and nodes built from the old one keep their `toolHash` so drift shows. An edge into an input,
 * or from an output, that the new declaration no longer has, or whose types no longer fit, is
 * removed, with a warning on the node it fed: left in place it would export a file that import
 * refuses.
 *
 * `decl` may be a bare tool name: a call of a tool nobody declared (a plan naming a tool its
 * tools file lacks) becomes a node that keeps its args and shows the tool as undeclared.
 */
export function addNode(
  doc: WorkflowDocument,
  decl: ToolDeclaration | string,
  position: XY,
  args: Record<string, unknown> = {},
  id: NodeId = getUniqueNodeId(doc),
  extras: NodeExtras = {},
): WorkflowDocument {
  const current = typeof decl === 'string' ? undefined : getToolSnapshot(doc, decl.name);
  const hash =
    typeof decl === 'string'
      ? undefined
      : current?.declaration === decl
        ? current.hash
        : hashDeclaration(decl);
  // A fixed key order (notes last, as addNodeNotes appends them), so that adding a node with
  // its notes and adding it then noting it give the same JSON.
  const node: WorkflowNode = {
    id,
    tool: typeof decl === 'string' ? decl : decl.name,
    position: { x: position.x, y: position.y },
    args: createRecord(args),
  };
  if (hash !== undefined) node.toolHash = hash;
  if (extras.unknownArgs && extras.unknownArgs.length > 0) node.unknownArgs = [...extras.unknownArgs];
  if (extras.rawArguments !== undefined) node.rawArguments = extras.rawArguments;
  if (extras.notes && extras.notes.length > 0) node.notes = [...extras.notes];
  if (typeof decl === 'string' || hash === undefined) return { ...doc, nodes: appendNode(doc.nodes, node) };
  if (current?.hash === hash) return { ...doc, nodes: appendNode(doc.nodes, node) };
  // A record without a prototype: assignment defines a member, even for a tool named "__proto__".
  const tools = createRecord(doc.tools);
  tools[decl.name] = { declaration: decl, hash };
  const fitted = removeEdgesWithoutPorts({ ...doc, tools }, [decl.name]);
  return { ...fitted, nodes: appendNode(fitted.nodes, node) };
}

/** Append notes to a node (a reference that could not be wired, a repaired argument). */
export function addNodeNotes(
  doc: WorkflowDocument,
  id: NodeId | string,
  notes: readonly NodeIssue[],
): WorkflowDocument {
  if (notes.length === 0) return doc;
  return updateNode(doc, id, (node) => ({ ...node, notes: [...(node.notes ?? []), ...notes] }));
}

/** Record args a node was sent that its tool does not declare (shown as unknown args). */
export function addUnknownArgs(
  doc: WorkflowDocument,
  id: NodeId | string,
  names: readonly string[],
): WorkflowDocument {
  return updateNode(doc, id, (node) => {
    const fresh = names.filter((n) => !(node.unknownArgs ?? []).includes(n));
    return fresh.length === 0 ? node : { ...node, unknownArgs: [...(node.unknownArgs ?? []), ...fresh] };
  });
}

/**
 * After the snapshots of `toolNames` changed (or first appeared): remove every edge into an
 * input, or from an output, that a node of those tools no longer has, or whose ends' types no
 * longer fit (typed-wiring.ts), and note on the node the edge fed why it went. Returns the same
 * document when every edge still fits.
 */
export function removeEdgesWithoutPorts(
  doc: WorkflowDocument,
  toolNames: Iterable<string>,
): WorkflowDocument {
  const names = new Set(toolNames);
  const byId = new Map(doc.nodes.filter((n) => names.has(n.tool)).map((n) => [n.id as string, n]));
  if (byId.size === 0) return doc;
  const notes = new Map<string, NodeIssue[]>();
  const edges = own(
    doc.edges.filter((edge) => {
      const target = byId.get(edge.target);
      const source = byId.get(edge.source);
      if (!target && !source) return true;
      const gone = getGoneReason(doc, edge, target, source);
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
    }),
  );
  if (notes.size === 0) return doc;
  const nodes = own(
    doc.nodes.map((n) => (notes.has(n.id) ? { ...n, notes: [...(n.notes ?? []), ...notes.get(n.id)!] } : n)),
  );
  return { ...doc, nodes, edges };
}

/**
 * Why `edge` cannot stay now that the tool of `target` or `source` (the ends whose tool changed)
 * has a new declaration: a port it lost, or types that no longer fit (the typed-wiring rule).
 */
function getGoneReason(
  doc: WorkflowDocument,
  edge: WorkflowEdge,
  target: WorkflowNode | undefined,
  source: WorkflowNode | undefined,
): string | undefined {
  const to = target ?? findNode(doc, edge.target);
  const from = source ?? findNode(doc, edge.source);
  if (!to || !from) return undefined;
  const input = getInputPorts(doc, to).find((p) => p.name === edge.targetInput);
  if (!input && target) {
    return `"${target.id}" has no input "${edge.targetInput}" in the current declaration of tool "${target.tool}"`;
  }
  const out = getOutputPorts(doc, from).find((p) => p.name === edge.sourceOutput);
  if (!out && source) {
    return `"${source.id}" has no output "${edge.sourceOutput}" in the current declaration of tool "${source.tool}"`;
  }
  const clash = out && input && getTypeClash(out, input);
  return clash ? `${clash} in the current declarations, and those types do not fit` : undefined;
}

/** Remove nodes, every edge touching them, and snapshots no remaining node uses. */
export function removeNodes(doc: WorkflowDocument, ids: Iterable<NodeId | string>): WorkflowDocument {
  const gone = new Set<string>(ids);
  if (!doc.nodes.some((n) => gone.has(n.id))) return doc;
  return pruneTools({
    ...doc,
    nodes: own(doc.nodes.filter((n) => !gone.has(n.id))),
    edges: own(doc.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target))),
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
 * Wire an output to an input; the node's notes about the input go (the edge is its value now).
 * Refused, with the reason, when an end does not exist, the types do not fit (the typed-wiring
 * rule, typed-wiring.ts), the input already has an edge, or the edge would feed a node from
 * itself or close a cycle.
 */
export function connect(doc: WorkflowDocument, c: Connection): Result<WorkflowDocument> {
  const refuse = (path: string, code: string, message: string) => err<Issue[]>([{ path, code, message }]);
  const source = findNode(doc, c.source);
  const target = findNode(doc, c.target);
  if (!source) return refuse('/source', 'unknown_node', `There is no node "${c.source}" to connect from.`);
  if (!target) return refuse('/target', 'unknown_node', `There is no node "${c.target}" to connect to.`);
  const outputs = getOutputPorts(doc, source);
  const out = outputs.find((p) => p.name === c.sourceOutput);
  if (!out) {
    return refuse(
      '/sourceOutput',
      'unknown_port',
      `Node "${source.id}" has no output "${c.sourceOutput}"; its outputs: ${listNames(outputs)}.`,
    );
  }
  const inputs = getInputPorts(doc, target);
  // A node whose tool is undeclared takes any named input (its declaration is unknown).
  const input =
    inputs.find((p) => p.name === c.targetInput) ??
    (isUndeclared(doc, target) && c.targetInput !== ''
      ? { name: c.targetInput, type: 'any' as const }
      : undefined);
  if (!input) {
    return refuse(
      '/targetInput',
      'unknown_port',
      `Node "${target.id}" has no input "${c.targetInput}"; its inputs: ${listNames(inputs)}.`,
    );
  }
  if (source.id === target.id) {
    return refuse(
      '/target',
      'self_loop',
      `A node cannot feed its own input: connect "${source.id}" to another node.`,
    );
  }
  const clash = getTypeClash(out, input);
  if (clash !== undefined) {
    return refuse('/targetInput', 'type_mismatch', `${clash}: pick an input of type ${out.type} (or any).`);
  }
  const existing = findEdgeInto(doc.edges, target.id, input.name);
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
  // The edge is the input's value now: notes about the value it had go.
  const noted = clearParamNotes(doc, target.id, [input.name]);
  return ok({ ...noted, edges: appendEdge(doc.edges, edge) });
}

function listNames(ports: readonly { name: string }[]): string {
  return ports.length === 0 ? '(none)' : ports.map((p) => `"${p.name}"`).join(', ');
}

function isUndeclared(doc: WorkflowDocument, node: WorkflowNode): boolean {
  return !getToolSnapshot(doc, node.tool) && !node.placeholderParams;
}

/** Remove one edge; the input falls back to its arg, default or zero value. */
export function disconnect(doc: WorkflowDocument, edgeId: EdgeId | string): WorkflowDocument {
  if (!doc.edges.some((e) => e.id === edgeId)) return doc;
  return { ...doc, edges: own(doc.edges.filter((e) => e.id !== edgeId)) };
}

/**
 * `node` without its notes about the parameters `names`: a note about a parameter (a reference
 * that could not be wired, a value the model's reply was cut off in, an edge a changed
 * declaration removed) describes the value it had, and goes when the value is replaced. The
 * same node when it has none; a node left without notes has no `notes` member, like one never
 * noted.
 */
function withoutNotesAbout(node: WorkflowNode, names: ReadonlySet<string>): WorkflowNode {
  const notes = node.notes ?? [];
  if (!notes.some((n) => n.param !== undefined && names.has(n.param))) return node;
  const kept = notes.filter((n) => n.param === undefined || !names.has(n.param));
  if (kept.length > 0) return { ...node, notes: kept };
  const { notes: _gone, ...rest } = node;
  return rest;
}

/**
 * Drop a node's notes about the parameters `names` (see `withoutNotesAbout`); the commands that
 * give a parameter a new value (setArg, resetArg, connect, update_step) do it themselves.
 */
export function clearParamNotes(
  doc: WorkflowDocument,
  id: NodeId | string,
  names: Iterable<string>,
): WorkflowDocument {
  const set = new Set(names);
  if (set.size === 0) return doc;
  return updateNode(doc, id, (node) => withoutNotesAbout(node, set));
}

/** Set one tool_arg of a node (rule 2: even `null` is a value); notes about it go. */
export function setArg(
  doc: WorkflowDocument,
  nodeId: NodeId | string,
  name: string,
  value: unknown,
): WorkflowDocument {
  return updateNode(doc, nodeId, (node) => {
    const kept = withoutNotesAbout(node, new Set([name]));
    if (hasMember(node.args, name) && Object.is(node.args[name], value)) return kept;
    const args = createRecord(node.args);
    args[name] = value;
    return { ...kept, args };
  });
}

/**
 * Remove one tool_arg so the parameter falls back to its default or zero value; notes about it
 * go (even when it had no arg: the default is now the chosen value).
 */
export function resetArg(doc: WorkflowDocument, nodeId: NodeId | string, name: string): WorkflowDocument {
  return updateNode(doc, nodeId, (node) => {
    const kept = withoutNotesAbout(node, new Set([name]));
    if (!hasMember(node.args, name)) return kept;
    const args = createRecord(node.args);
    delete args[name];
    return { ...kept, args };
  });
}

/** Move nodes to new positions (ids not in the document are ignored). */
export function moveNodes(
  doc: WorkflowDocument,
  positions: ReadonlyMap<string, XY> | Record<string, XY>,
): WorkflowDocument {
  const get = (id: string) =>
    positions instanceof Map ? positions.get(id) : getMember(positions as Record<string, XY>, id);
  let changed = false;
  const nodes = doc.nodes.map((node) => {
    const to = get(node.id);
    if (!to || (to.x === node.position.x && to.y === node.position.y)) return node;
    changed = true;
    return { ...node, position: { x: to.x, y: to.y } };
  });
  return changed ? { ...doc, nodes: own(nodes) } : doc;
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
