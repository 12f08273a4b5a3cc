/**
 * Workflow document → v1 export (docs/design.md §4.3). Every object is built with a fixed key order and
 * every list in a fixed order (nodes as in the document, tools by name), so `JSON.stringify` of
 * the result is byte-stable and export → import → export gives the same bytes.
 */
import { sha256Hex } from '../tools/sha256';
import { DEFAULT_SYSTEM_PARAMS, type ToolDeclaration, type ToolSource } from '../tools/types';
import { getConnectedInputs, getToolSnapshot } from './graph';
import { DERIVED_PROBLEM_CODES, getNodeParameters } from './node-parameters';
import { setJsonMember } from './params';
import type {
  ExportEdge,
  ExportNode,
  ExportTool,
  InputParameter,
  NodeIssue,
  OutputParameter,
  WorkflowDocument,
  WorkflowExportV1,
  WorkflowNode,
} from './types';

// Defined apart (node-parameters.ts), so that the browser editor has them without this builder.
export { DERIVED_PROBLEM_CODES, getNodeParameters };

/** The format tag and the version this module writes. */
export const EXPORT_FORMAT = 'toolflow.workflow';
export const EXPORT_VERSION = 1;

function copySource(source: ToolSource): ToolSource {
  return {
    kind: source.kind,
    ...(source.toolkit !== undefined ? { toolkit: source.toolkit } : {}),
    ...(source.server !== undefined ? { server: source.server } : {}),
  };
}

function copyIssue(issue: NodeIssue): NodeIssue {
  return {
    severity: issue.severity,
    code: issue.code,
    message: issue.message,
    ...(issue.param !== undefined ? { param: issue.param } : {}),
  };
}

function copyInput(p: InputParameter): InputParameter {
  const out: InputParameter = {
    name: p.name,
    type: p.type,
    value: p.value,
    origin: p.origin,
    required: p.required,
  };
  if (p.description !== undefined) out.description = p.description;
  return out;
}

function copyOutput(p: OutputParameter): OutputParameter {
  return { name: p.name, type: p.type };
}

/**
 * The problems a check of each node's values against its tool's input schema finds (Ajv), by
 * node id: what the server computes for the editor's first paint, so the browser loads Ajv only
 * once the document changes (lib/editor/store.ts). Nodes without such problems are left out.
 */
export function getValueProblems(doc: WorkflowDocument): Record<string, NodeIssue[]> {
  const connected = getConnectedInputs(doc.edges);
  const out: Record<string, NodeIssue[]> = {};
  for (const node of doc.nodes) {
    const inputs = connected.get(node.id);
    const checked = getNodeParameters(doc, node, inputs, true).problems;
    // The value checks are the last problems the builder adds: what a check adds is the tail.
    const unchecked = getNodeParameters(doc, node, inputs, false).problems;
    if (checked.length > unchecked.length) setJsonMember(out, node.id, checked.slice(unchecked.length));
  }
  return out;
}

function exportTool(name: string, decl: ToolDeclaration, hash: string): ExportTool {
  const out = { name, hash } as ExportTool;
  if (decl.title !== undefined) out.title = decl.title;
  out.description = decl.description;
  out.input_schema = decl.inputSchema;
  if (decl.outputSchema !== undefined) out.output_schema = decl.outputSchema;
  if (decl.annotations !== undefined) out.annotations = decl.annotations;
  if (decl.icons !== undefined) out.icons = decl.icons;
  if (decl.execution !== undefined) out.execution = decl.execution;
  if (decl._meta !== undefined) out.meta = decl._meta;
  if (decl.source !== undefined) out.source = copySource(decl.source);
  return out;
}

/**
 * Export a workflow document as v1 node JSON: nodes in document order with a 1-based
 * `step_index` and their parameters derived by the §1 rules, edges by id, and a snapshot of
 * every declaration sorted by tool name. Deterministic: equal documents give equal bytes.
 */
export function exportWorkflow(
  doc: WorkflowDocument,
  meta: { id: string; name: string },
  opts: { checkValues?: (node: WorkflowNode) => boolean | readonly NodeIssue[] } = {},
): WorkflowExportV1 {
  const connected = getConnectedInputs(doc.edges);
  const nodes: ExportNode[] = doc.nodes.map((node, i) => {
    const params = getNodeParameters(doc, node, connected.get(node.id), opts.checkValues?.(node) ?? true);
    const snapshot = getToolSnapshot(doc, node.tool);
    const source = snapshot?.declaration.source;
    const out = {
      id: node.id as string,
      step_index: i + 1,
      tool_name: node.tool,
      tool_source: source ? copySource(source) : null,
    } as ExportNode;
    if (node.label !== undefined) out.label = node.label;
    out.position = { x: node.position.x, y: node.position.y };
    out.input_parameters = params.input_parameters.map(copyInput);
    out.missing_tool_args = [...params.missing_tool_args];
    out.unknown_args = [...params.unknown_args];
    out.output_parameters = params.output_parameters.map(copyOutput);
    out.tool_hash = node.toolHash ?? snapshot?.hash ?? null;
    if (params.placeholder) out.placeholder = true;
    out.problems = params.problems.map(copyIssue);
    return out;
  });
  const edges: ExportEdge[] = doc.edges.map((e) => ({
    id: e.id,
    source: e.source,
    source_output: e.sourceOutput,
    target: e.target,
    target_input: e.targetInput,
  }));
  const tools = Object.keys(doc.tools)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => exportTool(name, doc.tools[name].declaration, doc.tools[name].hash));
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    id: meta.id,
    name: meta.name,
    task: doc.task,
    system_parameters: [...(doc.systemParams ?? DEFAULT_SYSTEM_PARAMS)],
    nodes,
    edges,
    tools,
  };
}

/**
 * An export file's text as it is downloaded, printed by the CLI and test-run: two-space JSON and a
 * final newline. One function, so the file a run records is byte for byte the file you download.
 */
export function formatExportFile(file: WorkflowExportV1): string {
  return JSON.stringify(file, null, 2) + '\n';
}

/** The content hash of an export file's text, as a test-run records it (`sha256:<hex>`). */
export function getExportHash(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}
