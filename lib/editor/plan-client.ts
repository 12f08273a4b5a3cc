/**
 * The browser side of planning: POST /api/plan, read its NDJSON PlanEvents as they stream, and
 * show them on the canvas while they arrive. The store is locked for the run (beginAiEdit),
 * each event re-renders `document before the run + operations so far`, and the finished run is
 * applied as one undoable, auto-laid-out change. Cancel aborts the request; what already
 * arrived stays (one undo step removes it).
 */
import { openPlanStream } from '../api/plan';
import type { PlanRequest as ApiPlanRequest } from '../api/types';
import { isJsonObject } from '../tools/json-schema';
import type { ToolDeclaration } from '../tools/types';
import { getPlanOutcome, type PlanOutcome } from '../planner/outcome';
import type { PlanEvent, PlanOperation, StopReason } from '../planner/types';
import { loadValueChecks } from '#value-checks';
import { loadAutoLayout } from './load-auto-layout';
import { readNdjson } from './ndjson';
import { applyOperationsLeniently, getEventOperation } from './plan-apply';
import type { EditorStore } from './store';

/**
 * What the editor asks the planner for: its toolkits (absent: every toolkit the person sees, the
 * server's default) and always which planner, since the server's default picks the model
 * whenever one is configured.
 */
export type PlanRequest = Pick<ApiPlanRequest, 'task' | 'document' | 'toolkitIds'> & {
  llm: 'offline' | 'openai';
};

/** Where a run is, for the progress line. */
export interface PlanProgress {
  status: 'starting' | 'running' | 'done' | 'cancelled' | 'failed';
  planner: string | null;
  model: string | null;
  iteration: number;
  steps: number;
  edges: number;
  /** The latest thing the planner said it was doing. */
  message: string | null;
  stopReason: StopReason | null;
  /** How a finished run ended: nothing planned (and why), everything, or values left. */
  outcome: PlanOutcome | null;
  /** Warnings and rejected calls, in order. */
  notices: { severity: 'warning' | 'error'; message: string; stepId?: string }[];
  /** Why the run failed (HTTP, network, stream). */
  error: string | null;
}

export const INITIAL_PROGRESS: PlanProgress = {
  status: 'starting',
  planner: null,
  model: null,
  iteration: 0,
  steps: 0,
  edges: 0,
  message: null,
  stopReason: null,
  outcome: null,
  notices: [],
  error: null,
};

/** The progress after one more event. */
export function reducePlanProgress(progress: PlanProgress, event: PlanEvent): PlanProgress {
  switch (event.type) {
    case 'start':
      return { ...progress, status: 'running', planner: event.planner, model: event.model };
    case 'progress':
      return { ...progress, iteration: event.iteration, message: event.message };
    case 'step':
      return { ...progress, steps: progress.steps + 1 };
    case 'edge':
      return { ...progress, edges: progress.edges + 1 };
    case 'operation':
    case 'text':
      return progress;
    default:
      // Lines this client does not know (the server's trailing `document`) change nothing.
      return progress;
    case 'warning':
      return {
        ...progress,
        notices: [...progress.notices, { severity: 'warning', message: event.message, stepId: event.stepId }],
      };
    case 'error':
      return {
        ...progress,
        notices: [...progress.notices, { severity: 'error', message: event.message, stepId: event.stepId }],
      };
    case 'done':
      return {
        ...progress,
        status:
          event.stopReason === 'error' ? 'failed' : event.stopReason === 'cancelled' ? 'cancelled' : 'done',
        iteration: event.iterations,
        steps: event.steps.length,
        edges: event.edges.length,
        stopReason: event.stopReason,
        outcome:
          event.stopReason === 'no_tool_calls' || event.stopReason === 'max_iterations'
            ? getPlanOutcome(event)
            : null,
        error:
          event.stopReason === 'error'
            ? (event.message ?? 'The planner stopped with an error.')
            : progress.error,
        message: event.message ?? progress.message,
      };
  }
}

// The progress line is kept apart (plan-progress.ts) so the prompt bar shows it without loading
// this module, which loads when a plan starts.
export { describePlanProgress } from './plan-progress';

/** An HTTP or stream failure of /api/plan, with a message for the person. */
export class PlanRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanRequestError';
  }
}

function isPlanEvent(value: unknown): value is PlanEvent {
  return isJsonObject(value) && typeof value.type === 'string';
}

/** POSTs the request and yields the planner's events as they stream. */
export async function* streamPlan(request: PlanRequest, signal: AbortSignal): AsyncGenerator<PlanEvent> {
  const opened = await openPlanStream(request, { signal });
  if (!opened.ok) {
    const { body, message } = opened.error;
    // A message of the server's says why it refused; one of ours already says what failed.
    throw new PlanRequestError(body ? `The planner refused the request: ${message}` : message);
  }
  for await (const value of readNdjson(opened.value)) {
    if (isPlanEvent(value)) yield value;
  }
}

/** What runPlan reports as it goes. */
export interface PlanRunHooks {
  onProgress(progress: PlanProgress): void;
}

/** How a first plan began: it made a step (read on from `events`), or it ended without one. */
export type FirstPlanStart =
  | { kind: 'steps'; progress: PlanProgress; events: AsyncGenerator<PlanEvent> }
  | { kind: 'ended'; progress: PlanProgress };

/**
 * Opens a plan and reads it until its first change or its end, so that a first plan that makes no
 * step creates no workflow. On a change, `events` replays what was read and goes on with the
 * stream, for the editor to show on its canvas. Never throws (failures end it, in the progress).
 */
export async function openFirstPlan(
  request: PlanRequest,
  signal: AbortSignal,
  hooks: PlanRunHooks,
): Promise<FirstPlanStart> {
  let progress = INITIAL_PROGRESS;
  const report = (next: PlanProgress) => {
    progress = next;
    hooks.onProgress(progress);
  };
  report(progress);
  const stream = streamPlan(request, signal);
  const seen: PlanEvent[] = [];
  try {
    for (;;) {
      const next = await stream.next();
      if (next.done) {
        report({
          ...progress,
          status: 'failed',
          error: 'The planner stopped answering before it finished. Try again.',
        });
        return { kind: 'ended', progress };
      }
      const event = next.value;
      seen.push(event);
      report(reducePlanProgress(progress, event));
      const changed =
        event.type === 'step' ||
        event.type === 'operation' ||
        (event.type === 'done' && event.operations.length > 0);
      if (changed) return { kind: 'steps', progress, events: replayThen(seen, stream) };
      if (event.type === 'done') return { kind: 'ended', progress };
    }
  } catch (error) {
    const cancelled = (error as Error).name === 'AbortError' || signal.aborted;
    report(
      cancelled
        ? { ...progress, status: 'cancelled', stopReason: 'cancelled' }
        : { ...progress, status: 'failed', error: (error as Error).message },
    );
    return { kind: 'ended', progress };
  }
}

async function* replayThen(
  seen: readonly PlanEvent[],
  rest: AsyncGenerator<PlanEvent>,
): AsyncGenerator<PlanEvent> {
  yield* seen;
  yield* rest;
}

/**
 * Runs one planning request against the editor: locks the canvas, shows each streamed change,
 * then applies the whole change as one undo step (auto-laid out) and unlocks. Resolves with the
 * final progress; never throws (failures are in the progress).
 */
export async function runPlan(
  store: EditorStore,
  request: PlanRequest,
  tools: readonly ToolDeclaration[],
  signal: AbortSignal,
  hooks: PlanRunHooks,
  /** A run already under way (the home page's first plan); by default a new request is sent. */
  events?: AsyncIterable<PlanEvent>,
): Promise<PlanProgress> {
  const base = store.getState().doc;
  const operations: PlanOperation[] = [];
  let progress = INITIAL_PROGRESS;
  let finalOperations: readonly PlanOperation[] | null = null;
  const report = (next: PlanProgress) => {
    progress = next;
    hooks.onProgress(progress);
  };
  report(progress);
  store.getState().beginAiEdit();
  // The result is auto-laid out: load the layout engine while the planner works.
  const layoutReady = loadAutoLayout().catch(() => undefined);
  // Planned calls carry their schema problems: the value checks must be loaded (the editor
  // loads them on its first change otherwise).
  await loadValueChecks().catch(() => undefined);
  try {
    for await (const event of events ?? streamPlan(request, signal)) {
      report(reducePlanProgress(progress, event));
      if (event.type === 'done') {
        finalOperations = event.operations;
        break;
      }
      const op = getEventOperation(event);
      if (op) {
        operations.push(op);
        store.getState().setDoc(applyOperationsLeniently(base, operations, tools).doc);
      }
    }
    if (!finalOperations && progress.status === 'running') {
      report({
        ...progress,
        status: 'failed',
        error: 'The planner stopped answering before it finished. Try again.',
      });
    }
  } catch (error) {
    if ((error as Error).name === 'AbortError' || signal.aborted) {
      report({ ...progress, status: 'cancelled', stopReason: 'cancelled' });
    } else {
      report({ ...progress, status: 'failed', error: (error as Error).message });
    }
  } finally {
    const { doc: next, issues } = applyOperationsLeniently(base, finalOperations ?? operations, tools);
    if (issues.length > 0) {
      const notices = issues.map((i) => ({
        severity: 'error' as const,
        message: `Not applied: ${i.message}`,
      }));
      report({ ...progress, notices: [...progress.notices, ...notices] });
    }
    await layoutReady;
    if (next !== base) store.getState().applyAiChange(next);
    store.getState().endAiEdit();
  }
  return progress;
}
