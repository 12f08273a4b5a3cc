/**
 * Graph queries shared by the plan builder, the commands and import: the ports a node has,
 * which port types may be wired together, edge ids and cycle detection.
 */
import { getValueType } from '../tools/json-schema';
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
 * Whether an output of type `out` may feed an input of type `input`: `any` on either side
 * matches everything, an int may feed a float (every int is a float), otherwise the types
 * must be equal.
 */
export function isTypeCompatible(out: ParamType, input: ParamType): boolean {
  return out === input || out === 'any' || input === 'any' || (out === 'int' && input === 'float');
}

/**
 * The snapshot of tool `name` in the document, if it has one. An own-member lookup: a tool may
 * be named like an Object.prototype member (`constructor`, `toString`, `__proto__`), and
 * `doc.tools[name]` would then find the inherited member instead of "no snapshot".
 */
export function getToolSnapshot(doc: WorkflowDocument, name: string): ToolSnapshot | undefined {
  return Object.hasOwn(doc.tools, name) ? doc.tools[name] : undefined;
}

/** The input ports of a node: its declaration's non-system parameters, in order. */
export function getInputPorts(doc: WorkflowDocument, node: WorkflowNode): readonly Port[] {
  const decl = getToolSnapshot(doc, node.tool)?.declaration;
  if (decl) return getParamPlan(decl, doc.systemParams ?? DEFAULT_SYSTEM_PARAMS);
  if (node.placeholderParams) return node.placeholderParams;
  // As buildNodeParameters: an arg named "" is not a parameter (a port needs a name).
  return Object.keys(node.args)
    .filter((name) => name !== '')
    .map((name) => ({ name, type: getValueType(node.args[name]) }));
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

/** Whether `to` can be reached from `from` along the edges (`from === to` counts). */
export function hasPath(edges: readonly WorkflowEdge[], from: NodeId | string, to: NodeId | string): boolean {
  if (from === to) return true;
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
