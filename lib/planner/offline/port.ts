/**
 * The offline planner behind the same ModelPort as a language model, so it runs through the
 * one planning loop and streams the same PlanEvents: its first turn makes every call at once,
 * its second turn makes none (stop reason `no_tool_calls`).
 */
import { EDIT_TOOLS } from '../edit-tools';
import type { ModelEvent, ModelPort, ModelTurnRequest } from '../types';
import { planOffline } from './plan';

/** The planner name the UI and CLI show for the offline planner. */
export const OFFLINE_PLANNER = 'offline';

/** A ModelPort that plans without a model (deterministic; see `planOffline`). */
export function createOfflinePort(): ModelPort {
  return {
    planner: OFFLINE_PLANNER,
    model: 'rules (no language model)',
    isLanguageModel: false,
    turn: (request) => runOfflineTurn(request),
  };
}

async function* runOfflineTurn(request: ModelTurnRequest): AsyncGenerator<ModelEvent> {
  const alreadyPlanned = request.messages.some((m) => m.role === 'assistant');
  if (alreadyPlanned) {
    yield { type: 'text_delta', text: 'The offline plan is complete.' };
    yield { type: 'turn_end', finishReason: 'stop' };
    return;
  }
  const { context } = request;
  const existing = (context.document?.nodes ?? []).map((n) => ({ id: n.id, tool: n.tool, args: n.args }));
  const plan = planOffline({
    task: context.task,
    // The edit tools are for models; the offline planner only adds steps.
    tools: context.tools.filter((t) => !EDIT_TOOLS.includes(t)),
    existingSteps: [...existing, ...context.steps],
    firstStepNumber: Number(/^step_(\d+)$/.exec(context.nextStepId)?.[1] ?? 1),
    systemParams: context.systemParams,
  });
  for (const note of plan.notes) yield { type: 'notice', message: note };
  if (request.protocol === 'text') {
    const blocks = plan.calls.map(
      (c) => `<tool_call>${JSON.stringify({ name: c.tool, arguments: c.args })}</tool_call>`,
    );
    yield { type: 'text_delta', text: blocks.join('\n') };
  } else {
    for (const [i, call] of plan.calls.entries()) {
      yield {
        type: 'tool_call',
        call: { callId: `offline_${i + 1}`, name: call.tool, arguments: JSON.stringify(call.args) },
      };
    }
  }
  yield { type: 'turn_end', finishReason: plan.calls.length > 0 ? 'tool_calls' : 'stop' };
}
