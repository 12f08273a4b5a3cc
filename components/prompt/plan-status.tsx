'use client';
import { describePlanProgress, type PlanProgress } from '@/lib/editor/plan-client';
import '@/components/ui/controls.css';

/**
 * The progress line of a planning run (which planner, turn and step, why it stopped) and the
 * warnings and rejected calls it reported. Planner messages are untrusted text: shown as text.
 */
export function PlanStatus({ progress }: { progress: PlanProgress | null }) {
  if (!progress) return null;
  const running = progress.status === 'starting' || progress.status === 'running';
  return (
    <div className={`plan-status plan-status--${progress.status}`}>
      <p
        className="plan-status__line"
        data-testid="plan-progress"
        data-status={progress.status}
        aria-live="polite"
      >
        {running ? <span className="spinner" aria-hidden="true" /> : null}
        {describePlanProgress(progress)}
      </p>
      {progress.notices.length > 0 ? (
        <details className="plan-status__notices" data-testid="plan-notices">
          <summary>
            {progress.notices.length} {progress.notices.length === 1 ? 'note' : 'notes'} from the planner
          </summary>
          <ul>
            {progress.notices.map((n, i) => (
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
