/**
 * Applying a planning run's result to a workflow document. A run's operations (new steps,
 * changed arguments, removed steps, wires) are applied together, through the editor's own pure
 * commands, so the store records them as one undoable change — or not at all when the document
 * no longer fits them (someone edited it while the model was planning).
 */
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import type { ToolDeclaration } from '../tools/types';
import { addNode, connect, disconnect, removeNodes, resetArg, setArg } from '../workflow/commands';
import { getToolSnapshot } from '../workflow/graph';
import { getGridPosition } from '../workflow/plan';
import { DERIVED_PROBLEM_CODES } from '../workflow/export';
import { asNodeId, type NodeIssue, type WorkflowDocument, type WorkflowNode } from '../workflow/types';
import type { PlanOperation } from './types';

/**
 * Apply `ops` in order to `doc` (which is not modified) and return the next document. `tools`
 * resolves the tools of new steps (the document's snapshots are used when a tool is not listed).
 * All or nothing: any operation that does not fit gives the issues, each at `/operations/<i>`.
 */
export function applyPlanOperations(
  doc: WorkflowDocument,
  ops: readonly PlanOperation[],
  tools: readonly ToolDeclaration[] = [],
): Result<WorkflowDocument> {
  const byName = new Map<string, ToolDeclaration>();
  for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const issues: Issue[] = [];
  let next = doc;
  ops.forEach((operation, i) => {
    const at = joinPointer('/operations', i);
    const hasNode = (id: string) => next.nodes.some((n) => n.id === id);
    switch (operation.op) {
      case 'add_step': {
        const { step } = operation;
        const decl = byName.get(step.tool) ?? getToolSnapshot(next, step.tool)?.declaration;
        if (!decl) {
          issues.push({
            path: `${at}/step/tool`,
            code: 'unknown_tool',
            message: `Tool "${step.tool}" of step "${step.id}" is not available: import its toolkit, then plan again.`,
          });
          return;
        }
        if (hasNode(step.id)) {
          issues.push({
            path: `${at}/step/id`,
            code: 'duplicate_id',
            message: `The workflow already has a step "${step.id}"; it changed while planning. Plan again.`,
          });
          return;
        }
        next = addNode(next, decl, getGridPosition(next.nodes.length), step.args, asNodeId(step.id));
        next = annotateNode(next, step.id, {
          ...(step.unknownArgs.length > 0 ? { unknownArgs: [...step.unknownArgs] } : {}),
          ...(step.rawArguments !== undefined ? { rawArguments: step.rawArguments } : {}),
          // Builder problems are derived again on every render; only the planner's own notes are kept.
          ...(getPlannerNotes(step.issues).length > 0 ? { notes: getPlannerNotes(step.issues) } : {}),
        });
        return;
      }
      case 'update_step': {
        if (!hasNode(operation.stepId)) {
          issues.push({
            path: `${at}/stepId`,
            code: 'unknown_step',
            message: `There is no step "${operation.stepId}" to update; it was removed while planning. Plan again.`,
          });
          return;
        }
        for (const [name, value] of Object.entries(operation.args))
          next = setArg(next, operation.stepId, name, value);
        for (const name of operation.unset) next = resetArg(next, operation.stepId, name);
        return;
      }
      case 'remove_step':
        if (!hasNode(operation.stepId)) {
          issues.push({
            path: `${at}/stepId`,
            code: 'unknown_step',
            message: `There is no step "${operation.stepId}" to remove; it was already removed. Plan again.`,
          });
          return;
        }
        next = removeNodes(next, [operation.stepId]);
        return;
      case 'connect': {
        const { edge } = operation;
        const result = connect(next, {
          source: edge.source,
          sourceOutput: edge.source_output,
          target: edge.target,
          targetInput: edge.target_input,
        });
        if (result.ok) next = result.value;
        else for (const issue of result.error) issues.push({ ...issue, path: `${at}/edge${issue.path}` });
        return;
      }
      case 'disconnect': {
        const { edge } = operation;
        const found = next.edges.find(
          (e) =>
            e.source === edge.source &&
            e.sourceOutput === edge.source_output &&
            e.target === edge.target &&
            e.targetInput === edge.target_input,
        );
        if (!found) {
          issues.push({
            path: `${at}/edge`,
            code: 'unknown_edge',
            message: `There is no edge ${edge.source}.${edge.source_output} → ${edge.target}.${edge.target_input} to remove; it changed while planning. Plan again.`,
          });
          return;
        }
        next = disconnect(next, found.id);
        return;
      }
    }
  });
  return issues.length > 0 ? err(issues) : ok(next);
}

/**
 * A new document holding a fresh plan: `applyPlanOperations` on an empty workflow for `task`.
 * `systemParams` is stored on the document when given (it overrides the defaults).
 */
export function createPlannedDocument(
  task: string,
  ops: readonly PlanOperation[],
  tools: readonly ToolDeclaration[],
  systemParams?: readonly string[],
): Result<WorkflowDocument> {
  const empty: WorkflowDocument = {
    task,
    nodes: [],
    edges: [],
    tools: {},
    ...(systemParams ? { systemParams: [...systemParams] } : {}),
  };
  return applyPlanOperations(empty, ops, tools);
}

/** The planner's own notes on a step (bad JSON, repairs, dropped references), without the
 * problems the node-parameter builder derives again on every render. */
function getPlannerNotes(issues: readonly NodeIssue[]): NodeIssue[] {
  return issues.filter((i) => !DERIVED_PROBLEM_CODES.has(i.code));
}

function annotateNode(doc: WorkflowDocument, id: string, extra: Partial<WorkflowNode>): WorkflowDocument {
  if (Object.keys(extra).length === 0) return doc;
  return { ...doc, nodes: doc.nodes.map((n) => (n.id === id ? { ...n, ...extra } : n)) };
}
