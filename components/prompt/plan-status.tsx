'use client';
import type { PlanProgress } from '@/lib/editor/plan-client';
import { describePlanProgress } from '@/lib/editor/plan-progress';
import '@/components/ui/controls.css';

/**
 * The progress line of a planning run (which planner, turn and step, why it stopped, and whether
 * anything is left for the person) and the warnings and rejected calls it reported. A run that
 * planned nothing says so on the line itself, with the planner's reason, in a warning colour.
 * Planner messages are untrusted text: shown as text.
 */
export function PlanStatus({ progress }: { progress: PlanProgress | null }) {
  if (!progress) return null;
  const running = progress.status === 'starting' || progress.status === 'running';
  const outcome = progress.status === 'done' ? (progress.outcome?.kind ?? null) : null;
  // The reason for planning nothing is already on the line: list only the other notes.
  const reason = progress.outcome?.kind === 'nothing' ? progress.outcome.reason : null;
  const notices = progress.notices.filter((n) => n.message !== reason);
  return (
    <div
      className={`plan-status plan-status--${progress.status}${outcome ? ` plan-status--${outcome}` : ''}`}
      data-testid="plan-status"
    >
      <p
        className="plan-status__line"
        data-testid="plan-progress"
        data-status={progress.status}
        data-outcome={outcome ?? undefined}
        role={outcome === 'nothing' ? 'alert' : undefined}
        aria-live="polite"
      >
        {running ? <span className="spinner" aria-hidden="true" /> : null}
        {describePlanProgress(progress)}
      </p>
      {notices.length > 0 ? (
        <details className="plan-status__notices" data-testid="plan-notices" open={outcome === 'nothing'}>
          <summary>
            {notices.length} {notices.length === 1 ? 'note' : 'notes'} from the planner
          </summary>
          <ul>
            {notices.map((n, i) => (
              <li key={i} className={`problem-text problem-text--${n.severity}`}>
                {n.stepId ? <code>{n.stepId}: </code> : null}
                {n.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
