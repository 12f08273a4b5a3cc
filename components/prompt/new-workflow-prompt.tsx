'use client';
import { useRouter } from 'next/navigation';
import '@/components/ui/controls.css';
import { useRef, useState } from 'react';
import { createWorkflow } from '@/lib/api/workflows';
import type { PlanProgress } from '@/lib/editor/plan-client';
import { handOffPlan } from '@/lib/editor/plan-handoff';
import { getWorkflowNameFromTask } from '@/lib/editor/task-name';
import { useToolkits } from '@/lib/editor/use-toolkits';
import { getModelLabel } from '@/lib/editor/model-label';
import { getBuiltinToolkitIdOf } from '@/lib/toolkits/builtin-ids';
import { RUNNABLE_EXAMPLES, type RunnableExample } from '@/lib/toolkits/examples';
import { PlanStatus } from './plan-status';
import { ToolkitPicker } from './toolkit-picker';
import './prompt.css';

type Planner = 'offline' | 'llm';

interface Props {
  /** The configured language model (e.g. "openai-chat (gpt-4.1-mini at …)"), or null for none. */
  llm: string | null;
}

/**
 * The home page's prompt: type the task, pick toolkits, Enter. Plans first: once the planner makes
 * its first step, creates the workflow and opens the editor, which shows the rest of the run
 * streaming onto its canvas. A plan that makes no step creates no workflow; the status says why.
 * Examples over the runnable samples fill the prompt, tick their toolkit and choose the offline
 * planner, which plans them completely (lib/toolkits/examples.ts).
 */
export function NewWorkflowPrompt({ llm }: Props) {
  const router = useRouter();
  const { toolkits, error: toolkitsError } = useToolkits();
  const [task, setTask] = useState('');
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [planner, setPlanner] = useState<Planner>(llm ? 'llm' : 'offline');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<PlanProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const picked = selected ?? new Set(toolkits?.map((t) => t.id) ?? []);
  // Only the examples whose sample can run here.
  const examples = RUNNABLE_EXAMPLES.filter(
    (e) => toolkits?.find((t) => t.id === getBuiltinToolkitIdOf(e.toolkit))?.runnable,
  );
  const tryExample = (example: RunnableExample) => {
    setTask(example.task);
    setSelected(new Set([getBuiltinToolkitIdOf(example.toolkit)]));
    setPlanner('offline');
    setError(null);
    input.current?.focus();
  };

  const submit = async () => {
    const text = task.trim();
    if (!text || busy) return;
    if (toolkits && toolkits.length > 0 && picked.size === 0) {
      setError('Pick at least one toolkit: the planner can only use tools from the toolkits you pick.');
      return;
    }
    setBusy(true);
    setError(null);
    const abort = new AbortController();
    controller.current = abort;
    const useModel = planner === 'llm' && llm !== null;
    // All toolkits picked (or not loaded yet): name none, and the server plans with all of them.
    const narrowed = toolkits !== null && picked.size < toolkits.length;
    // The planning client loads when a plan starts, not with the home page.
    const { openFirstPlan } = await import('@/lib/editor/plan-client');
    const start = await openFirstPlan(
      { task: text, ...(narrowed ? { toolkitIds: [...picked] } : {}), llm: useModel ? 'openai' : 'offline' },
      abort.signal,
      { onProgress: setProgress },
    );
    if (start.kind === 'ended') {
      // Nothing planned, failed or cancelled: no workflow; the status says what happened.
      controller.current = null;
      setBusy(false);
      return;
    }
    const res = await createWorkflow({ name: getWorkflowNameFromTask(text), task: text });
    if (!res.ok) {
      abort.abort();
      controller.current = null;
      setProgress(null);
      setError(res.error.message);
      setBusy(false);
      return;
    }
    const id = res.value.workflow.id;
    handOffPlan({ workflowId: id, events: start.events, abort: () => abort.abort() });
    const params = new URLSearchParams({ plan: '1' });
    // All toolkits picked: say nothing, so toolkits added later are used too.
    if (narrowed) params.set('toolkits', [...picked].join(','));
    if (useModel) params.set('llm', '1');
    router.push(`/w/${id}?${params}`);
  };

  return (
    <form
      className="new-prompt card"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="new-workflow-prompt"
    >
      <label htmlFor="new-task" className="new-prompt__label">
        What should the workflow do?
      </label>
      <textarea
        id="new-task"
        ref={input}
        className="new-prompt__input"
        rows={3}
        value={task}
        disabled={busy}
        placeholder="e.g. Optimise the structure at https://example.org/structures/Cu_bulk.cif with a DPA model, then compute its phonons"
        onChange={(e) => setTask(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
        data-testid="home-prompt-input"
      />
      <ExampleButtons examples={examples} disabled={busy} onTry={tryExample} />
      <div className="new-prompt__options">
        <ToolkitPicker toolkits={toolkits} selected={picked} disabled={busy} onChange={setSelected} />
        {toolkits?.some((t) => t.runnable) ? (
          <p className="toolkit-legend" data-testid="toolkit-legend">
            <span className="toolkit-legend__mark" aria-hidden="true">
              ▶
            </span>{' '}
            Runnable: a test-run calls these tools. The others only declare tools, to plan and export with.
          </p>
        ) : null}
      </div>
      <div className="new-prompt__footer">
        <PlannerSelect llm={llm} value={planner} disabled={busy} onChange={setPlanner} />
        <span className="muted new-prompt__hint">Enter to plan · Shift+Enter for a new line</span>
        {busy && progress?.status === 'running' ? (
          <button
            type="button"
            className="btn"
            onClick={() => controller.current?.abort()}
            data-testid="home-prompt-cancel"
          >
            Cancel
          </button>
        ) : null}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || !task.trim()}
          data-testid="home-prompt-submit"
        >
          {busy ? 'Planning…' : 'Plan workflow'}
        </button>
      </div>
      <PlanStatus progress={progress} />
      {toolkitsError ? (
        <p className="error-text new-prompt__error" role="alert">
          {toolkitsError}
        </p>
      ) : null}
      {error ? (
        <p className="error-text new-prompt__error" role="alert" data-testid="home-prompt-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The examples over the runnable samples: each fills the prompt and ticks its toolkit. */
function ExampleButtons({
  examples,
  disabled,
  onTry,
}: {
  examples: RunnableExample[];
  disabled: boolean;
  onTry(example: RunnableExample): void;
}) {
  if (!examples.length) return null;
  return (
    <div className="new-prompt__examples" role="group" aria-labelledby="new-examples">
      <span id="new-examples" className="muted">
        Try one that runs as planned:
      </span>
      {examples.map((example) => (
        <button
          key={example.task}
          type="button"
          className="btn btn-small"
          title={example.task}
          disabled={disabled}
          onClick={() => onTry(example)}
          data-testid="home-example"
        >
          {example.title}
        </button>
      ))}
    </div>
  );
}

/** The offline planner, or the configured language model when there is one. */
function PlannerSelect({
  llm,
  value,
  disabled,
  onChange,
}: {
  llm: string | null;
  value: Planner;
  disabled: boolean;
  onChange(planner: Planner): void;
}) {
  return (
    <label className="prompt-bar__planner new-prompt__planner">
      <span className="muted">Planner</span>
      <select
        title={llm ?? undefined}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as Planner)}
        data-testid="home-planner"
      >
        <option value="offline">Offline (deterministic, no model)</option>
        {llm ? <option value="llm">Language model: {getModelLabel(llm)}</option> : null}
      </select>
    </label>
  );
}
