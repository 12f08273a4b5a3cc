/**
 * Turns the planner's streamed changes into the workflow document the canvas shows, so nodes
 * and edges appear as the model proposes them. The run's operations are always replayed onto
 * the document as it was before the run (`base + operations so far`) with the planner's own
 * `applyPlanOperations`, so the preview and the final change are built by the same code.
 */
import type { Issue } from '../result';
import type { ToolDeclaration } from '../tools/types';
import { applyPlanOperations } from '../planner/operations';
import type { PlanEvent, PlanOperation } from '../planner/types';
import type { WorkflowDocument } from '../workflow/types';

/**
 * `base` with each operation applied in order, skipping (and reporting) any that does not fit
 * instead of dropping the whole run: a preview must show what it can while the stream is
 * still incomplete, and a run that partly fails should still keep its good steps.
 */
export function applyOperationsLeniently(
  base: WorkflowDocument,
  operations: readonly PlanOperation[],
  tools: readonly ToolDeclaration[],
): { doc: WorkflowDocument; issues: Issue[] } {
  const all = applyPlanOperations(base, operations, tools);
  if (all.ok) return { doc: all.value, issues: [] };
  let doc = base;
  const issues: Issue[] = [];
  operations.forEach((op, i) => {
    const one = applyPlanOperations(doc, [op], tools);
    if (one.ok) doc = one.value;
    else
      for (const issue of one.error)
        issues.push({ ...issue, path: issue.path.replace(/^\/operations\/0/, `/operations/${i}`) });
  });
  return { doc, issues };
}

/**
 * The operation a streamed event stands for, if any: `step` adds a step, `edge` connects, and
 * `operation` carries follow-up edits (its `add_step`s also arrive as `step` events, so they
 * are skipped here to avoid adding a step twice).
 */
export function getEventOperation(event: PlanEvent): PlanOperation | undefined {
  switch (event.type) {
    case 'step':
      return { op: 'add_step', step: event.step };
    case 'edge': {
      const { source, sourceOutput, target, targetInput } = event.edge;
      return { op: 'connect', edge: { source, sourceOutput, target, targetInput } };
    }
    case 'operation':
      return event.operation.op === 'add_step' ? undefined : event.operation;
    default:
      return undefined;
  }
}
