/**
 * One node's derived parameters (DESIGN §1), apart from the export builder (export.ts) so the
 * browser editor, which shows them on every node from its first paint, does not load the builder.
 */
import { DEFAULT_SYSTEM_PARAMS } from '../tools/types';
import { getToolSnapshot } from './graph';
import { buildNodeParameters, getUnknownArgIssue, type NodeParameters } from './params';
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
]);

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The derived parameter view of one node: the §1 rules for a declared tool, the imported
 * parameters verbatim for a placeholder. Node notes come first, then the builder's problems.
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
  if (!decl && node.placeholderParams) {
    return {
      input_parameters: node.placeholderParams,
      missing_tool_args: node.placeholderMissingArgs ?? [],
      unknown_args: node.unknownArgs ?? [],
      output_parameters: node.placeholderOutputs ?? [{ name: 'result', type: 'any' }],
      problems: notes,
      placeholder: true,
    };
  }
  const built = buildNodeParameters(decl, node.args, {
    connectedInputs,
    systemParams: doc.systemParams ?? DEFAULT_SYSTEM_PARAMS,
    checkValues,
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
