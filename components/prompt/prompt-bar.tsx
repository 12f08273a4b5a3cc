'use client';
import { useEffect, useRef, useState } from 'react';
import '@/components/ui/controls.css';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import type { PlanProgress } from '@/lib/editor/plan-client';
import { releaseHandedOffPlan, type PlanHandoff } from '@/lib/editor/plan-handoff';
import { selectAiEditing, selectNodeCount } from '@/lib/editor/selectors';
import type { ToolkitSummary } from '@/lib/api/toolkits';
import type { EditorState } from '@/lib/editor/store';
import { getModelLabel } from '@/lib/editor/model-label';
import { ToolkitPicker } from './toolkit-picker';
import { lazyComponent } from '@/components/ui/lazy';
import './prompt.css';

/** A run the editor starts by itself: the first plan of a workflow created from the home page. */
export interface AutoStartPlan {
  task: string;
  /** Empty: every toolkit. */
  toolkitIds: string[];
  llm: boolean;
  /** The home page's run, already streaming, to show instead of sending the task again. */
  handoff?: PlanHandoff;
}

interface Props {
  toolkits: ToolkitSummary[] | null;
  /** The configured language model, described (e.g. "openai-chat (gpt-4.1-mini at …)"), or null. */
  llm: string | null;
  autoStart?: AutoStartPlan | null;
}

// The progress line shows once a plan has started, so it loads with the planning client.
const loadPlanStatus = () => import('./plan-status').then((m) => m.PlanStatus);
const PlanStatus = lazyComponent(loadPlanStatus);

const selectReadOnly = (s: EditorState) => s.meta.readOnly;

/**
 * The editor's prompt: describe a task (or, with steps on the canvas, a change to them), pick
 * toolkits, Enter. Steps stream onto the canvas; Cancel stops the run.
 */
export function PromptBar({ toolkits, llm, autoStart }: Props) {
  const store = useEditorStoreApi();
  const nodeCount = useEditorStore(selectNodeCount);
  const aiEditing = useEditorStore(selectAiEditing);
  const readOnly = useEditorStore(selectReadOnly);
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [useLlm, setUseLlm] = useState(llm !== null);
  const [progress, setProgress] = useState<PlanProgress | null>(null);
  const [running, setRunning] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const started = useRef(false);

  // Every toolkit is picked until the person narrows the choice.
  const picked = selected ?? new Set(toolkits?.map((t) => t.id) ?? []);
  const busy = running || aiEditing;

  const run = async (task: string, toolkitIds: string[], useModel: boolean, handoff?: PlanHandoff) => {
    if (controller.current || !toolkits) return;
    const chosen = toolkitIds.length > 0 ? toolkits.filter((t) => toolkitIds.includes(t.id)) : toolkits;
    const tools = chosen.flatMap((t) => t.tools);
    const doc = store.getState().doc;
    const abort = new AbortController();
    controller.current = abort;
    if (handoff) {
      releaseHandedOffPlan(handoff);
      abort.signal.addEventListener('abort', () => handoff.abort(), { once: true });
    }
    setRunning(true);
    try {
      // The planning client (streaming, applying, laying out) and its progress line load when a
      // plan starts.
      const [{ runPlan }] = await Promise.all([import('@/lib/editor/plan-client'), loadPlanStatus()]);
      await runPlan(
        store,
        {
          task,
          toolkitIds: chosen.map((t) => t.id),
          ...(doc.nodes.length > 0 ? { document: doc } : {}),
          llm: useModel ? 'openai' : 'offline',
        },
        tools,
        abort.signal,
        { onProgress: setProgress },
        handoff?.events,
      );
    } finally {
      controller.current = null;
      setRunning(false);
    }
  };

  useEffect(() => {
    if (!autoStart || started.current || !toolkits) return;
    started.current = true;
    void run(autoStart.task, autoStart.toolkitIds, autoStart.llm, autoStart.handoff);
    // run reads the latest state through the store; it only has to start once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoStart, toolkits]);

  const submit = () => {
    const task = text.trim();
    if (!task || busy || readOnly) return;
    setText('');
    void run(task, [...picked], useLlm && llm !== null);
  };

  const followUp = nodeCount > 0;
  return (
    <div className="prompt-bar" data-testid="prompt-bar">
      <div className="prompt-bar__row">
        <textarea
          className="prompt-bar__input"
          rows={1}
          value={text}
          disabled={readOnly}
          placeholder={
            followUp
              ? 'Describe a change, e.g. “then compute the band structure too” — Enter to send'
              : 'Describe the task, e.g. “optimise the structure at … then compute its phonons” — Enter to plan'
          }
          aria-label={followUp ? 'Describe a change to this workflow' : 'Describe the task to plan'}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
          data-testid="prompt-input"
        />
        {busy ? (
          <button
            type="button"
            className="btn"
            onClick={() => controller.current?.abort()}
            data-testid="prompt-cancel"
          >
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            disabled={!text.trim() || readOnly || !toolkits}
            onClick={submit}
            data-testid="prompt-submit"
          >
            {followUp ? 'Edit' : 'Plan'}
          </button>
        )}
      </div>
      <div className="prompt-bar__options">
        <ToolkitPicker toolkits={toolkits} selected={picked} disabled={busy} onChange={setSelected} />
        {llm ? (
          <label className="prompt-bar__planner">
            <span className="muted">Planner</span>
            <select
              title={llm}
              value={useLlm ? 'llm' : 'offline'}
              disabled={busy}
              onChange={(e) => setUseLlm(e.target.value === 'llm')}
              data-testid="prompt-planner"
            >
              <option value="offline">Offline (deterministic)</option>
              <option value="llm">Language model: {getModelLabel(llm)}</option>
            </select>
          </label>
        ) : null}
      </div>
      {progress ? <PlanStatus progress={progress} /> : null}
    </div>
  );
}
