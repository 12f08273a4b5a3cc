/**
 * The one planning loop, for every provider (docs/design.md §6.2). Each turn sends the
 * system prompt, the tools and the conversation through the injected ModelPort; every tool call
 * the model makes becomes a step (ids `step_1, step_2, …` in call order) the moment its arguments
 * are complete, and is answered with a synthetic result `{step_id, outputs}` so later calls can
 * wire to it with `{{step_N.output}}`. The run stops when a turn has no tool calls or after
 * `maxIterations` turns. Bad model output is reported on the step or as an event; it never ends
 * the run with an exception.
 */
import { answerCall } from './answer-call';
import { EDIT_TOOLS, isEditToolName } from './edit-tools';
import { buildSystemPrompt } from './prompt';
import {
  createRunState,
  getLiveSteps,
  getSystemParams,
  peekNextId,
  rejectCall,
  type CallOutcome,
} from './run-state';
import { createToolCallScanner, type TextToolCall } from './text-protocol';
import { getNodeParameters } from '../workflow/export';
import { getConnectedInputs } from '../workflow/graph';
import type { WorkflowDocument } from '../workflow/types';
import type {
  ConversationMessage,
  MissingValue,
  ConversationToolCall,
  ModelErrorKind,
  ModelPort,
  ModelTurnRequest,
  PlanEvent,
  PlannerInput,
  PlannerOptions,
  StopReason,
  ToolProtocol,
} from './types';

export { MAX_STEPS_PER_RUN } from './answer-call';

/** Model turns per run unless the caller says otherwise (a model that keeps calling tools must still stop). */
export const DEFAULT_MAX_ITERATIONS = 8;
/**
 * Run the planner: an async stream of PlanEvents that always starts with `start` and ends with
 * `done` (stop reason `no_tool_calls`, `max_iterations`, `cancelled` or `error`). Abort
 * `opts.signal` to cancel; the current turn is abandoned and what was planned so far is kept.
 */
export async function* runPlanner(
  input: PlannerInput,
  port: ModelPort,
  opts: PlannerOptions = {},
): AsyncGenerator<PlanEvent, void, undefined> {
  const maxIterations = Math.max(1, Math.floor(opts.maxIterations ?? DEFAULT_MAX_ITERATIONS));
  const state = createRunState(input, EDIT_TOOLS);
  const warnings: PlanEvent[] = [];
  const tools = [...state.callable.values()];
  for (const tool of input.tools) {
    if (isEditToolName(tool.name)) {
      warnings.push({
        type: 'warning',
        message: `A tool named "${tool.name}" shadows Toolflow's edit tool of that name; the model can only call the tool.`,
      });
    }
  }
  let protocol: ToolProtocol = opts.protocol ?? port.protocol ?? 'native';
  yield { type: 'start', planner: port.planner, model: port.model, protocol, maxIterations };
  yield* warnings;

  const controller = new AbortController();
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) controller.abort();

  const messages: ConversationMessage[] = [{ role: 'user', content: input.task }];
  let iteration = 0;
  let stopReason: StopReason | undefined;
  let stopMessage: string | undefined;
  try {
    while (stopReason === undefined) {
      if (controller.signal.aborted) {
        stopReason = 'cancelled';
        break;
      }
      if (iteration >= maxIterations) {
        stopReason = 'max_iterations';
        stopMessage = `Stopped after ${maxIterations} model turns (max_iterations) while the model was still calling tools; the plan may be incomplete. Send a follow-up prompt, or allow more turns.`;
        break;
      }
      iteration++;
      yield {
        type: 'progress',
        iteration,
        message: `Turn ${iteration} of at most ${maxIterations}: asking ${port.planner} (${port.model}).`,
      };
      const request: ModelTurnRequest = {
        turn: iteration,
        protocol,
        system: buildSystemPrompt({
          task: input.task,
          tools,
          protocol,
          systemParams: getSystemParams(state),
          ...(input.document ? { document: input.document } : {}),
          nextStepId: peekNextId(state),
        }),
        messages: [...messages],
        tools,
        signal: controller.signal,
        context: {
          task: input.task,
          tools,
          ...(input.document ? { document: input.document } : {}),
          systemParams: getSystemParams(state),
          steps: getLiveSteps(state),
          nextStepId: peekNextId(state),
        },
      };
      const turn = yield* runTurn(state, port, request, iteration);
      if (controller.signal.aborted) {
        stopReason = 'cancelled';
        break;
      }
      if (turn.error) {
        if (turn.error.kind === 'tools_unsupported' && protocol === 'native' && turn.answered.length === 0) {
          protocol = 'text';
          iteration--;
          yield {
            type: 'warning',
            message: `The endpoint refused native tool calling (${turn.error.message}); retrying with the text protocol (tools described in the prompt, calls as <tool_call> blocks).`,
          };
          continue;
        }
        if (turn.error.kind === 'cancelled') {
          stopReason = 'cancelled';
          break;
        }
        yield { type: 'error', message: turn.error.message, code: turn.error.kind };
        stopReason = 'error';
        stopMessage = turn.error.message;
        break;
      }
      messages.push(...turn.messages);
      if (turn.prose !== '') yield { type: 'text', iteration, text: turn.prose };
      if (turn.answered.length === 0) {
        if (state.steps.length === 0 && state.operations.length === 0) {
          // Nothing planned: say why, in the words of the planner that ran.
          stopMessage = getNothingPlannedMessage(port, turn);
          if (port.isLanguageModel !== false) yield { type: 'warning', message: stopMessage };
        }
        stopReason = 'no_tool_calls';
      }
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }

  yield {
    type: 'done',
    stopReason,
    iterations: iteration,
    // What stands at the end: steps and edges removed later in the same run are left out.
    steps: state.steps.filter((s) => state.doc.nodes.some((n) => n.id === s.id)),
    edges: state.doc.edges.filter((e) => state.newEdges.has(e.id)),
    operations: state.operations,
    ...(stopMessage ? { message: stopMessage } : {}),
    missingValues: getMissingValues(state.doc, new Set(state.steps.map((s) => s.id))),
  };
}

/** Why a run planned nothing: a language model's silence, or the rules planner's own notices. */
function getNothingPlannedMessage(port: ModelPort, turn: TurnOutcome): string {
  if (port.isLanguageModel === false) {
    return turn.notices.length > 0
      ? turn.notices.join(' ')
      : `The ${port.planner} planner found nothing in the task to plan. Name the steps you want in the words the tools use.`;
  }
  return turn.prose === ''
    ? 'The model replied with nothing: no text and no tool calls. Rephrase the task, or check the model name.'
    : 'The model answered without calling any tool, so the workflow is empty. Name the steps you want, or check that the tools fit the task.';
}

/** The required parameters of these steps that have no value: what the person still has to give. */
function getMissingValues(doc: WorkflowDocument, stepIds: ReadonlySet<string>): MissingValue[] {
  const connected = getConnectedInputs(doc.edges);
  const missing: MissingValue[] = [];
  for (const node of doc.nodes) {
    if (!stepIds.has(node.id)) continue;
    for (const problem of getNodeParameters(doc, node, connected.get(node.id)).problems) {
      if (problem.code === 'missing_required' && problem.param)
        missing.push({ stepId: node.id, param: problem.param });
    }
  }
  return missing;
}

interface TurnOutcome {
  /** Calls answered this turn (accepted or rejected). */
  answered: CallOutcome[];
  /** The conversation to append: the assistant's reply and the results. */
  messages: ConversationMessage[];
  /** Reply text without `<tool_call>` blocks. */
  prose: string;
  /** What the port said during the turn besides its reply (its `notice` events). */
  notices: string[];
  error?: { kind: ModelErrorKind; message: string };
}

async function* runTurn(
  state: Parameters<typeof answerCall>[0],
  port: ModelPort,
  request: ModelTurnRequest,
  iteration: number,
): AsyncGenerator<PlanEvent, TurnOutcome, undefined> {
  const native: { call: ConversationToolCall; outcome: CallOutcome }[] = [];
  const fromText: { block: TextToolCall; outcome: CallOutcome }[] = [];
  const scanner = createToolCallScanner();
  const pendingBlocks: TextToolCall[] = [];
  const usedIds = new Set<string>();
  const streaming = new Set<string>();
  let text = '';
  const notices: string[] = [];
  let error: TurnOutcome['error'];

  const answerText = (block: TextToolCall): PlanEvent[] => {
    const outcome = block.ok
      ? answerCall(state, block.name, block.arguments, block.repairs, block.cut)
      : rejectCall(
          `A <tool_call> block could not be read: ${block.error}. Write {"name": …, "arguments": {…}} inside the block.`,
          'bad_tool_call',
        );
    fromText.push({ block, outcome });
    return outcome.events;
  };

  try {
    for await (const event of port.turn(request)) {
      if (request.signal.aborted) break;
      switch (event.type) {
        case 'text_delta': {
          text += event.text;
          const blocks = scanner.push(event.text);
          // Under the text protocol a step appears as soon as its block closes; under native
          // calling, blocks in prose are only a fallback read at the end of the turn.
          if (request.protocol === 'text') for (const block of blocks) yield* answerText(block);
          else pendingBlocks.push(...blocks);
          break;
        }
        case 'tool_call': {
          const call = {
            ...event.call,
            callId: getUniqueCallId(event.call.callId, usedIds, iteration, native.length),
          };
          const outcome = answerCall(state, call.name, call.arguments, []);
          native.push({ call, outcome });
          yield* outcome.events;
          break;
        }
        case 'tool_call_delta':
          // The first piece of a call: say what is coming, so a UI can show it before it is done.
          if (!streaming.has(event.key) && event.name) {
            streaming.add(event.key);
            yield { type: 'progress', iteration, message: `Receiving a call to ${event.name}…` };
          }
          break;
        case 'notice':
          notices.push(event.message);
          yield { type: 'warning', message: event.message };
          break;
        case 'error':
          error = { kind: event.kind, message: event.message };
          break;
        case 'turn_end':
          break;
      }
      if (error) break;
    }
  } catch (thrown) {
    const reason = thrown instanceof Error ? thrown.message : String(thrown);
    error = request.signal.aborted
      ? { kind: 'cancelled', message: 'Cancelled.' }
      : { kind: 'bad_response', message: `The model connection failed unexpectedly: ${reason}` };
  }
  if (request.signal.aborted)
    return {
      answered: [],
      messages: [],
      prose: '',
      notices,
      error: { kind: 'cancelled', message: 'Cancelled.' },
    };

  const rest = scanner.finish();
  if (!error) {
    if (request.protocol === 'text') {
      for (const block of rest) yield* answerText(block);
    } else if (native.length === 0 && pendingBlocks.length + rest.length > 0) {
      yield {
        type: 'warning',
        message:
          'The model wrote <tool_call> blocks in its reply instead of native tool calls; they were read as calls.',
      };
      for (const block of [...pendingBlocks, ...rest]) yield* answerText(block);
    }
  }

  const prose = stripToolCallBlocks(text);
  const messages: ConversationMessage[] = [];
  if (native.length > 0) {
    messages.push({ role: 'assistant', content: text, toolCalls: native.map((n) => n.call) });
    for (const { call, outcome } of native) {
      messages.push({
        role: 'tool',
        callId: call.callId,
        name: call.name,
        content: JSON.stringify(outcome.result),
      });
    }
  } else {
    messages.push({ role: 'assistant', content: text, toolCalls: [] });
    if (fromText.length > 0) {
      const results = fromText.map(({ block, outcome }) => {
        const name = block.ok ? block.name : 'unknown';
        return `<tool_result name=${JSON.stringify(name)}>${JSON.stringify(outcome.result)}</tool_result>`;
      });
      messages.push({ role: 'user', content: results.join('\n') });
    }
  }
  return {
    answered: [...native.map((n) => n.outcome), ...fromText.map((t) => t.outcome)],
    messages,
    prose,
    notices,
    ...(error ? { error } : {}),
  };
}

function getUniqueCallId(callId: string, used: Set<string>, iteration: number, index: number): string {
  let id = callId.trim() === '' || used.has(callId) ? `call_${iteration}_${index + 1}` : callId;
  while (used.has(id)) id += '_';
  used.add(id);
  return id;
}

function stripToolCallBlocks(text: string): string {
  return text
    .replace(/<tool_call\b[^>]*>[\s\S]*?(?:<\/tool_call\s*>|$)/gi, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
