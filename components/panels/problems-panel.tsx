'use client';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import { selectProblems } from '@/lib/editor/selectors';
import '@/components/ui/controls.css';
import './panels.css';

/**
 * Every error and warning of every node; clicking one selects its node, centres it, and calls
 * `onOpen` (the editor switches to the inspector so the value can be fixed).
 */
export function ProblemsPanel({ onOpen }: { onOpen?: (nodeId: string) => void }) {
  const store = useEditorStoreApi();
  const problems = useEditorStore(selectProblems);
  if (problems.length === 0) {
    return (
      <div className="problems-panel problems-panel--empty" data-testid="problems-panel">
        <p className="muted" data-testid="problems-none">
          No problems: every required parameter has a value and every value fits its schema.
        </p>
      </div>
    );
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  return (
    <div className="problems-panel" data-testid="problems-panel">
      <p className="panel-toolbar__note muted problems-panel__summary" data-testid="problems-summary">
        {errors} {errors === 1 ? 'error' : 'errors'}, {warnings} {warnings === 1 ? 'warning' : 'warnings'}
      </p>
      <ul className="problems-panel__list">
        {problems.map((p, i) => (
          <li key={`${p.nodeId}-${p.code}-${p.param ?? ''}-${i}`}>
            <button
              type="button"
              className={`problem problem--${p.severity}`}
              onClick={() => {
                store.getState().focusNode(p.nodeId);
                onOpen?.(p.nodeId);
              }}
              data-testid="problem-item"
              data-node-id={p.nodeId}
              data-code={p.code}
              data-severity={p.severity}
            >
              <span className={`problem__icon problem__icon--${p.severity}`} aria-label={p.severity}>
                {p.severity === 'error' ? '!' : '?'}
              </span>
              <span className="problem__where">
                {p.nodeTitle}
                {p.param ? <code>.{p.param}</code> : null}
              </span>
              <span className="problem__message">{p.message}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
