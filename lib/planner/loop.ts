/**
 * The one planning loop, for every provider (DESIGN §3, seeds 003 and 004). Each turn sends the
 * system prompt, the tools and the conversation through the injected ModelPort; every tool call
 * the model makes becomes a step (ids `step_1, step_2, …` in call order) the moment its arguments
 * are complete, and is answered with a synthetic result `{step_id, outputs}` so later calls can
 * wire to it with `{{step_N.output}}`. The run stops when a turn has no tool calls or after
 * `maxIterations` turns. Bad model output is reported on the step or as an event; it never ends
 * the run with an exception.
 */
import { hashDeclaration } from '../tools/canonical-json';
import { DEFAULT_SYSTEM_PARAMS, type ToolDeclaration } from '../tools/types';
import { getToolSnapshot, hasPath, isTypeCompatible } from '../workflow/graph';
import { buildNodeParameters, getOutputParameters, getParamPlan, setJsonMember } from '../workflow/params';
import { getReferences, parseReference } from '../workflow/plan';
import type { NodeIssue, ParamType, WorkflowEdge } from '../workflow/types';
import { parseToolArguments, type ArgumentCut } from './arguments';
import { EDIT_TOOLS, isEditToolName } from './edit-tools';
import { buildSystemPrompt } from './prompt';
import { createToolCallScanner, type TextToolCall } from './text-protocol';
import type {
  ConversationMessage,
  ConversationToolCall,
  ModelErrorKind,
  ModelPort,
  ModelTurnRequest,
  PlanEvent,
  PlannedEdge,
  PlannedStep,
  PlannerInput,
  PlannerOptions,
  PlanOperation,
  StopReason,
  ToolProtocol,
} from './types';

/** Model turns per run unless the caller says otherwise (seed 004: a loop needs a ceiling). */
export const DEFAULT_MAX_ITERATIONS = 8;
/** Steps per run; a model that keeps calling is stopped long before it floods the canvas. */
export const MAX_STEPS_PER_RUN = 200;
const MAX_LISTED_TOOLS = 30;

interface KnownStep {
  id: string;
  tool: string;
  decl: ToolDeclaration | undefined;
  outputs: { name: string; type: ParamType }[];
  removed: boolean;
}

interface RunState {
  systemParams: readonly string[];
  /** Tools the model may call, by name (real tools, then edit tools in a follow-up). */
  callable: Map<string, ToolDeclaration>;
  /**
   * The declaration the workflow holds for each tool name, with its hash, as applying the
   * operations will leave it: the document's snapshots, replaced by a new step's declaration
   * when that differs (the editor's addNode does the same).
   */
  snapshots: Map<string, { decl: ToolDeclaration; hash: string }>;
  known: Map<string, KnownStep>;
  /** The graph as it stands now: existing edges plus this run's, minus removed ones. */
  edges: PlannedEdge[];
  steps: PlannedStep[];
  newEdges: PlannedEdge[];
  operations: PlanOperation[];
  nextNumber: number;
}

/** What answering one call produced: events to stream and the result the model reads. */
interface CallOutcome {
  events: PlanEvent[];
  result: Record<string, unknown>;
}

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
  const state = createRunState(input);
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
          systemParams: state.systemParams,
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
          systemParams: state.systemParams,
          steps: state.steps.map((s) => ({
            id: s.id,
            tool: s.tool,
            args: s.args,
            outputs: state.known.get(s.id)?.outputs.map((o) => o.name) ?? [],
          })),
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
        if (turn.prose === '' && state.steps.length === 0 && state.operations.length === 0) {
          yield {
            type: 'warning',
            message:
              'The model replied with nothing: no text and no tool calls. Rephrase the task, or check the model name.',
          };
        } else if (state.steps.length === 0 && state.operations.length === 0) {
          yield {
            type: 'warning',
            message:
              'The model answered without calling any tool, so the workflow is empty. Name the steps you want, or check that the tools fit the task.',
          };
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
    steps: state.steps.filter((s) => !state.known.get(s.id)?.removed),
    edges: state.newEdges.filter((e) => state.edges.includes(e)),
    operations: state.operations,
    ...(stopMessage ? { message: stopMessage } : {}),
  };
}

interface TurnOutcome {
  /** Calls answered this turn (accepted or rejected). */
  answered: CallOutcome[];
  /** The conversation to append: the assistant's reply and the results. */
  messages: ConversationMessage[];
  /** Reply text without `<tool_call>` blocks. */
  prose: string;
  error?: { kind: ModelErrorKind; message: string };
}

async function* runTurn(
  state: RunState,
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
    return { answered: [], messages: [], prose: '', error: { kind: 'cancelled', message: 'Cancelled.' } };

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

// ---- state ----

function createRunState(input: PlannerInput): RunState {
  const systemParams = input.systemParams ?? input.document?.systemParams ?? DEFAULT_SYSTEM_PARAMS;
  const callable = new Map<string, ToolDeclaration>();
  for (const tool of input.tools) if (!callable.has(tool.name)) callable.set(tool.name, tool);
  const known = new Map<string, KnownStep>();
  const edges: PlannedEdge[] = [];
  const snapshots: RunState['snapshots'] = new Map();
  const doc = input.document;
  if (doc) {
    for (const name of Object.keys(doc.tools))
      snapshots.set(name, { decl: doc.tools[name].declaration, hash: doc.tools[name].hash });
    // Tools the workflow already uses stay callable even when the request did not list them.
    for (const snapshot of Object.values(doc.tools)) {
      if (!callable.has(snapshot.declaration.name))
        callable.set(snapshot.declaration.name, snapshot.declaration);
    }
    for (const node of doc.nodes) {
      const decl = getToolSnapshot(doc, node.tool)?.declaration;
      known.set(node.id, {
        id: node.id,
        tool: node.tool,
        decl,
        outputs: decl
          ? [...getOutputParameters(decl)]
          : (node.placeholderOutputs ?? [{ name: 'result', type: 'any' }]),
        removed: false,
      });
    }
    for (const e of doc.edges) {
      edges.push({
        source: e.source,
        source_output: e.sourceOutput,
        target: e.target,
        target_input: e.targetInput,
      });
    }
  }
  // Edit tools in every run: a model can fix a step it made (a repaired or wrong value)
  // instead of calling the tool again, and a follow-up changes the steps already there.
  for (const tool of EDIT_TOOLS) if (!callable.has(tool.name)) callable.set(tool.name, tool);
  let highest = 0;
  for (const id of known.keys()) {
    const n = /^step_(\d+)$/.exec(id);
    if (n) highest = Math.max(highest, Number(n[1]));
  }
  return {
    systemParams,
    callable,
    snapshots,
    known,
    edges,
    steps: [],
    newEdges: [],
    operations: [],
    nextNumber: highest + 1,
  };
}

function peekNextId(state: RunState): string {
  let n = state.nextNumber;
  while (state.known.has(`step_${n}`)) n++;
  return `step_${n}`;
}

function takeNextId(state: RunState): string {
  const id = peekNextId(state);
  state.nextNumber = Number(id.slice('step_'.length)) + 1;
  return id;
}

function getLiveSteps(state: RunState): string[] {
  return [...state.known.values()].filter((s) => !s.removed).map((s) => s.id);
}

// ---- answering calls ----

function rejectCall(message: string, code: string, stepId?: string): CallOutcome {
  return {
    events: [{ type: 'error', message, code, ...(stepId ? { stepId } : {}) }],
    result: { error: message },
  };
}

function answerCall(
  state: RunState,
  name: string,
  rawArguments: string,
  blockRepairs: string[],
  blockCut?: ArgumentCut,
): CallOutcome {
  const decl = state.callable.get(name);
  if (!decl) {
    const available = [...state.callable.keys()];
    // Enough names to correct a typo without flooding the log with a 2000-tool toolkit.
    const listed = available.slice(0, MAX_LISTED_TOOLS).join(', ');
    const more =
      available.length > MAX_LISTED_TOOLS
        ? ` and ${available.length - MAX_LISTED_TOOLS} more (see the catalogue)`
        : '';
    return rejectCall(
      `The model called "${name}", which is not an available tool; the call was rejected. Available tools: ${listed || '(none)'}${more}.`,
      'unknown_tool',
    );
  }
  if (isEditToolName(name) && EDIT_TOOLS.includes(decl)) {
    return answerEdit(state, name, rawArguments);
  }
  if (state.steps.length >= MAX_STEPS_PER_RUN) {
    return rejectCall(
      `The plan already has ${MAX_STEPS_PER_RUN} new steps, the most one run may add; the call to "${name}" was rejected. Split the task into smaller prompts.`,
      'too_many_steps',
    );
  }
  return addStep(state, decl, rawArguments, blockRepairs, blockCut);
}

/** What the model's argument text gave: the args, notes for the node, and what was repaired. */
interface ReadArguments {
  args: Record<string, unknown>;
  issues: NodeIssue[];
  raw?: string;
  /** Set when the text was not valid JSON and was repaired; told to the model in the result. */
  repaired?: { how: string[]; truncated: string[]; leftOut: string[] };
}

function readArguments(rawArguments: string, blockRepairs: string[], blockCut?: ArgumentCut): ReadArguments {
  const parsed = parseToolArguments(rawArguments);
  if (!parsed.ok) {
    return {
      args: {},
      raw: rawArguments,
      issues: [
        {
          severity: 'error',
          code: 'bad_json',
          message: `The model's arguments are ${parsed.error}; the step was added without arguments and the raw text is kept. Fill the parameters in the inspector.`,
        },
      ],
    };
  }
  const how = [...blockRepairs, ...parsed.repairs];
  if (how.length === 0) return { args: parsed.value, issues: [] };
  const cut = parsed.cut ?? blockCut;
  const issues: NodeIssue[] = [
    {
      severity: 'warning',
      code: 'repaired_arguments',
      message: `The model's arguments were not valid JSON and were repaired (${how.join('; ')}); check the values.`,
    },
  ];
  const truncated: string[] = [];
  const leftOut: string[] = [];
  const name = cut ? String(cut.path[0]) : undefined;
  if (cut && name !== undefined) {
    if (cut.kind === 'missing' && cut.path.length === 1) {
      leftOut.push(name);
      issues.push({
        severity: 'warning',
        code: 'possibly_truncated',
        message: `The model's reply was cut off after argument "${name}", before its value, so the argument was left out. Set it, or plan the step again.`,
        param: name,
      });
    } else if (Object.hasOwn(parsed.value, name)) {
      truncated.push(name);
      const at = cut.path.length > 1 ? ` (at ${cut.path.map((p) => `/${p}`).join('')})` : '';
      issues.push({
        severity: 'warning',
        code: 'possibly_truncated',
        message: `The model's reply was cut off inside argument "${name}"${at}, so its value may be incomplete: check it before running the workflow.`,
        param: name,
      });
    }
  }
  return { args: parsed.value, raw: rawArguments, issues, repaired: { how, truncated, leftOut } };
}

/** What the model reads about repaired arguments, so it can fix the step instead of calling again. */
function describeRepair(stepId: string, read: ReadArguments): Record<string, unknown> {
  if (!read.repaired) return {};
  const { how, truncated, leftOut } = read.repaired;
  return {
    repaired: {
      how,
      arguments: Object.keys(read.args),
      ...(truncated.length > 0 ? { possibly_truncated: truncated } : {}),
      ...(leftOut.length > 0 ? { left_out: leftOut } : {}),
    },
    repair_note: `Your arguments were not valid JSON and were repaired (${how.join('; ')}). Check the values above; to fix one, call update_step with step_id "${stepId}" instead of calling the tool again.`,
  };
}

function addStep(
  state: RunState,
  decl: ToolDeclaration,
  rawArguments: string,
  blockRepairs: string[],
  blockCut: ArgumentCut | undefined,
): CallOutcome {
  const adopted = adoptDeclaration(state, decl);
  const id = takeNextId(state);
  const read = readArguments(rawArguments, blockRepairs, blockCut);
  const issues = [...read.issues];
  const wired = wireReferences(state, id, decl, read.args, issues);
  const built = buildNodeParameters(decl, wired.values, {
    connectedInputs: new Set(wired.edges.map((e) => e.target_input)),
    systemParams: state.systemParams,
  });
  issues.push(...built.problems);
  const unknown = new Set(built.unknown_args);
  const args = Object.fromEntries(Object.entries(wired.values).filter(([k]) => !unknown.has(k)));
  const step: PlannedStep = {
    id,
    tool: decl.name,
    args,
    unknownArgs: built.unknown_args,
    ...(read.raw !== undefined ? { rawArguments: read.raw } : {}),
    issues,
  };
  const outputs = [...getOutputParameters(decl)];
  state.known.set(id, { id, tool: decl.name, decl, outputs, removed: false });
  state.steps.push(step);
  state.operations.push({ op: 'add_step', step });
  const events: PlanEvent[] = [...adopted, { type: 'step', step }];
  for (const edge of wired.edges) {
    state.edges.push(edge);
    state.newEdges.push(edge);
    state.operations.push({ op: 'connect', edge });
    events.push({ type: 'edge', edge });
  }
  const problems = issues.filter((i) => i.severity === 'error').map((i) => i.message);
  return {
    events,
    result: {
      step_id: id,
      outputs: outputs.map((o) => o.name),
      ...describeRepair(id, read),
      ...(problems.length > 0
        ? {
            problems,
            note: 'The step was kept as it is; the person will fix these problems. Do not repeat the call.',
          }
        : {}),
    },
  };
}

/**
 * A step of `decl` is about to be added. When the workflow holds another declaration of that
 * tool (it changed since the workflow was built), or none while steps already call it, the new
 * one becomes every such step's declaration, as it will in the document, and wires into an
 * input or from an output it lacks are dropped, each with a warning, as the editor drops them.
 */
function adoptDeclaration(state: RunState, decl: ToolDeclaration): PlanEvent[] {
  const current = state.snapshots.get(decl.name);
  const hash = current?.decl === decl ? current.hash : hashDeclaration(decl);
  if (current?.hash === hash) return [];
  state.snapshots.set(decl.name, { decl, hash });
  const steps = [...state.known.values()].filter((s) => s.tool === decl.name);
  if (steps.length === 0) return [];
  const inputs = new Set(getParamPlan(decl, state.systemParams).map((p) => p.name));
  const outputs = [...getOutputParameters(decl)];
  for (const step of steps) {
    step.decl = decl;
    step.outputs = outputs;
  }
  const ids = new Set(steps.map((s) => s.id));
  const events: PlanEvent[] = [];
  state.edges = state.edges.filter((e) => {
    const gone =
      ids.has(e.target) && !inputs.has(e.target_input)
        ? `"${e.target}" has no input "${e.target_input}"`
        : ids.has(e.source) && !outputs.some((o) => o.name === e.source_output)
          ? `"${e.source}" has no output "${e.source_output}"`
          : undefined;
    if (gone === undefined) return true;
    events.push({
      type: 'warning',
      message: `The wire ${e.source}.${e.source_output} → ${e.target}.${e.target_input} is dropped: with tool "${decl.name}" as declared now, ${gone}.`,
      stepId: e.target,
    });
    return false;
  });
  return events;
}

/**
 * Split args into plain values and `{{step.output}}` references that become edges into `target`.
 * A reference that cannot be wired is dropped with an error on the step saying why.
 */
function wireReferences(
  state: RunState,
  target: string,
  decl: ToolDeclaration | undefined,
  args: Record<string, unknown>,
  issues: NodeIssue[],
): { values: Record<string, unknown>; edges: PlannedEdge[] } {
  const values: Record<string, unknown> = {};
  const edges: PlannedEdge[] = [];
  const inputs = decl ? getParamPlan(decl, state.systemParams) : undefined;
  for (const [input, value] of Object.entries(args)) {
    const ref = parseReference(value);
    if (!ref) {
      setJsonMember(values, input, value);
      if (getReferences(value).length > 0) {
        issues.push({
          severity: 'warning',
          code: 'embedded_reference',
          message: `Argument "${input}" holds a {{step.output}} reference inside a longer value, which is kept as text; only a whole-value reference becomes an edge. Connect the input with an edge instead.`,
          param: input,
        });
      }
      continue;
    }
    const param = inputs?.find((p) => p.name === input);
    if ((inputs && !param) || input === '') {
      // Not a parameter: it is reported as an unknown arg, and an edge to it would be refused.
      setJsonMember(values, input, value);
      continue;
    }
    const edge = { source: ref.step, source_output: ref.output, target, target_input: input };
    const refused = checkEdge(state, edge, param?.type, edges);
    if (refused) {
      issues.push({
        severity: 'error',
        code: 'unknown_reference',
        message: `Argument "${input}" refers to ${String(value)}, but ${refused}; the reference was dropped. Connect the input by hand or give it a value.`,
        param: input,
      });
      continue;
    }
    edges.push(edge);
  }
  return { values, edges };
}

/**
 * Why an edge cannot be added to the graph as it stands, or undefined when it can. The rules are
 * the editor's `connect` command's, so every planned edge can be applied.
 */
function checkEdge(
  state: RunState,
  edge: PlannedEdge,
  inputType: ParamType | undefined,
  pending: PlannedEdge[] = [],
): string | undefined {
  const source = state.known.get(edge.source);
  if (!source || source.removed) {
    const live = getLiveSteps(state);
    return `there is no step "${edge.source}" (steps so far: ${live.join(', ') || 'none'})`;
  }
  if (!source.outputs.some((o) => o.name === edge.source_output)) {
    return `step "${edge.source}" has no output "${edge.source_output}" (its outputs: ${source.outputs.map((o) => o.name).join(', ')})`;
  }
  if (edge.source === edge.target) return 'a step cannot feed itself';
  const outputType = source.outputs.find((o) => o.name === edge.source_output)?.type;
  if (outputType && inputType && !isTypeCompatible(outputType, inputType)) {
    return `output "${edge.source}.${edge.source_output}" is ${outputType} and input "${edge.target_input}" takes ${inputType}`;
  }
  const all = [...state.edges, ...pending];
  if (all.some((e) => e.target === edge.target && e.target_input === edge.target_input)) {
    return `input "${edge.target_input}" of "${edge.target}" is already wired (disconnect it first)`;
  }
  const asWorkflowEdges = all.map((e) => ({ source: e.source, target: e.target }) as WorkflowEdge);
  if (hasPath(asWorkflowEdges, edge.target, edge.source)) {
    return `an edge from "${edge.source}" to "${edge.target}" would close a cycle`;
  }
  return undefined;
}

// ---- follow-up edits ----

function answerEdit(state: RunState, name: string, rawArguments: string): CallOutcome {
  const parsed = parseToolArguments(rawArguments);
  if (!parsed.ok) {
    return rejectCall(
      `The arguments of ${name} are ${parsed.error}; nothing was changed. Send a JSON object.`,
      'bad_json',
    );
  }
  const args = parsed.value;
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string).trim() : '');
  switch (name) {
    case 'update_step':
      return updateStep(state, text('step_id'), args.args, args.unset);
    case 'remove_step':
      return removeStep(state, text('step_id'));
    case 'connect':
    case 'disconnect': {
      const edge = {
        source: text('source'),
        source_output: text('source_output'),
        target: text('target'),
        target_input: text('target_input'),
      };
      const missing = Object.entries(edge)
        .filter(([, v]) => v === '')
        .map(([k]) => k);
      if (missing.length > 0) {
        return rejectCall(
          `${name} needs ${missing.map((m) => `"${m}"`).join(', ')}; nothing was changed.`,
          'bad_arguments',
        );
      }
      return name === 'connect' ? connectSteps(state, edge) : disconnectSteps(state, edge);
    }
    default:
      return rejectCall(`Unknown edit tool "${name}".`, 'unknown_tool');
  }
}

function getLiveStep(state: RunState, id: string): KnownStep | undefined {
  const step = state.known.get(id);
  return step && !step.removed ? step : undefined;
}

function noSuchStep(state: RunState, id: string, what: string): CallOutcome {
  const live = getLiveSteps(state);
  return rejectCall(
    `${what}: there is no step "${id}". Steps: ${live.join(', ') || 'none'}.`,
    'unknown_step',
  );
}

function updateStep(state: RunState, stepId: string, rawArgs: unknown, rawUnset: unknown): CallOutcome {
  const step = getLiveStep(state, stepId);
  if (!step) return noSuchStep(state, stepId, 'update_step changed nothing');
  if (rawArgs !== undefined && (typeof rawArgs !== 'object' || rawArgs === null || Array.isArray(rawArgs))) {
    return rejectCall(
      'update_step needs "args" as an object of parameter name → value; nothing was changed.',
      'bad_arguments',
      stepId,
    );
  }
  const unset = Array.isArray(rawUnset) ? rawUnset.filter((u): u is string => typeof u === 'string') : [];
  const issues: NodeIssue[] = [];
  const wired = wireReferences(state, stepId, step.decl, (rawArgs ?? {}) as Record<string, unknown>, issues);
  const declared = step.decl
    ? new Set(getParamPlan(step.decl, state.systemParams).map((p) => p.name))
    : undefined;
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wired.values)) {
    if ((declared && !declared.has(key)) || key === '') {
      issues.push({
        severity: 'warning',
        code: 'unknown_arg',
        message: `Argument "${key}" is not a parameter of tool "${step.tool}"; it was dropped.`,
        param: key,
      });
      continue;
    }
    setJsonMember(values, key, value);
  }
  const operation: PlanOperation = { op: 'update_step', stepId, args: values, unset };
  state.operations.push(operation);
  const events: PlanEvent[] = [{ type: 'operation', operation }];
  for (const edge of wired.edges) {
    state.edges.push(edge);
    state.newEdges.push(edge);
    state.operations.push({ op: 'connect', edge });
    events.push({ type: 'edge', edge });
  }
  for (const issue of issues) {
    events.push(
      issue.severity === 'error'
        ? { type: 'error', message: issue.message, stepId, code: issue.code }
        : { type: 'warning', message: issue.message, stepId },
    );
  }
  const problems = issues.map((i) => i.message);
  return {
    events,
    result: {
      step_id: stepId,
      updated: Object.keys(values),
      unset,
      connected: wired.edges.map((e) => e.target_input),
      ...(problems.length > 0 ? { problems } : {}),
    },
  };
}

function removeStep(state: RunState, stepId: string): CallOutcome {
  const step = getLiveStep(state, stepId);
  if (!step) return noSuchStep(state, stepId, 'remove_step removed nothing');
  step.removed = true;
  const dropped = state.edges.filter((e) => e.source === stepId || e.target === stepId);
  state.edges = state.edges.filter((e) => !dropped.includes(e));
  const operation: PlanOperation = { op: 'remove_step', stepId };
  state.operations.push(operation);
  return {
    events: [{ type: 'operation', operation }],
    result: { removed: stepId, edges_removed: dropped.length },
  };
}

function connectSteps(state: RunState, edge: PlannedEdge): CallOutcome {
  const target = getLiveStep(state, edge.target);
  if (!target) return noSuchStep(state, edge.target, 'connect changed nothing');
  const inputs = target.decl ? getParamPlan(target.decl, state.systemParams) : undefined;
  const input = inputs?.find((p) => p.name === edge.target_input);
  if (inputs && !input) {
    return rejectCall(
      `connect changed nothing: step "${edge.target}" (${target.tool}) has no input "${edge.target_input}". Its inputs: ${inputs.map((p) => p.name).join(', ')}.`,
      'unknown_port',
      edge.target,
    );
  }
  const refused = checkEdge(state, edge, input?.type);
  if (refused) return rejectCall(`connect changed nothing: ${refused}.`, 'bad_edge', edge.target);
  state.edges.push(edge);
  state.newEdges.push(edge);
  state.operations.push({ op: 'connect', edge });
  return {
    events: [{ type: 'edge', edge }],
    result: { connected: `${edge.source}.${edge.source_output} -> ${edge.target}.${edge.target_input}` },
  };
}

function disconnectSteps(state: RunState, edge: PlannedEdge): CallOutcome {
  const at = state.edges.findIndex(
    (e) =>
      e.source === edge.source &&
      e.source_output === edge.source_output &&
      e.target === edge.target &&
      e.target_input === edge.target_input,
  );
  if (at === -1) {
    return rejectCall(
      `disconnect changed nothing: there is no edge ${edge.source}.${edge.source_output} -> ${edge.target}.${edge.target_input}.`,
      'unknown_edge',
      edge.target,
    );
  }
  state.edges.splice(at, 1);
  const operation: PlanOperation = { op: 'disconnect', edge };
  state.operations.push(operation);
  return {
    events: [{ type: 'operation', operation }],
    result: { disconnected: `${edge.source}.${edge.source_output} -> ${edge.target}.${edge.target_input}` },
  };
}
