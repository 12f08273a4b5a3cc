/**
 * The home page plans before it creates a workflow (a plan that makes no step creates none). Once
 * the first step arrives it creates the workflow and hands the run, still streaming, to that
 * workflow's editor, which shows the rest on its canvas. The hand-off lives in the browser tab
 * between one client-side navigation and the editor's first render; a reload finds none, and the
 * editor then plans by itself.
 */
import type { PlanEvent } from '../planner/types';

/** A planning run under way, for the editor of the workflow it was started for. */
export interface PlanHandoff {
  workflowId: string;
  /** The run's events from its first one; read once. */
  events: AsyncIterable<PlanEvent>;
  /** Stops the run (the editor's Cancel). */
  abort(): void;
}

let pending: PlanHandoff | null = null;

/** Leaves a run for the editor of `handoff.workflowId`; a run left before and never taken is stopped. */
export function handOffPlan(handoff: PlanHandoff): void {
  if (pending && pending.workflowId !== handoff.workflowId) pending.abort();
  pending = handoff;
}

/**
 * The run left for this workflow, if any. Taking it again returns the same run until it is
 * released (React may run an initializer twice); only one reader ever starts on it.
 */
export function getHandedOffPlan(workflowId: string): PlanHandoff | null {
  return pending?.workflowId === workflowId ? pending : null;
}

/** Forgets the run once the editor has started reading it. */
export function releaseHandedOffPlan(handoff: PlanHandoff): void {
  if (pending === handoff) pending = null;
}
