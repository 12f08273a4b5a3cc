/**
 * How a finished planning run ended, in one phrase the CLI's stop line and the UI's status both
 * use: nothing could be planned (and why), planned everything the task asked, or planned with
 * values left for the person (a value the text does not give stays missing, and the
 * person is told how many).
 */
import { countOf } from '../plural';
import type { MissingValue, PlanEvent } from './types';

type DoneEvent = Extract<PlanEvent, { type: 'done' }>;

export type PlanOutcome =
  /** No step added and nothing changed; `reason` is the planner's own explanation. */
  | { kind: 'nothing'; reason: string }
  /** Every required value of every step is set or wired. */
  | { kind: 'complete' }
  /** Steps were planned, but these required values were left for the person. */
  | { kind: 'values_left'; values: MissingValue[] }
  /** The turn limit stopped a planner that was still adding steps: not known to be complete. */
  | { kind: 'unfinished' };

/** The outcome of a run from its `done` event (a cancelled or failed run has its own line). */
export function getPlanOutcome(
  done: Pick<DoneEvent, 'steps' | 'operations' | 'message' | 'missingValues'> & {
    stopReason?: DoneEvent['stopReason'];
  },
): PlanOutcome {
  if (done.steps.length === 0 && done.operations.length === 0) {
    return { kind: 'nothing', reason: done.message ?? 'The planner found nothing in the task to plan.' };
  }
  if (done.missingValues.length > 0) return { kind: 'values_left', values: done.missingValues };
  return done.stopReason === 'max_iterations' ? { kind: 'unfinished' } : { kind: 'complete' };
}

/** "planned everything the task asked" / "planned, with 2 values left for you" / "nothing could be planned: …". */
export function describePlanOutcome(outcome: PlanOutcome): string {
  switch (outcome.kind) {
    case 'nothing':
      return `nothing could be planned: ${outcome.reason}`;
    case 'complete':
      return 'planned everything the task asked';
    case 'values_left':
      return `planned, with ${countOf(outcome.values.length, 'value')} left for you`;
    case 'unfinished':
      return 'stopped before the planner was done';
  }
}

/** "step_1.model_path, step_2.formula": where the values left for the person go. */
export function listMissingValues(values: readonly MissingValue[]): string {
  return values.map((v) => `${v.stepId}.${v.param}`).join(', ');
}
