/**
 * The planner's vocabulary: what goes in (task, tools, the current workflow), what the model port
 * speaks (one turn: messages + tools in, streamed events out) and what comes out (PlanEvents).
 * Pure data (docs/design.md §6).
 */
import type { ToolDeclaration } from '../tools/types';
import type { AddedStep, WorkflowOperation } from '../workflow/commands';
import type { WorkflowDocument, WorkflowEdge } from '../workflow/types';

// ---- input ----

/** What to plan: the task, the tools the model may call and, for a follow-up, the workflow so far. */
export interface PlannerInput {
  task: string;
  tools: ToolDeclaration[];
  /** The current workflow. When present the run is a follow-up edit: the model also gets the
   * edit tools (`update_step`, `remove_step`, `connect`, `disconnect`). */
  document?: WorkflowDocument;
  /** Overrides the document's / default system parameters (skipped in node parameters). */
  systemParams?: string[];
}

export interface PlannerOptions {
  /** Model turns before the run stops with `max_iterations` (default 8). */
  maxIterations?: number;
  /** Cancels the run: the current turn is abandoned and `done` says `cancelled`. */
  signal?: AbortSignal;
  /** Start with the text protocol instead of native tool calls (the port may also ask for it). */
  protocol?: ToolProtocol;
}

/** Native function calling, or tools described in the system prompt with `<tool_call>` blocks. */
export type ToolProtocol = 'native' | 'text';

// ---- the model port ----

/** One tool call as the conversation records it (names are the real tool names, not aliases). */
export interface ConversationToolCall {
  callId: string;
  name: string;
  /** The argument text exactly as the model sent it. */
  arguments: string;
}

/** Provider-neutral conversation; a port maps it to Chat messages or Responses input items. */
export type ConversationMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ConversationToolCall[] }
  | { role: 'tool'; callId: string; name: string; content: string };

/** Everything one model turn needs. */
export interface ModelTurnRequest {
  /** 1-based turn number. */
  turn: number;
  protocol: ToolProtocol;
  system: string;
  messages: ConversationMessage[];
  /** The tools the model may call this turn (real tools, plus edit tools in a follow-up). */
  tools: ToolDeclaration[];
  signal: AbortSignal;
  /** Structured view of the same state, for ports that are not language models (offline). */
  context: {
    task: string;
    tools: ToolDeclaration[];
    document?: WorkflowDocument;
    /** Parameters the platform fills in (never the model). */
    systemParams: readonly string[];
    /** Steps accepted so far in this run, in order, with the outputs they offer. */
    steps: { id: string; tool: string; args: Record<string, unknown>; outputs: string[] }[];
    /** The id the next accepted call will get (`step_N`). */
    nextStepId: string;
  };
}

/** Why a model turn failed; the loop decides what to do with each kind. */
export type ModelErrorKind =
  /** The endpoint refused native tools (HTTP 400 about `tools`): retry with the text protocol. */
  'tools_unsupported' | 'rate_limited' | 'timeout' | 'http' | 'network' | 'bad_response' | 'cancelled';

/** What a port streams back during one turn. */
export type ModelEvent =
  /** Some reply text (prose, or `<tool_call>` blocks under the text protocol). */
  | { type: 'text_delta'; text: string }
  /** A piece of a native tool call's arguments arrived (used for progress and benchmarks). */
  | { type: 'tool_call_delta'; key: string; name?: string; argumentsDelta: string }
  /** A native tool call whose arguments are complete. */
  | { type: 'tool_call'; call: ConversationToolCall }
  /** Something the person should know that does not end the turn (a retry, a repair). */
  | { type: 'notice'; message: string }
  /** The turn failed. Nothing after it in the same turn is read. */
  | { type: 'error'; kind: ModelErrorKind; message: string; status?: number }
  /** The turn ended normally. */
  | { type: 'turn_end'; finishReason?: string };

/** The model behind the planner: one turn in, streamed events out. */
export interface ModelPort {
  /** Which planner this is, as shown to the person: `offline`, `openai-chat`, `openai-responses`. */
  planner: string;
  model: string;
  /** The protocol the port starts with (`text` when configured so, e.g. TOOLFLOW_LLM_API=text). */
  protocol?: ToolProtocol;
  /** False for a planner that is not a language model (offline): when it plans nothing, its
   * own notices say why, and the loop does not speak of "the model". Default true. */
  isLanguageModel?: boolean;
  turn(request: ModelTurnRequest): AsyncIterable<ModelEvent>;
}

// ---- output ----

/** One accepted tool call, as the call road added it (its issues carry straight onto the node). */
export type PlannedStep = AddedStep;

/** A wire from one step's output to another step's input, as it stands in the document. */
export type PlannedEdge = WorkflowEdge;

/** A change to a workflow; a run's result is a list of these, applied by the commands. */
export type PlanOperation = WorkflowOperation;

export type StopReason = 'no_tool_calls' | 'max_iterations' | 'cancelled' | 'error';

/** What a planning run streams, in order; `start` first and `done` last, always. */
export type PlanEvent =
  | { type: 'start'; planner: string; model: string; protocol: ToolProtocol; maxIterations: number }
  | { type: 'progress'; iteration: number; message: string }
  /** A step was accepted (it may still carry issues). */
  | { type: 'step'; step: PlannedStep }
  | { type: 'edge'; edge: PlannedEdge }
  /** A follow-up edit the model asked for (add_step edits are reported as `step` events). */
  | { type: 'operation'; operation: PlanOperation }
  /** Model prose (useful in the UI's log; never parsed again). */
  | { type: 'text'; iteration: number; text: string }
  | { type: 'warning'; message: string; stepId?: string }
  /** A call that was rejected, or a turn that failed. */
  | { type: 'error'; message: string; stepId?: string; code?: string }
  | {
      type: 'done';
      stopReason: StopReason;
      iterations: number;
      steps: PlannedStep[];
      edges: PlannedEdge[];
      /** Every change in order, `add_step` included: apply them together as one undoable edit. */
      operations: PlanOperation[];
      /** Set when `stopReason` is `error` or `max_iterations`, or when the run planned nothing:
       * what happened and what to do, in the words of the planner that ran. */
      message?: string;
      /** Required parameters of the steps standing at the end that have no value (not set, not
       * fed by an edge, no default), in step then declaration order: left for the person. */
      missingValues: MissingValue[];
    };

/** A required parameter a planned step has no value for. */
export interface MissingValue {
  stepId: string;
  param: string;
}
