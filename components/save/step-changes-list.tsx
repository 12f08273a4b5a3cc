'use client';
import type { Jsonified, RevisionResponse } from '@/lib/api/types';

type StepChange = Jsonified<RevisionResponse>['steps'][number];

const CHANGE_WORDS: Record<StepChange['change'], string> = {
  added: 'added',
  removed: 'removed',
  changed: 'changed',
};

/** How many steps are listed before "and N more". */
const SHOWN_STEPS = 20;

function describeValue(value: string | null): string {
  return value ?? 'unset';
}

/**
 * What changed between two versions, step by step: each step by its title, and for a changed one
 * its parameters from the old value to the new (short), the inputs wired or unwired, and whether
 * it was renamed, moved or its tool's declaration updated.
 */
export function StepChangesList({ steps }: { steps: StepChange[] }) {
  if (steps.length === 0) return null;
  const shown = steps.slice(0, SHOWN_STEPS);
  return (
    <ul className="step-changes" data-testid="step-changes">
      {shown.map((step) => (
        <li key={`${step.change}:${step.node}`} data-testid={`step-change-${step.node}`}>
          <span className="step-changes__title" title={step.title}>
            {step.title}
          </span>{' '}
          <span className={`step-changes__kind step-changes__kind--${step.change}`}>
            {CHANGE_WORDS[step.change]}
          </span>
          {step.renamedFrom || step.moved || step.toolUpdated ? (
            <span className="muted">
              {step.renamedFrom ? ` · renamed from “${step.renamedFrom}”` : ''}
              {step.toolUpdated ? ' · tool declaration updated' : ''}
              {step.moved ? ' · moved' : ''}
            </span>
          ) : null}
          {step.params.length + step.wiring.length > 0 ? (
            <ul className="step-changes__details">
              {step.params.map((p) => (
                <li key={`p:${p.param}`} data-testid="param-change">
                  <code>{p.param}</code>: <code>{describeValue(p.before)}</code> →{' '}
                  <code>{describeValue(p.after)}</code>
                </li>
              ))}
              {step.wiring.map((w) => (
                <li key={`w:${w.input}:${w.from}:${w.change}`}>
                  <code>{w.input}</code> {w.change === 'wired' ? 'now fed by' : 'no longer fed by'} {w.from}
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
      {steps.length > shown.length ? (
        <li className="muted">and {steps.length - shown.length} more steps</li>
      ) : null}
    </ul>
  );
}
