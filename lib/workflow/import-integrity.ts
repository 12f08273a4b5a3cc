/**
 * Referential integrity of a v1 export that already matches the format's JSON Schema: tools and
 * ids are unique, hashes match the declarations, every node lists its tool's parameters and
 * outputs in order, edges join existing ports with compatible types, feed each input once and
 * close no cycle, and an input says "edge" exactly when an edge feeds it. Each problem is an
 * issue at its JSON path in the v1 file.
 */
import { hashDeclaration } from '../tools/canonical-json';
import { internDeclaration } from '../tools/intern';
import type { ToolDeclaration, ToolSource } from '../tools/types';
import { joinPointer, type Issue } from '../result';
import { getOutputParameters, getParamPlan } from './params';
import { getTypeClash, getTypeClashRemedy, type TypedPort } from './typed-wiring';
import type { ExportNode, WorkflowExportV1 } from './types';

/** The declaration a tool snapshot of an export stands for. */
export function createToolDeclaration(tool: WorkflowExportV1['tools'][number]): ToolDeclaration {
  const decl: ToolDeclaration = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.input_schema,
  };
  if (tool.title !== undefined) decl.title = tool.title;
  if (tool.output_schema !== undefined) decl.outputSchema = tool.output_schema;
  if (tool.annotations !== undefined) decl.annotations = tool.annotations;
  if (tool.icons !== undefined) decl.icons = tool.icons;
  if (tool.execution !== undefined) decl.execution = tool.execution;
  if (tool.meta !== undefined) decl._meta = tool.meta;
  if (tool.source !== undefined) decl.source = tool.source as ToolSource;
  return decl;
}

const list = (names: Iterable<string>) => [...names].map((n) => `"${n}"`).join(', ') || 'none';

/** What the checks look things up in: the file, its declarations, and tools and nodes by name. */
interface ExportIndex {
  file: WorkflowExportV1;
  /** One declaration per entry of `file.tools`, in the same order. */
  declarations: ToolDeclaration[];
  /** Tool name → index of its first entry in `file.tools`. */
  toolIndex: Map<string, number>;
  /** Node id → index of its first node in `file.nodes`. */
  nodeIndex: Map<string, number>;
}

/** Add to `issues` every broken reference, duplicate and mismatch of `file`. */
export function checkIntegrity(file: WorkflowExportV1, issues: Issue[]): void {
  // One declaration object per tool, hashed once and shared by every node that uses it, so the
  // parameter plan and outputs (cached per declaration object in params.ts) are worked out once
  // per tool, not once per node.
  // Interned (lib/tools/intern.ts): the same declaration in the next request is the same object,
  // so its hash, plan and value checks are not worked out again.
  const declarations = file.tools.map((tool) => internDeclaration(createToolDeclaration(tool)));
  const toolIndex = checkTools(file, declarations, issues);
  const index: ExportIndex = { file, declarations, toolIndex, nodeIndex: new Map() };
  checkNodes(index, issues);
  const fed = checkEdges(index, issues);
  checkOrigins(index, fed, issues);
}

/** Tools are listed once, each with the hash of its declaration; returns them by name. */
function checkTools(
  file: WorkflowExportV1,
  declarations: ToolDeclaration[],
  issues: Issue[],
): Map<string, number> {
  const toolIndex = new Map<string, number>();
  file.tools.forEach((tool, i) => {
    const at = joinPointer('/tools', i);
    if (toolIndex.has(tool.name)) {
      issues.push({
        path: at + '/name',
        code: 'duplicate_tool',
        message: `Tool "${tool.name}" is listed twice (also /tools/${toolIndex.get(tool.name)}): keep one.`,
      });
      return;
    }
    toolIndex.set(tool.name, i);
    const hash = hashDeclaration(declarations[i]);
    if (hash !== tool.hash) {
      issues.push({
        path: at + '/hash',
        code: 'hash_mismatch',
        message: `The declaration of "${tool.name}" was changed after export (its content hash is ${hash}): restore it, or set "hash" to that value if the change is intended.`,
      });
    }
  });
  return toolIndex;
}

/**
 * Records `id` as the one at position `i` of its list, or reports it as a duplicate of the first
 * (nodes and edges alike: each needs its own id).
 */
function claimId(
  seen: Map<string, number>,
  id: string,
  i: number,
  kind: 'node' | 'edge',
  at: string,
  issues: Issue[],
): void {
  const first = seen.get(id);
  if (first === undefined) {
    seen.set(id, i);
    return;
  }
  const Kind = kind === 'node' ? 'Node' : 'Edge';
  issues.push({
    path: at + '/id',
    code: 'duplicate_id',
    message: `${Kind} id "${id}" is already used by /${kind}s/${first}: give each ${kind} its own id.`,
  });
}

/** Node ids are unique, step indexes count from 1, and a node agrees with its tool; fills `nodeIndex`. */
function checkNodes(index: ExportIndex, issues: Issue[]): void {
  const { file, declarations, toolIndex, nodeIndex } = index;
  file.nodes.forEach((node, i) => {
    const at = joinPointer('/nodes', i);
    claimId(nodeIndex, node.id, i, 'node', at, issues);
    if (node.step_index !== i + 1) {
      issues.push({
        path: at + '/step_index',
        code: 'bad_step_index',
        message: `Is ${node.step_index} but this is node ${i + 1}: step_index must be the node's 1-based position.`,
      });
    }
    const t = toolIndex.get(node.tool_name);
    if (t !== undefined && node.placeholder) {
      issues.push({
        path: at + '/placeholder',
        code: 'bad_placeholder',
        message: `Tool "${node.tool_name}" is declared at /tools/${t}, so this node is not a placeholder: remove "placeholder".`,
      });
    } else if (t !== undefined) {
      checkNodeAgainstTool(node, at, declarations[t], `/tools/${t}`, file.system_parameters, issues);
    }
  });
}

function checkNodeAgainstTool(
  node: ExportNode,
  at: string,
  decl: ToolDeclaration,
  toolAt: string,
  systemParams: string[],
  issues: Issue[],
): void {
  const declared = getParamPlan(decl, systemParams).map((p) => p.name);
  const written = node.input_parameters.map((p) => p.name);
  const declaredSet = new Set(declared);
  const writtenSet = new Set(written);
  node.input_parameters.forEach((p, j) => {
    if (!declaredSet.has(p.name)) {
      issues.push({
        path: joinPointer(at, 'input_parameters', j, 'name'),
        code: 'unknown_parameter',
        message: `"${p.name}" is not a parameter of tool "${decl.name}" (declared at ${toolAt}): remove it.`,
      });
    }
  });
  const lacking = declared.filter((n) => !writtenSet.has(n));
  if (lacking.length > 0) {
    issues.push({
      path: joinPointer(at, 'input_parameters'),
      code: 'missing_parameter',
      message: `Lacks ${list(lacking)} of tool "${decl.name}" (declared at ${toolAt}): every declared parameter must be listed; export the workflow again.`,
    });
  } else if (written.length === declared.length && written.some((n, i) => n !== declared[i])) {
    issues.push({
      path: joinPointer(at, 'input_parameters'),
      code: 'parameter_order',
      message: `Parameters must follow the declaration order of tool "${decl.name}": ${list(declared)}.`,
    });
  }
  const outputs = getOutputParameters(decl).map((o) => o.name);
  const writtenOutputs = node.output_parameters.map((o) => o.name);
  if (outputs.join('\u0000') !== writtenOutputs.join('\u0000')) {
    issues.push({
      path: joinPointer(at, 'output_parameters'),
      code: 'output_mismatch',
      message: `Outputs ${list(writtenOutputs)} differ from those of tool "${decl.name}" (${list(outputs)}): use the declared outputs.`,
    });
  }
}

/**
 * The typed ports of a node: its declaration's for a known tool (so import checks the types a
 * document built from the file will have), the file's own for a placeholder.
 */
function getPorts(
  index: ExportIndex,
  node: ExportNode,
): { inputs: readonly TypedPort[]; outputs: readonly TypedPort[] } {
  const t = index.toolIndex.get(node.tool_name);
  if (t === undefined || node.placeholder) {
    return { inputs: node.input_parameters, outputs: node.output_parameters };
  }
  return {
    inputs: getParamPlan(index.declarations[t], index.file.system_parameters),
    outputs: getOutputParameters(index.declarations[t]),
  };
}

/**
 * Every edge joins an output and an input that exist and fit, feeds an input no other edge
 * feeds, and closes no cycle. Returns which inputs are fed ("node id \0 input" → edge index).
 */
function checkEdges(index: ExportIndex, issues: Issue[]): Map<string, number> {
  const { file, nodeIndex } = index;
  const edgeIds = new Map<string, number>();
  const fed = new Map<string, number>();
  const forward = new Map<string, string[]>();
  let allForward = true;
  file.edges.forEach((edge, i) => {
    const at = joinPointer('/edges', i);
    claimId(edgeIds, edge.id, i, 'edge', at, issues);
    const s = nodeIndex.get(edge.source);
    const t = nodeIndex.get(edge.target);
    if (s === undefined)
      issues.push({
        path: at + '/source',
        code: 'unknown_node',
        message: `No node has id "${edge.source}": use an id from "nodes".`,
      });
    if (t === undefined)
      issues.push({
        path: at + '/target',
        code: 'unknown_node',
        message: `No node has id "${edge.target}": use an id from "nodes".`,
      });
    if (s === undefined || t === undefined) return;
    const source = file.nodes[s];
    const target = file.nodes[t];
    checkEdgePorts(edge, at, source, target, issues);
    const key = `${target.id}\u0000${edge.target_input}`;
    if (fed.has(key)) {
      issues.push({
        path: at + '/target_input',
        code: 'duplicate_input',
        message: `Input "${edge.target_input}" of "${target.id}" is already fed by /edges/${fed.get(key)}: an input takes one edge.`,
      });
    }
    fed.set(key, i);
    if (s === t) {
      issues.push({
        path: at,
        code: 'self_loop',
        message: `Edge "${edge.id}" connects node "${source.id}" to itself: remove it.`,
      });
      return;
    }
    checkEdgeTypes(index, edge, at, source, target, issues);
    // Forward edges (earlier node → later node) cannot close a cycle among forward edges.
    if (!(allForward && s < t) && reaches(forward, target.id, source.id)) {
      issues.push({
        path: at,
        code: 'cycle',
        message: `Edge "${edge.id}" closes a cycle through "${source.id}" and "${target.id}": remove one edge of the loop.`,
      });
    }
    allForward &&= s < t;
    const next = forward.get(source.id);
    if (next) next.push(target.id);
    else forward.set(source.id, [target.id]);
  });
  return fed;
}

type ExportEdge = WorkflowExportV1['edges'][number];

/** The output and the input an edge names exist on its nodes. */
function checkEdgePorts(
  edge: ExportEdge,
  at: string,
  source: ExportNode,
  target: ExportNode,
  issues: Issue[],
): void {
  if (!source.output_parameters.some((o) => o.name === edge.source_output)) {
    issues.push({
      path: at + '/source_output',
      code: 'unknown_port',
      message: `Node "${source.id}" has no output "${edge.source_output}"; its outputs are ${list(source.output_parameters.map((o) => o.name))}.`,
    });
  }
  const input = target.input_parameters.find((p) => p.name === edge.target_input);
  if (!input) {
    issues.push({
      path: at + '/target_input',
      code: 'unknown_port',
      message: `Node "${target.id}" has no input "${edge.target_input}"; use one of its input_parameters.`,
    });
  }
}

/** The output an edge carries may feed its input (the typed-wiring rule). */
function checkEdgeTypes(
  index: ExportIndex,
  edge: ExportEdge,
  at: string,
  source: ExportNode,
  target: ExportNode,
  issues: Issue[],
): void {
  const output = getPorts(index, source).outputs.find((o) => o.name === edge.source_output);
  const typedInput = getPorts(index, target).inputs.find((p) => p.name === edge.target_input);
  const clash = output && typedInput && getTypeClash(output, typedInput);
  if (typedInput && clash) {
    issues.push({
      path: at,
      code: 'type_mismatch',
      message: `${clash}, so "${source.id}" cannot feed "${target.id}" through this edge: ${getTypeClashRemedy(typedInput)}.`,
    });
  }
}

/** A known tool's input says "edge" exactly when an edge feeds it. */
function checkOrigins(index: ExportIndex, fed: Map<string, number>, issues: Issue[]): void {
  index.file.nodes.forEach((node, i) => {
    if (node.placeholder || !index.toolIndex.has(node.tool_name)) return;
    node.input_parameters.forEach((p, j) => {
      const isFed = fed.has(`${node.id}\u0000${p.name}`);
      if ((p.origin === 'edge') === isFed) return;
      issues.push({
        path: joinPointer('/nodes', i, 'input_parameters', j, 'origin'),
        code: 'origin_mismatch',
        message: isFed
          ? `"${p.name}" is fed by an edge, so its origin must be "edge" and its value "".`
          : `"${p.name}" has origin "edge" but no edge feeds it: add the edge or set its origin and value.`,
      });
    });
  });
}

/** True when `to` can be reached from `from` along `next`. */
function reaches(next: Map<string, string[]>, from: string, to: string): boolean {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const at = stack.pop() as string;
    if (at === to) return true;
    for (const n of next.get(at) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return false;
}
