/**
 * Applying a planning run's result to a workflow document. A run's operations (new steps,
 * changed arguments, removed steps, wires) are applied together by the commands, so the store
 * records them as one undoable change — or not at all when the document no longer fits them
 * (someone edited it while the model was planning). The planner built its own document with
 * the same operations, so the two agree.
 */
import type { Result } from '../result';
import type { ToolDeclaration } from '../tools/types';
import { applyOperations } from '../workflow/commands';
import type { WorkflowDocument } from '../workflow/types';
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
  return applyOperations(doc, ops, tools);
}

/** The document a fresh planning run starts from: empty, for `task`. */
export function createEmptyDocument(task: string, systemParams?: readonly string[]): WorkflowDocument {
  return {
    task,
    nodes: [],
    edges: [],
    tools: {},
    ...(systemParams ? { systemParams: [...systemParams] } : {}),
  };
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
  return applyPlanOperations(createEmptyDocument(task, systemParams), ops, tools);
}
