/**
 * v1 export (or an older version) → workflow document. Import writes nothing unless the whole
 * file is sound: the version is migrated, the result is validated against
 * `public/schemas/workflow.v1.schema.json`, then referential integrity is checked, and every
 * problem is reported with the JSON path it has in the file as given. The migrations are in
 * export-migrations.ts.
 */
import { hashDeclaration } from '../tools/canonical-json';
import { internDeclaration } from '../tools/intern';
import type { JsonSchema, ToolDeclaration, ToolSource } from '../tools/types';
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import workflowV1Schema from '../../public/schemas/workflow.v1.schema.json';
import { migrateExport } from './export-migrations';
import { DERIVED_PROBLEM_CODES } from './export';
import { getOutputParameters, getParamPlan } from './params';
import { getTypeClash, getTypeClashRemedy, type TypedPort } from './typed-wiring';
import { createRecord } from '../tools/json-value';
import { compileSchema, type ErrorObject, type ValidateFunction } from '../tools/schema-validator';
import {
  asEdgeId,
  asNodeId,
  type ExportNode,
  type ToolSnapshot,
  type WorkflowDocument,
  type WorkflowExportV1,
  type WorkflowNode,
} from './types';

export { migrateExport, type Migrated } from './export-migrations';

/** A successfully imported workflow. */
export interface ImportedWorkflow {
  document: WorkflowDocument;
  meta: { id: string; name: string };
}

// ---- schema validation ----

let validateV1: ValidateFunction | undefined;

function getV1Validator(): ValidateFunction {
  if (!validateV1) {
    const compiled = compileSchema(workflowV1Schema as JsonSchema);
    // The schema ships with the code; failing to compile it is a bug, not an input problem.
    if (!compiled.ok) throw new Error(`workflow.v1.schema.json does not compile: ${compiled.error}`);
    validateV1 = compiled.value;
  }
  return validateV1;
}

function getSchemaIssue(error: ErrorObject): Issue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: joinPointer(error.instancePath, String(params.missingProperty)),
        code: 'schema_required',
        message: `Required field "${String(params.missingProperty)}" is missing: add it.`,
      };
    case 'additionalProperties':
      return {
        path: joinPointer(error.instancePath, String(params.additionalProperty)),
        code: 'schema_unknown_field',
        message: `Field "${String(params.additionalProperty)}" is not part of the v1 format: remove it.`,
      };
    case 'enum':
      return {
        path: error.instancePath,
        code: 'schema_enum',
        message: `Must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`,
      };
    case 'const':
      return {
        path: error.instancePath,
        code: 'schema_const',
        message: `Must be ${JSON.stringify(params.allowedValue)}.`,
      };
    default: {
      const text = error.message ?? `fails "${error.keyword}"`;
      return {
        path: error.instancePath,
        code: `schema_${error.keyword}`,
        message: `${text[0].toUpperCase()}${text.slice(1)}: fix this value to match the v1 format.`,
      };
    }
  }
}

// ---- referential integrity ----

function createToolDeclaration(tool: WorkflowExportV1['tools'][number]): ToolDeclaration {
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

function checkIntegrity(file: WorkflowExportV1, issues: Issue[]): void {
  const toolIndex = new Map<string, number>();
  // One declaration object per tool, hashed once and shared by every node that uses it, so the
  // parameter plan and outputs (cached per declaration object in params.ts) are worked out once
  // per tool, not once per node.
  // Interned (lib/tools/intern.ts): the same declaration in the next request is the same object,
  // so its hash, plan and value checks are not worked out again.
  const declarations = file.tools.map((tool) => internDeclaration(createToolDeclaration(tool)));
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

  const nodeIndex = new Map<string, number>();
  file.nodes.forEach((node, i) => {
    const at = joinPointer('/nodes', i);
    if (nodeIndex.has(node.id)) {
      issues.push({
        path: at + '/id',
        code: 'duplicate_id',
        message: `Node id "${node.id}" is already used by /nodes/${nodeIndex.get(node.id)}: give each node its own id.`,
      });
    } else {
      nodeIndex.set(node.id, i);
    }
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

  // The typed ports of a node: its declaration's for a known tool (so import checks the types a
  // document built from the file will have), the file's own for a placeholder.
  const getPorts = (node: ExportNode): { inputs: readonly TypedPort[]; outputs: readonly TypedPort[] } => {
    const t = toolIndex.get(node.tool_name);
    if (t === undefined || node.placeholder) {
      return { inputs: node.input_parameters, outputs: node.output_parameters };
    }
    return {
      inputs: getParamPlan(declarations[t], file.system_parameters),
      outputs: getOutputParameters(declarations[t]),
    };
  };

  const edgeIds = new Map<string, number>();
  const fed = new Map<string, number>();
  const forward = new Map<string, string[]>();
  let allForward = true;
  file.edges.forEach((edge, i) => {
    const at = joinPointer('/edges', i);
    if (edgeIds.has(edge.id)) {
      issues.push({
        path: at + '/id',
        code: 'duplicate_id',
        message: `Edge id "${edge.id}" is already used by /edges/${edgeIds.get(edge.id)}: give each edge its own id.`,
      });
    } else {
      edgeIds.set(edge.id, i);
    }
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
    const output = getPorts(source).outputs.find((o) => o.name === edge.source_output);
    const typedInput = getPorts(target).inputs.find((p) => p.name === edge.target_input);
    const clash = output && typedInput && getTypeClash(output, typedInput);
    if (typedInput && clash) {
      issues.push({
        path: at,
        code: 'type_mismatch',
        message: `${clash}, so "${source.id}" cannot feed "${target.id}" through this edge: ${getTypeClashRemedy(typedInput)}.`,
      });
    }
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

  // A known tool's input says "edge" exactly when an edge feeds it.
  file.nodes.forEach((node, i) => {
    if (node.placeholder || !toolIndex.has(node.tool_name)) return;
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

// ---- building the document ----

function createDocument(file: WorkflowExportV1): WorkflowDocument {
  // Tool and parameter names are user strings: records without a prototype (a tool may be
  // called "__proto__" or "constructor").
  const tools = createRecord<ToolSnapshot>();
  for (const tool of file.tools)
    tools[tool.name] = { declaration: createToolDeclaration(tool), hash: tool.hash };
  const nodes = file.nodes.map((n): WorkflowNode => {
    const known = tools[n.tool_name] !== undefined;
    const args = createRecord<unknown>();
    for (const p of n.input_parameters) if (p.origin === 'arg') args[p.name] = p.value;
    const node: WorkflowNode = {
      id: asNodeId(n.id),
      tool: n.tool_name,
      position: { x: n.position.x, y: n.position.y },
      args,
    };
    if (n.label !== undefined) node.label = n.label;
    if (n.unknown_args.length > 0) node.unknownArgs = [...n.unknown_args];
    if (n.tool_hash !== null) node.toolHash = n.tool_hash;
    // Problems the builder derives come back on their own; the rest (planner notes) are kept.
    const notes = known ? n.problems.filter((p) => !DERIVED_PROBLEM_CODES.has(p.code)) : n.problems;
    if (notes.length > 0) node.notes = notes;
    if (!known) {
      node.placeholderParams = n.input_parameters;
      node.placeholderOutputs = n.output_parameters;
      node.placeholderMissingArgs = n.missing_tool_args;
    }
    return node;
  });
  return {
    task: file.task,
    nodes,
    edges: file.edges.map((e) => ({
      id: asEdgeId(e.id),
      source: asNodeId(e.source),
      sourceOutput: e.source_output,
      target: asNodeId(e.target),
      targetInput: e.target_input,
    })),
    tools,
    systemParams: [...file.system_parameters],
  };
}

function checkExport(json: unknown): Result<WorkflowExportV1> {
  const migrated = migrateExport(json);
  if (!migrated.ok) return migrated;
  const { json: v1, toOriginalPath } = migrated.value;
  const validate = getV1Validator();
  const issues: Issue[] = [];
  if (!validate(v1)) {
    for (const error of validate.errors ?? []) issues.push(getSchemaIssue(error));
  } else {
    checkIntegrity(v1 as WorkflowExportV1, issues);
  }
  if (issues.length > 0) return err(issues.map((issue) => ({ ...issue, path: toOriginalPath(issue.path) })));
  return ok(v1 as WorkflowExportV1);
}

/**
 * Read a workflow export (v1 or older) into a document. Every problem is reported with its JSON
 * path in the file as given; nothing is returned unless the file is valid. A node whose tool is
 * not in `tools` becomes a placeholder that keeps its parameters and edges verbatim, and
 * export → import → export gives the same bytes.
 */
export function importWorkflow(json: unknown): Result<ImportedWorkflow> {
  const checked = checkExport(json);
  if (!checked.ok) return checked;
  const file = checked.value;
  return ok({ document: createDocument(file), meta: { id: file.id, name: file.name } });
}

/** Every problem of a workflow export, with JSON paths; empty when it imports cleanly. */
export function validateExport(json: unknown): Issue[] {
  const checked = checkExport(json);
  return checked.ok ? [] : checked.error;
}
