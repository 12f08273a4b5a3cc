/**
 * One node's derived parameters (docs/design.md §2), apart from the export builder (export.ts) so the
 * browser editor, which shows them on every node from its first paint, does not load the builder.
 */
import { DEFAULT_SYSTEM_PARAMS } from '../tools/types';
import { findEdgeInto, findNode, getInputPorts, getOutputPorts, getToolSnapshot } from './graph';
import { buildNodeParameters, getUnknownArgIssue, type NodeParameters } from './params';
import { getTypeClash, getTypeClashRemedy } from './typed-wiring';
import type { NodeIssue, WorkflowDocument, WorkflowNode } from './types';

/**
 * Problem codes the builder derives from the document on every export. Import drops them
 * (they come back by themselves) and keeps every other problem as a node note.
 */
export const DERIVED_PROBLEM_CODES: ReadonlySet<string> = new Set([
  'missing_required',
  'unknown_arg',
  'unknown_input',
  'invalid_value',
  'schema_unusable',
  'unsupported_pattern',
  'pattern_unchecked',
  'unknown_tool',
  'unnamed_parameter',
  'type_mismatch',
]);

const EMPTY: ReadonlySet<string> = new Set();

/**
 * An error for each edge into `node` that the typed-wiring rule refuses (typed-wiring.ts). Every
 * road that writes a document refuses such an edge, but a document saved before they all did
 * may hold one: it still opens, and the edge shows here, on the input it feeds.
 */
export function getEdgeTypeProblems(
  doc: WorkflowDocument,
  node: WorkflowNode,
  connectedInputs: ReadonlySet<string>,
): NodeIssue[] {
  const problems: NodeIssue[] = [];
  if (connectedInputs.size === 0) return problems;
  const inputs = getInputPorts(doc, node);
  for (const name of connectedInputs) {
    const edge = findEdgeInto(doc.edges, node.id, name);
    const source = edge && findNode(doc, edge.source);
    if (!edge || !source) continue;
    const out = getOutputPorts(doc, source).find((p) => p.name === edge.sourceOutput);
    const input = inputs.find((p) => p.name === name);
    const clash = out && input && getTypeClash(out, input);
    if (!input || !clash) continue;
    problems.push({
      severity: 'error',
      code: 'type_mismatch',
      message: `${clash}, so the edge from "${edge.source}" cannot feed it and a test-run will not call this step: ${getTypeClashRemedy(input)}.`,
      param: name,
    });
  }
  return problems;
}

/**
 * The derived parameter view of one node: the §1 rules for a declared tool, the imported
 * parameters verbatim for a placeholder. Node notes come first, then the builder's problems
 * (edges the typed-wiring rule refuses among them).
 * `checkValues` is buildNodeParameters' option: false leaves the values unchecked against the
 * input schema, a list gives the problems a check found before (the browser editor, which loads
 * Ajv on demand).
 */
export function getNodeParameters(
  doc: WorkflowDocument,
  node: WorkflowNode,
  connectedInputs: ReadonlySet<string> = EMPTY,
  checkValues: boolean | readonly NodeIssue[] = true,
): NodeParameters & { placeholder: boolean } {
  const decl = getToolSnapshot(doc, node.tool)?.declaration;
  const notes = node.notes ?? [];
  const edgeProblems = getEdgeTypeProblems(doc, node, connectedInputs);
  if (!decl && node.placeholderParams) {
    return {
      input_parameters: node.placeholderParams,
      missing_tool_args: node.placeholderMissingArgs ?? [],
      unknown_args: node.unknownArgs ?? [],
      output_parameters: node.placeholderOutputs ?? [{ name: 'result', type: 'any' }],
      problems: edgeProblems.length === 0 ? notes : [...notes, ...edgeProblems],
      placeholder: true,
    };
  }
  const built = buildNodeParameters(decl, node.args, {
    connectedInputs,
    systemParams: doc.systemParams ?? DEFAULT_SYSTEM_PARAMS,
    checkValues,
    ...(edgeProblems.length > 0 ? { edgeProblems } : {}),
  });
  const moved = node.unknownArgs ?? [];
  const problems =
    notes.length === 0 && moved.length === 0
      ? built.problems
      : [...notes, ...moved.map((name) => getUnknownArgIssue(name, node.tool)), ...built.problems];
  return {
    ...built,
    unknown_args: moved.length === 0 ? built.unknown_args : [...moved, ...built.unknown_args],
    problems,
    placeholder: !decl,
  };
}
