/**
 * Schema drift: a workflow keeps a snapshot of every declaration its nodes were built from, with
 * a content hash; after a toolkit refresh the live declarations may differ. This finds the nodes
 * whose tool changed or disappeared, says what changed in terms a user acts on (parameters
 * added, removed, retyped, made required or optional; outputs), and rebuilds nodes on the new
 * declaration keeping every value the user set that still has a place. Pure.
 */
import { err, ok, type Issue, type Result } from '../result';
import { hashDeclaration } from '../tools/canonical-json';
import { getObjectProperties, getParamType, isJsonObject, resolveSchema } from '../tools/json-schema';
import { DEFAULT_SYSTEM_PARAMS, type JsonSchema, type ToolDeclaration } from '../tools/types';
import { getToolSnapshot } from '../workflow/graph';
import type {
  EdgeId,
  NodeId,
  ParamType,
  WorkflowDocument,
  WorkflowEdge,
  WorkflowNode,
} from '../workflow/types';

/** One parameter as the diff sees it. */
interface ParamShape {
  type: ParamType;
  required: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
}

export interface DeclarationDiff {
  added: { name: string; type: ParamType; required: boolean }[];
  removed: { name: string; type: ParamType }[];
  retyped: { name: string; from: ParamType; to: ParamType }[];
  /** Parameters whose `required` flag flipped; `required` is the new value. */
  requiredChanged: { name: string; required: boolean }[];
  /** Parameters whose default appeared, disappeared or changed. */
  defaultChanged: { name: string; from?: unknown; to?: unknown }[];
  outputsAdded: string[];
  outputsRemoved: string[];
  /** Other differences that change the hash but no parameter above (`description`, `input schema`, …). */
  otherChanges: string[];
}

/** A node whose tool is not what it was built from. */
export interface NodeDrift {
  nodeId: NodeId;
  tool: string;
  status: 'changed' | 'missing';
  /** The hash the node was built from (undefined for a placeholder node) and the live one. */
  fromHash?: string;
  toHash?: string;
  /** For `changed`: what differs between the node's snapshot and the live declaration. */
  diff?: DeclarationDiff;
}

function getParams(
  decl: ToolDeclaration | undefined,
  systemParams: readonly string[],
): Map<string, ParamShape> {
  const params = new Map<string, ParamShape>();
  if (!decl || !isJsonObject(decl.inputSchema)) return params;
  const root = decl.inputSchema;
  const { properties, required } = getObjectProperties(root, root);
  for (const { name, schema } of properties) {
    if (systemParams.includes(name)) continue;
    const resolved = resolveSchema(schema, root);
    const hasDefault = 'default' in resolved;
    params.set(name, {
      type: getParamType(schema, root),
      required: required.has(name),
      hasDefault,
      defaultValue: resolved.default,
    });
  }
  return params;
}

function getOutputNames(decl: ToolDeclaration | undefined): string[] {
  const schema = decl?.outputSchema;
  if (!isJsonObject(schema)) return ['result'];
  const names = getObjectProperties(schema, schema).properties.map((p) => p.name);
  return names.length ? names : ['result'];
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed between two declarations of a tool, parameter by parameter, in the new
 * declaration's order (removed ones in the old order). System parameters are left out: nodes
 * never show them.
 */
export function getDeclarationDiff(
  before: ToolDeclaration | undefined,
  after: ToolDeclaration,
  systemParams: readonly string[] = DEFAULT_SYSTEM_PARAMS,
): DeclarationDiff {
  const old = getParams(before, systemParams);
  const now = getParams(after, systemParams);
  const diff: DeclarationDiff = {
    added: [],
    removed: [],
    retyped: [],
    requiredChanged: [],
    defaultChanged: [],
    outputsAdded: [],
    outputsRemoved: [],
    otherChanges: [],
  };
  for (const [name, param] of now) {
    const was = old.get(name);
    if (!was) {
      diff.added.push({ name, type: param.type, required: param.required });
      continue;
    }
    if (was.type !== param.type) diff.retyped.push({ name, from: was.type, to: param.type });
    if (was.required !== param.required) diff.requiredChanged.push({ name, required: param.required });
    if (
      was.hasDefault !== param.hasDefault ||
      (param.hasDefault && !sameJson(was.defaultValue, param.defaultValue))
    ) {
      diff.defaultChanged.push({
        name,
        ...(was.hasDefault ? { from: was.defaultValue } : {}),
        ...(param.hasDefault ? { to: param.defaultValue } : {}),
      });
    }
  }
  for (const [name, param] of old) if (!now.has(name)) diff.removed.push({ name, type: param.type });

  const oldOutputs = getOutputNames(before);
  const newOutputs = getOutputNames(after);
  diff.outputsAdded = newOutputs.filter((n) => !oldOutputs.includes(n));
  diff.outputsRemoved = oldOutputs.filter((n) => !newOutputs.includes(n));

  if (before) {
    if (before.description !== after.description) diff.otherChanges.push('description');
    if (before.title !== after.title) diff.otherChanges.push('title');
    for (const key of ['annotations', 'icons', 'execution', '_meta'] as const)
      if (!sameJson(canonicalSchema(before[key]), canonicalSchema(after[key]))) diff.otherChanges.push(key);
    const parameterLevel =
      diff.added.length +
      diff.removed.length +
      diff.retyped.length +
      diff.requiredChanged.length +
      diff.defaultChanged.length;
    if (!parameterLevel && !sameJson(canonicalSchema(before.inputSchema), canonicalSchema(after.inputSchema)))
      diff.otherChanges.push('input schema');
    if (
      !diff.outputsAdded.length &&
      !diff.outputsRemoved.length &&
      !sameJson(canonicalSchema(before.outputSchema), canonicalSchema(after.outputSchema))
    ) {
      diff.otherChanges.push('output schema');
    }
  }
  return diff;
}

/** Key-order-insensitive form of a schema for equality. */
function canonicalSchema(schema: JsonSchema | unknown[] | undefined): unknown {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort);
    if (!isJsonObject(value)) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sort(value[k])]),
    );
  };
  return sort(schema);
}

/** True when a diff has nothing a user needs to act on. */
export function isEmptyDiff(diff: DeclarationDiff): boolean {
  return Object.values(diff).every((list) => list.length === 0);
}

/** One line per change, for a problems list or a tooltip: `added "unit" (str)`, `"scale" int → float`. */
export function describeDiff(diff: DeclarationDiff): string[] {
  return [
    ...diff.added.map((p) => `added ${p.required ? 'required ' : ''}parameter "${p.name}" (${p.type})`),
    ...diff.removed.map((p) => `removed parameter "${p.name}"`),
    ...diff.retyped.map((p) => `parameter "${p.name}" changed type ${p.from} → ${p.to}`),
    ...diff.requiredChanged.map(
      (p) => `parameter "${p.name}" is now ${p.required ? 'required' : 'optional'}`,
    ),
    ...diff.defaultChanged.map(
      (p) =>
        `parameter "${p.name}" default ${'from' in p ? JSON.stringify(p.from) : 'none'} → ${'to' in p ? JSON.stringify(p.to) : 'none'}`,
    ),
    ...diff.outputsAdded.map((n) => `added output "${n}"`),
    ...diff.outputsRemoved.map((n) => `removed output "${n}"`),
    ...diff.otherChanges.map((what) => `${what} changed`),
  ];
}

/**
 * Every node whose tool differs from the live declarations: `missing` when no live tool has its
 * name, `changed` when the live declaration's hash is not the one the node was built from. A
 * placeholder node (imported with an unknown tool) whose tool now exists shows as `changed`,
 * with all parameters added, so it can be rebuilt into a real node.
 */
export function getWorkflowDrift(
  doc: WorkflowDocument,
  currentTools: readonly ToolDeclaration[],
): NodeDrift[] {
  const live = new Map(currentTools.map((tool) => [tool.name, tool]));
  const liveHashes = new Map<string, string>();
  const systemParams = doc.systemParams ?? DEFAULT_SYSTEM_PARAMS;
  const drift: NodeDrift[] = [];
  for (const node of doc.nodes) {
    const current = live.get(node.tool);
    const snapshot = getToolSnapshot(doc, node.tool);
    const fromHash = node.toolHash ?? snapshot?.hash;
    if (!current) {
      drift.push({ nodeId: node.id, tool: node.tool, status: 'missing', ...(fromHash ? { fromHash } : {}) });
      continue;
    }
    let toHash = liveHashes.get(node.tool);
    if (!toHash) liveHashes.set(node.tool, (toHash = hashDeclaration(current)));
    if (fromHash === toHash && snapshot) continue;
    // The snapshot is the declaration the node was built from unless a rebuild replaced it.
    const before = snapshot && snapshot.hash === fromHash ? snapshot.declaration : undefined;
    drift.push({
      nodeId: node.id,
      tool: node.tool,
      status: 'changed',
      ...(fromHash ? { fromHash } : {}),
      toHash,
      diff: getDeclarationDiff(before, current, systemParams),
    });
  }
  return drift;
}

/** What a rebuild did, for the UI to report. */
export interface RebuildResult {
  document: WorkflowDocument;
  /** Every node rebuilt: the ones asked for plus the other nodes of the same tools (see below). */
  rebuilt: NodeId[];
  /** Values that had no parameter left to go to. */
  droppedArgs: { nodeId: NodeId; name: string; value: unknown }[];
  /** Edges into inputs or out of outputs that no longer exist. */
  removedEdges: EdgeId[];
}

/**
 * Rebuild nodes on the live declarations of their tools. The document keeps one snapshot per
 * tool name, so rebuilding one node moves every node of that tool to the new declaration: they
 * are all rebuilt, and listed in `rebuilt`. For each node, the user's values (`args`) are kept
 * for every parameter that still exists (retyped ones included: the node then shows whether the
 * value still fits); values of removed parameters are dropped and reported; a placeholder node
 * takes its imported `arg` values as args. Edges to removed inputs or from removed outputs are
 * removed. Parameter values themselves are derived from the result by the DESIGN §1 rules.
 */
export function rebuildNodes(
  doc: WorkflowDocument,
  nodeIds: readonly NodeId[],
  currentTools: readonly ToolDeclaration[],
): Result<RebuildResult> {
  const live = new Map(currentTools.map((tool) => [tool.name, tool]));
  const issues: Issue[] = [];
  const tools = new Set<string>();
  for (const id of nodeIds) {
    const index = doc.nodes.findIndex((n) => n.id === id);
    if (index === -1) {
      issues.push({
        path: '/nodes',
        message: `There is no node "${id}" in this workflow.`,
        code: 'unknown_node',
      });
      continue;
    }
    const node = doc.nodes[index];
    if (!live.has(node.tool)) {
      issues.push({
        path: `/nodes/${index}/tool`,
        message: `Tool "${node.tool}" is not in any toolkit, so node "${id}" cannot be rebuilt. Add a toolkit that has it, or delete the node.`,
        code: 'missing_tool',
      });
      continue;
    }
    tools.add(node.tool);
  }
  if (issues.length) return err(issues);

  const systemParams = doc.systemParams ?? DEFAULT_SYSTEM_PARAMS;
  const hashes = new Map([...tools].map((name) => [name, hashDeclaration(live.get(name)!)]));
  const inputsOf = new Map(
    [...tools].map((name) => [
      name,
      new Set(
        getObjectProperties(live.get(name)!.inputSchema, live.get(name)!.inputSchema).properties.map(
          (p) => p.name,
        ),
      ),
    ]),
  );
  const outputsOf = new Map([...tools].map((name) => [name, new Set(getOutputNames(live.get(name)))]));
  const rebuilt: NodeId[] = [];
  const droppedArgs: RebuildResult['droppedArgs'] = [];

  const nodes = doc.nodes.map((node): WorkflowNode => {
    if (!tools.has(node.tool)) return node;
    rebuilt.push(node.id);
    const inputs = inputsOf.get(node.tool)!;
    const source: Record<string, unknown> = { ...node.args };
    for (const param of node.placeholderParams ?? [])
      if (param.origin === 'arg' && !(param.name in source)) source[param.name] = param.value;
    const args: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(source)) {
      if (inputs.has(name) && !systemParams.includes(name)) args[name] = value;
      else droppedArgs.push({ nodeId: node.id, name, value });
    }
    const { placeholderParams: _params, placeholderOutputs: _outputs, unknownArgs, ...rest } = node;
    const stillUnknown = (unknownArgs ?? []).filter((name) => !inputs.has(name));
    return {
      ...rest,
      args,
      toolHash: hashes.get(node.tool)!,
      ...(stillUnknown.length ? { unknownArgs: stillUnknown } : {}),
    };
  });

  const toolOf = new Map(nodes.map((n) => [n.id, n.tool]));
  const removedEdges: EdgeId[] = [];
  const edges = doc.edges.filter((edge: WorkflowEdge) => {
    const targetTool = toolOf.get(edge.target)!;
    const sourceTool = toolOf.get(edge.source)!;
    const badTarget = tools.has(targetTool) && !inputsOf.get(targetTool)!.has(edge.targetInput);
    const badSource = tools.has(sourceTool) && !outputsOf.get(sourceTool)!.has(edge.sourceOutput);
    if (badTarget || badSource) removedEdges.push(edge.id);
    return !(badTarget || badSource);
  });

  const snapshots = { ...doc.tools };
  for (const name of tools) snapshots[name] = { declaration: live.get(name)!, hash: hashes.get(name)! };
  return ok({ document: { ...doc, nodes, edges, tools: snapshots }, rebuilt, droppedArgs, removedEdges });
}
