/** The planner's progress line under the prompt; apart from plan-client.ts, which loads on demand. */
import { describePlanOutcome } from '../planner/outcome';
import type { StopReason } from '../planner/types';
import { countOf } from '../plural';
import type { PlanProgress } from './plan-client';

const STOP_REASONS: Record<StopReason, string> = {
  no_tool_calls: 'finished (no more steps to add)',
  max_iterations: 'stopped at the turn limit',
  cancelled: 'cancelled',
  error: 'stopped by an error',
};

/** The one-line summary under the prompt: which planner, step N, and why it stopped. */
export function describePlanProgress(p: PlanProgress): string {
  // "rules (no language model)" reads as "rules, no language model" inside the parentheses.
  const model = p.model?.replace(/\s*\(([^)]*)\)/g, ', $1');
  const who = p.planner
    ? `${p.planner} planner${model && model !== p.planner ? ` (${model})` : ''}`
    : 'Planner';
  const counts = `${countOf(p.steps, 'step')}, ${countOf(p.edges, 'edge')}`;
  switch (p.status) {
    case 'starting':
      return 'Starting the planner…';
    case 'running':
      // The planner's own message says which turn it is on; without one, say it here.
      return `${who} · ${countOf(p.steps, 'step')} so far · ${p.message ?? `turn ${Math.max(1, p.iteration)}`}`;
    case 'done': {
      // Nothing planned is said first and plainly, with the planner's reason.
      if (p.outcome?.kind === 'nothing') return `${who}: ${describePlanOutcome(p.outcome)}`;
      const outcome =
        p.outcome && p.outcome.kind !== 'unfinished' ? ` · ${describePlanOutcome(p.outcome)}` : '';
      return `${who} ${STOP_REASONS[p.stopReason ?? 'no_tool_calls']} · ${counts}${outcome}${p.stopReason === 'max_iterations' && p.message ? ` · ${p.message}` : ''}`;
    }
    case 'cancelled':
      return p.steps === 0 && p.edges === 0
        ? `${who} cancelled before it planned anything`
        : `${who} cancelled · ${counts} kept (Undo removes them)`;
    case 'failed':
      return `${who} failed: ${p.error ?? 'unknown error'}`;
  }
}
