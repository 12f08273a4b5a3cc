/**
 * Graph queries shared by the plan builder, the commands and import: the ports a node has, edge
 * ids and cycle detection. Which port types may be wired together is typed-wiring.ts.
 */
import { getValueType } from '../tools/json-schema';
import { getMember, hasMember } from '../tools/json-value';
import { DEFAULT_SYSTEM_PARAMS } from '../tools/types';
import { getOutputParameters, getParamPlan } from './params';
import {
  asEdgeId,
  type EdgeId,
  type NodeId,
  type OutputParameter,
  type ParamType,
  type ToolSnapshot,
  type WorkflowDocument,
  type WorkflowEdge,
  type WorkflowNode,
} from './types';

/** A named, typed handle on a node. */
export interface Port {
  name: string;
  type: ParamType;
}

const RESULT_PORT: readonly Port[] = [{ name: 'result', type: 'any' }];

/**
 * The snapshot of tool `name` in the document, if it has one. A tool may be named like an
 * Object.prototype member (`constructor`, `toString`, `__proto__`) and the document may come
 * from anywhere, so this is `getMember` (lib/tools/json-value.ts).
 */
export function getToolSnapshot(doc: WorkflowDocument, name: string): ToolSnapshot | undefined {
  return getMember(doc.tools, name);
}

/** The input ports of a node: its declaration's non-system parameters, in order. */
export function getInputPorts(doc: WorkflowDocument, node: WorkflowNode): readonly Port[] {
  const decl = getToolSnapshot(doc, node.tool)?.declaration;
  if (decl) return getParamPlan(decl, doc.systemParams ?? DEFAULT_SYSTEM_PARAMS);
  if (node.placeholderParams) return node.placeholderParams;
  // As buildNodeParameters for an undeclared tool: its args, then the inputs edges feed (an
  // arg named "" is not a parameter: a port needs a name).
  const ports: Port[] = Object.keys(node.args)
    .filter((name) => name !== '' && node.args[name] !== undefined)
    .map((name) => ({ name, type: getValueType(node.args[name]) }));
  for (const e of doc.edges) {
    if (e.target === node.id && e.targetInput !== '' && !hasMember(node.args, e.targetInput))
      ports.push({ name: e.targetInput, type: 'any' });
  }
  return ports;
}

/** The output ports of a node: outputSchema properties, else one `result` port. */
export function getOutputPorts(doc: WorkflowDocument, node: WorkflowNode): readonly OutputParameter[] {
  const decl = getToolSnapshot(doc, node.tool)?.declaration;
  if (decl) return getOutputParameters(decl);
  return node.placeholderOutputs ?? RESULT_PORT;
}

/** The id of an edge, derived from its endpoints (an input takes at most one edge, so unique). */
export function createEdgeId(
  source: string,
  sourceOutput: string,
  target: string,
  targetInput: string,
): EdgeId {
  return asEdgeId(`${source}.${sourceOutput}->${target}.${targetInput}`);
}

// ---- batches ----
// The commands return a new document and never change the one they are given, which the editor
// relies on (undo, React's change detection). A batch of commands — a plan applied call by call,
// a run's operations replayed — hands each intermediate document only to the next command, so
// copying the nodes (or edges) array on every append made a batch of n calls quadratic. Inside a
// batch, an array the batch itself made is grown in place instead; an array from outside (the
// document the batch started from) is copied first, as always. When the batch returns, its
// arrays are as immutable as any other: the next batch copies them before changing anything.

let owned: WeakSet<readonly unknown[]> | undefined;

/**
 * Run `change` (a sequence of commands) as one batch, so that applying n calls stays linear.
 * Only the result of the batch may leave it: an intermediate document of the batch may see the
 * batch's later appends. Nested batches join the outer one.
 */
export function inBatch<T>(change: () => T): T {
  if (owned) return change();
  owned = new WeakSet();
  try {
    return change();
  } finally {
    owned = undefined;
  }
}

/** Mark an array the running batch made (a no-op outside a batch). */
export function own<T extends readonly unknown[]>(array: T): T {
  owned?.add(array);
  return array;
}

function isOwned<T>(array: readonly T[]): array is T[] {
  return owned !== undefined && owned.has(array);
}

// ---- lookups by id ----
// A call adds one node and its edges to a document that may hold thousands; a scan per lookup
// made building a plan quadratic. Lookups are cached per nodes (or edges) array, and an append
// made through appendNode/appendEdge extends its parent's cache. A cache may be shared with an
// older array (or a sibling that appended something else), so every hit is checked against the
// array and a mismatch falls back to a scan: the answer is always the array's.

const nodeIndexes = new WeakMap<readonly WorkflowNode[], Map<string, number>>();

/** Where node `id` sits in `nodes`, or -1. */
export function getNodeIndex(nodes: readonly WorkflowNode[], id: string): number {
  let index = nodeIndexes.get(nodes);
  if (!index) {
    index = new Map();
    for (let i = 0; i < nodes.length; i++) index.set(nodes[i].id, i);
    nodeIndexes.set(nodes, index);
  }
  const at = index.get(id);
  if (at === undefined) return -1;
  if (nodes[at]?.id === id) return at;
  return nodes.findIndex((n) => n.id === id);
}

/** Node `id` of the document, if it has one. */
export function findNode(doc: WorkflowDocument, id: string): WorkflowNode | undefined {
  const at = getNodeIndex(doc.nodes, id);
  return at === -1 ? undefined : doc.nodes[at];
}

/**
 * `nodes` with `node` appended, keeping the lookup cache warm: a new array, or inside a batch
 * the same array grown when the batch made it (see `inBatch`).
 */
export function appendNode(nodes: readonly WorkflowNode[], node: WorkflowNode): WorkflowNode[] {
  const index = nodeIndexes.get(nodes);
  if (isOwned(nodes)) {
    index?.set(node.id, nodes.length);
    nodes.push(node);
    return nodes;
  }
  const next = own([...nodes, node]);
  if (index) {
    index.set(node.id, nodes.length);
    nodeIndexes.set(next, index);
  }
  return next;
}

/**
 * `nodes` with the node at `at` replaced: a new array, or inside a batch the same array when
 * the batch made it (see `inBatch`). The id must stay the same (the lookup cache is kept).
 */
export function replaceNode(nodes: readonly WorkflowNode[], at: number, node: WorkflowNode): WorkflowNode[] {
  const next = isOwned(nodes) ? nodes : own(nodes.slice());
  next[at] = node;
  const index = nodeIndexes.get(nodes);
  if (index && next !== nodes) nodeIndexes.set(next, index);
  return next;
}

interface EdgeIndex {
  /** `target\0input` → position. */
  inputs: Map<string, number>;
  /** Nodes with an edge out (may over-count when shared; only used to skip a search). */
  sources: Set<string>;
}

const edgeIndexes = new WeakMap<readonly WorkflowEdge[], EdgeIndex>();

function getEdgeIndex(edges: readonly WorkflowEdge[]): EdgeIndex {
  let index = edgeIndexes.get(edges);
  if (!index) {
    index = { inputs: new Map(), sources: new Set() };
    for (let i = 0; i < edges.length; i++) {
      index.inputs.set(`${edges[i].target}\u0000${edges[i].targetInput}`, i);
      index.sources.add(edges[i].source);
    }
    edgeIndexes.set(edges, index);
  }
  return index;
}

/** The edge that feeds input `input` of node `target`, if any (an input takes one edge). */
export function findEdgeInto(
  edges: readonly WorkflowEdge[],
  target: string,
  input: string,
): WorkflowEdge | undefined {
  const at = getEdgeIndex(edges).inputs.get(`${target}\u0000${input}`);
  if (at === undefined) return undefined;
  const edge = edges[at];
  if (edge?.target === target && edge.targetInput === input) return edge;
  return edges.find((e) => e.target === target && e.targetInput === input);
}

/**
 * `edges` with `edge` appended, keeping the lookup cache warm: a new array, or inside a batch
 * the same array grown when the batch made it (see `inBatch`).
 */
export function appendEdge(edges: readonly WorkflowEdge[], edge: WorkflowEdge): WorkflowEdge[] {
  const index = edgeIndexes.get(edges);
  if (isOwned(edges)) {
    index?.inputs.set(`${edge.target}\u0000${edge.targetInput}`, edges.length);
    index?.sources.add(edge.source);
    edges.push(edge);
    return edges;
  }
  const next = own([...edges, edge]);
  if (index) {
    index.inputs.set(`${edge.target}\u0000${edge.targetInput}`, edges.length);
    index.sources.add(edge.source);
    edgeIndexes.set(next, index);
  }
  return next;
}

/** Whether `to` can be reached from `from` along the edges (`from === to` counts). */
export function hasPath(edges: readonly WorkflowEdge[], from: NodeId | string, to: NodeId | string): boolean {
  if (from === to) return true;
  // The common case when wiring a new step: nothing leaves `from`, so nothing is reachable.
  if (!getEdgeIndex(edges).sources.has(from)) return false;
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const list = next.get(e.source);
    if (list) list.push(e.target);
    else next.set(e.source, [e.target]);
  }
  const seen = new Set<string>([from]);
  const stack: string[] = [from];
  while (stack.length > 0) {
    for (const target of next.get(stack.pop() as string) ?? []) {
      if (target === to) return true;
      if (!seen.has(target)) {
        seen.add(target);
        stack.push(target);
      }
    }
  }
  return false;
}

/** The inputs of each node that an edge feeds, for buildNodeParameters. */
export function getConnectedInputs(edges: readonly WorkflowEdge[]): Map<string, Set<string>> {
  const byNode = new Map<string, Set<string>>();
  for (const e of edges) {
    const set = byNode.get(e.target);
    if (set) set.add(e.targetInput);
    else byNode.set(e.target, new Set([e.targetInput]));
  }
  return byNode;
}
