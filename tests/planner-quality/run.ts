/**
 * Plans a quality-set task the way the app does — the one planning loop with a model port, then
 * the document its operations build — and scores it. The offline planner and the scripted
 * OpenAI-protocol server both go through here, so they are measured the same way.
 */
import { runPlanner } from '../../lib/planner/loop';
import { createOfflinePort } from '../../lib/planner/offline/port';
import { createPlannedDocument } from '../../lib/planner/operations';
import type { ModelPort, PlanEvent } from '../../lib/planner/types';
import type { WorkflowDocument } from '../../lib/workflow/types';
import { scoreTask, type TaskScore } from './score';
import { getToolset, type QualityTask } from './set';

export interface PlannedTask {
  task: QualityTask;
  doc: WorkflowDocument;
  done: Extract<PlanEvent, { type: 'done' }>;
  /** Warnings and notices the run streamed (what the planner says it could not do). */
  messages: string[];
  score: TaskScore;
}

/** Plan one task through `port` (default: the offline planner) and score the document. */
export async function planTask(
  task: QualityTask,
  port: ModelPort = createOfflinePort(),
): Promise<PlannedTask> {
  const tools = getToolset(task.toolset);
  let done: Extract<PlanEvent, { type: 'done' }> | undefined;
  const messages: string[] = [];
  for await (const event of runPlanner({ task: task.task, tools }, port)) {
    if (event.type === 'done') done = event;
    else if (event.type === 'warning' || event.type === 'error') messages.push(event.message);
  }
  if (!done) throw new Error(`${task.id}: the planning loop ended without a done event`);
  if (done.stopReason === 'error') throw new Error(`${task.id}: planning failed: ${done.message ?? ''}`);
  const doc = createPlannedDocument(task.task, done.operations, tools);
  if (!doc.ok) throw new Error(`${task.id}: the plan does not build: ${JSON.stringify(doc.error)}`);
  return { task, doc: doc.value, done, messages, score: scoreTask(task, doc.value) };
}

/** The task's expected steps as the tool calls a model would make (references included). */
export function getExpectedCalls(task: QualityTask): { name: string; arguments: Record<string, unknown> }[] {
  return task.steps.map((step) => ({ name: step.tool, arguments: step.args }));
}
