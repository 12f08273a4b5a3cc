/**
 * A planning run's state: the workflow document as the run has changed it so far (changed only
 * through the commands, call by call), the tools the model may call, and what the run added,
 * in order. Answering a call (answer-call.ts, edit-tools.ts) changes the state; the turn loop
 * (loop.ts) reads it.
 */
import type { ToolDeclaration } from '../tools/types';
import { DEFAULT_SYSTEM_PARAMS } from '../tools/types';
import type { WorkflowOperation } from '../workflow/commands';
import { getOutputPorts } from '../workflow/graph';
import type { WorkflowDocument } from '../workflow/types';
import { createEmptyDocument } from './operations';
import type { PlanEvent, PlannedStep, PlannerInput } from './types';

export interface RunState {
  /** The workflow as it stands now: the document the run started from, with its changes. */
  doc: WorkflowDocument;
  /** Tools the model may call, by name (real tools, the document's, then the edit tools). */
  callable: Map<string, ToolDeclaration>;
  /** Steps this run added, as they were added (some may since have been removed). */
  steps: PlannedStep[];
  /** Ids of the edges this run made. */
  newEdges: Set<string>;
  operations: WorkflowOperation[];
  /** The number the next new step gets (`step_<n>`); never reused within a run. */
  nextNumber: number;
}

/** What answering one call produced: events to stream and the result the model reads. */
export interface CallOutcome {
  events: PlanEvent[];
  result: Record<string, unknown>;
}

/**
 * The state a run starts from: the input document (or an empty one) and the callable tools —
 * the input's, those the document uses, then `editTools` (offered in every run: a model can fix
 * a step it made, a repaired or wrong value, instead of calling the tool again, and a follow-up
 * changes the steps already there).
 */
export function createRunState(input: PlannerInput, editTools: readonly ToolDeclaration[]): RunState {
  const base = input.document ?? createEmptyDocument(input.task);
  const systemParams = input.systemParams ?? base.systemParams;
  const doc = systemParams === base.systemParams ? base : { ...base, systemParams: [...systemParams!] };
  const callable = new Map<string, ToolDeclaration>();
  for (const tool of input.tools) if (!callable.has(tool.name)) callable.set(tool.name, tool);
  // Tools the workflow already uses stay callable even when the request did not list them.
  for (const name of Object.keys(doc.tools)) {
    const decl = doc.tools[name].declaration;
    if (!callable.has(decl.name)) callable.set(decl.name, decl);
  }
  for (const tool of editTools) if (!callable.has(tool.name)) callable.set(tool.name, tool);
  let highest = 0;
  for (const node of doc.nodes) {
    const n = /^step_(\d+)$/.exec(node.id);
    if (n) highest = Math.max(highest, Number(n[1]));
  }
  return { doc, callable, steps: [], newEdges: new Set(), operations: [], nextNumber: highest + 1 };
}

/** The system parameters of the run (left out of the catalogue, never sent by the model). */
export function getSystemParams(state: RunState): readonly string[] {
  return state.doc.systemParams ?? DEFAULT_SYSTEM_PARAMS;
}

/** The id the next accepted call will get. */
export function peekNextId(state: RunState): string {
  let n = state.nextNumber;
  while (state.doc.nodes.some((node) => node.id === `step_${n}`)) n++;
  return `step_${n}`;
}

/** Take the next step id. */
export function takeNextId(state: RunState): string {
  const id = peekNextId(state);
  state.nextNumber = Number(id.slice('step_'.length)) + 1;
  return id;
}

/** Steps of the document, for messages that name them ("steps: step_1, step_2"). */
export function listSteps(state: RunState, max = 20): string {
  const ids = state.doc.nodes.map((n) => n.id as string);
  if (ids.length === 0) return 'none';
  const more = ids.length > max ? ` and ${ids.length - max} more` : '';
  return ids.slice(0, max).join(', ') + more;
}

/** Steps this run added that are still in the workflow, with their current args and outputs. */
export function getLiveSteps(
  state: RunState,
): { id: string; tool: string; args: Record<string, unknown>; outputs: string[] }[] {
  const live = new Map(state.doc.nodes.map((n) => [n.id as string, n]));
  return state.steps.flatMap((s) => {
    const node = live.get(s.id);
    if (!node) return [];
    return [
      {
        id: s.id,
        tool: s.tool,
        args: node.args,
        outputs: getOutputPorts(state.doc, node).map((o) => o.name),
      },
    ];
  });
}

/** A call that changed nothing: the error event and the result the model reads. */
export function rejectCall(message: string, code: string, stepId?: string): CallOutcome {
  return {
    events: [{ type: 'error', message, code, ...(stepId ? { stepId } : {}) }],
    result: { error: message },
  };
}
