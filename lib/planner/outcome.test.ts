import { describe, expect, it } from 'vitest';
import { describePlanOutcome, getPlanOutcome, listMissingValues } from './outcome';
import type { PlannedStep } from './types';

const step = (id: string): PlannedStep => ({ id, tool: 't', args: {}, unknownArgs: [], issues: [] });

describe('getPlanOutcome', () => {
  it('is nothing, with the planner’s reason, when no step was added and nothing changed', () => {
    const outcome = getPlanOutcome({
      steps: [],
      operations: [],
      missingValues: [],
      message: 'No tool matches.',
    });
    expect(outcome).toEqual({ kind: 'nothing', reason: 'No tool matches.' });
    expect(describePlanOutcome(outcome)).toBe('nothing could be planned: No tool matches.');
  });

  it('is complete when every required value is given', () => {
    const outcome = getPlanOutcome({ steps: [step('step_1')], operations: [], missingValues: [] });
    expect(describePlanOutcome(outcome)).toBe('planned everything the task asked');
  });

  it('counts the values left for the person, singular and plural', () => {
    const one = getPlanOutcome({
      steps: [step('step_1')],
      operations: [],
      missingValues: [{ stepId: 'step_1', param: 'model_path' }],
    });
    expect(describePlanOutcome(one)).toBe('planned, with 1 value left for you');
    const values = [
      { stepId: 'step_1', param: 'model_path' },
      { stepId: 'step_2', param: 'formula' },
    ];
    const two = getPlanOutcome({ steps: [step('step_1')], operations: [], missingValues: values });
    expect(describePlanOutcome(two)).toBe('planned, with 2 values left for you');
    expect(listMissingValues(values)).toBe('step_1.model_path, step_2.formula');
  });

  it('does not claim everything when the turn limit stopped a planner still at work', () => {
    const outcome = getPlanOutcome({
      steps: [step('step_1')],
      operations: [],
      missingValues: [],
      stopReason: 'max_iterations',
    });
    expect(describePlanOutcome(outcome)).toBe('stopped before the planner was done');
  });

  it('is not nothing when a follow-up only edited existing steps', () => {
    const outcome = getPlanOutcome({
      steps: [],
      operations: [{ op: 'remove_step', stepId: 'step_1' }],
      missingValues: [],
    });
    expect(outcome.kind).toBe('complete');
  });
});
