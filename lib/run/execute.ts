/**
 * The test-run executor (docs/design.md §9): runs one v1 export against its MCP servers through an
 * injected port, as its plan (lib/run/preflight.ts) says and in the order lib/run/schedule.ts
 * gives, checking each node's arguments before its call, and reporting every change of a node as
 * it happens. A step first waits for its server to start, within the start-up limit; its own
 * time limit then counts the call alone. IO-free: the port starts servers and calls the tools,
 * `onNode` stores or prints the records. Used by the queue worker and by `toolflow run`.
 */
import { err, type Result } from '../result';
import type { WorkflowExportV1 } from '../workflow/types';
import { checkArguments, getExportTool, resolveArguments } from './arguments';
import { capJson } from './cap';
import { getPlanSchedule, getServerRefLabel, type PlannedNode, type RunPlan } from './preflight';
import { getSkippedNodes, getStartableNodes } from './schedule';
import { countOf } from '../plural';
import { describeToolError, formatLimit, nameStep, type CallContext } from './error-words';
import type {
  NodeRunRecord,
  NodeRunStatus,
  RunError,
  RunLimits,
  RunStatus,
  ServerRef,
  ToolCallResult,
} from './types';

/** One tool call as the executor asks for it. */
export interface ToolCall {
  nodeId: string;
  server: ServerRef;
  tool: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  /** Aborted when the node must stop (cancel, its timeout, the run's time limit). */
  signal: AbortSignal;
}

/** How the executor reaches MCP servers. */
export interface RunPort {
  /**
   * Makes `server` ready for calls: starts it (or connects to it) and initializes it, once per
   * run; a call for a server already started, or starting, shares that start. `timeoutMs` is the
   * start-up limit. A failure is an error value, never a throw.
   */
  startServer(
    server: ServerRef,
    options: { timeoutMs: number; signal: AbortSignal },
  ): Promise<Result<void, RunError>>;
  /** Calls a tool; a failure to call (dead server, timeout) is an error value, never a throw. */
  callTool(call: ToolCall): Promise<Result<ToolCallResult, RunError>>;
}

export interface ExecuteOptions {
  limits: RunLimits;
  /** Abort to cancel the run: running calls are stopped, nodes not started are cancelled. */
  signal?: AbortSignal;
  /** Called with a node's record each time it changes, in order; awaited before the run ends. */
  onNode?: (record: NodeRunRecord) => void | Promise<void>;
  /** The clock (tests). */
  now?: () => number;
}

export interface RunOutcome {
  status: Exclude<RunStatus, 'queued' | 'running' | 'interrupted'>;
  error?: RunError;
  nodes: NodeRunRecord[];
}

/** Why a node's call was stopped; the abort reason the executor uses. */
type StopReason = 'cancelled' | 'timeout' | 'server_start_timeout' | 'run_time_limit';

/** Where a step was when the run stopped. */
type StopMoment = 'starting' | 'before_call' | 'calling' | 'not_started';
const CANCELLED_WHEN: Record<StopMoment, string> = {
  starting: 'while its server was starting; the tool was not called',
  before_call: 'before this step was called',
  calling: 'while this step was being called',
  not_started: 'before this step started',
};
const STOPPED_WHEN: Record<StopMoment, string> = {
  starting: 'while this step’s server was starting',
  before_call: 'before this step was called',
  calling: 'while this step was being called',
  not_started: 'before this step started',
};

/** Settles (with an error value) once `signal` aborts. */
function whenAborted<T>(signal: AbortSignal): Promise<Result<T, RunError>> {
  return new Promise((resolve) => {
    const done = () => resolve(err({ code: 'stopped', message: String(signal.reason) }));
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}

/** A result with `isError` as an error in words (error-words.ts), its text in the details. */
function getToolError(result: ToolCallResult, context: CallContext): RunError {
  const text = result.content
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
  return describeToolError(text, context);
}

/** The record of every node, each change reported in order through `onNode`. */
interface RunJournal {
  readonly records: Map<string, NodeRunRecord>;
  readonly statuses: Map<string, NodeRunStatus>;
  /** A node's record before it runs: queued. */
  base(nodeId: string): NodeRunRecord;
  emit(record: NodeRunRecord): void;
  /** Marks a node running from now. */
  start(nodeId: string): void;
  /** Gives a node its final status, with its duration when it started. */
  finish(nodeId: string, status: NodeRunStatus, extra?: Partial<NodeRunRecord>): void;
  /** Resolves once every record has been reported. */
  settle(): Promise<void>;
  /** The first error `onNode` threw, if any. */
  failure(): unknown;
}

function createJournal(
  plannedById: ReadonlyMap<string, PlannedNode>,
  onNode: ExecuteOptions['onNode'],
  now: () => number,
): RunJournal {
  const iso = (t: number) => new Date(t).toISOString();
  const records = new Map<string, NodeRunRecord>();
  const statuses = new Map<string, NodeRunStatus>();
  const started = new Map<string, number>();
  let emitting: Promise<void> = Promise.resolve();
  let emitError: unknown;

  const emit = (record: NodeRunRecord) => {
    records.set(record.nodeId, record);
    statuses.set(record.nodeId, record.status);
    const copy = { ...record };
    emitting = emitting.then(async () => {
      try {
        await onNode?.(copy);
      } catch (error) {
        emitError ??= error;
      }
    });
  };
  const base = (nodeId: string): NodeRunRecord => {
    const planned = plannedById.get(nodeId)!;
    return {
      nodeId,
      stepIndex: planned.stepIndex,
      toolName: planned.toolName,
      server: planned.server ? getServerRefLabel(planned.server) : null,
      status: 'queued',
    };
  };
  return {
    records,
    statuses,
    base,
    emit,
    start: (nodeId) => {
      const startedAt = now();
      started.set(nodeId, startedAt);
      emit({ ...base(nodeId), status: 'running', startedAt: iso(startedAt) });
    },
    finish: (nodeId, status, extra = {}) => {
      const at = now();
      const begun = started.get(nodeId);
      emit({
        ...(records.get(nodeId) ?? base(nodeId)),
        ...extra,
        status,
        finishedAt: iso(at),
        ...(begun !== undefined ? { durationMs: at - begun } : {}),
      });
    },
    settle: () => emitting,
    failure: () => emitError,
  };
}

/** What the steps of one run share. */
interface RunContext {
  readonly file: WorkflowExportV1;
  readonly port: RunPort;
  readonly limits: RunLimits;
  readonly journal: RunJournal;
  readonly nodesById: ReadonlyMap<string, WorkflowExportV1['nodes'][number]>;
  readonly plannedById: ReadonlyMap<string, PlannedNode>;
  /** The results of the nodes that succeeded, for the edges they feed. */
  readonly results: Map<string, ToolCallResult>;
  /** The running nodes' abort controllers. */
  readonly controllers: Map<string, AbortController>;
  /** Why the whole run stopped, once it has. */
  stopped: StopReason | undefined;
}

/** The error of a step stopped for `reason` at the moment `when`. */
function getStopError(limits: RunLimits, reason: StopReason, when: StopMoment): RunError {
  switch (reason) {
    case 'cancelled':
      return { code: 'cancelled', message: `Cancelled ${CANCELLED_WHEN[when]}.` };
    case 'run_time_limit':
      return {
        code: 'run_time_limit',
        message: `The run reached its time limit of ${formatLimit(limits.runTimeoutMs)} ${STOPPED_WHEN[when]}.`,
        detail: `TOOLFLOW_RUN_TIMEOUT_MS is ${limits.runTimeoutMs}.`,
      };
    case 'server_start_timeout':
      return {
        code: 'server_start_timeout',
        message: `The server did not start within ${formatLimit(limits.serverStartTimeoutMs)}, so the tool was not called.`,
        detail: `TOOLFLOW_RUN_SERVER_START_TIMEOUT_MS is ${limits.serverStartTimeoutMs}.`,
      };
    case 'timeout':
      return {
        code: 'timeout',
        message: `The call took longer than ${formatLimit(limits.nodeTimeoutMs)}, the limit for one step.`,
        detail: `TOOLFLOW_RUN_NODE_TIMEOUT_MS is ${limits.nodeTimeoutMs}.`,
      };
  }
}

/**
 * Runs `file` as planned by `planRun` (with unavailable servers blocked). Resolves when every
 * node has a final status; never throws for a tool's or server's failure.
 */
export async function executeRun(
  file: WorkflowExportV1,
  plan: RunPlan,
  port: RunPort,
  options: ExecuteOptions,
): Promise<RunOutcome> {
  const { limits } = options;
  const plannedById = new Map<string, PlannedNode>(plan.nodes.map((n) => [n.nodeId, n]));
  const journal = createJournal(plannedById, options.onNode, options.now ?? Date.now);
  const ctx: RunContext = {
    file,
    port,
    limits,
    journal,
    nodesById: new Map(file.nodes.map((n) => [n.id, n])),
    plannedById,
    results: new Map(),
    controllers: new Map(),
    stopped: undefined,
  };
  const { statuses, finish } = journal;
  const schedule = getPlanSchedule(plan);
  const nameOf = (nodeId: string) => nameOfStep(file, plannedById.get(nodeId)!);

  for (const node of plan.nodes) journal.emit(journal.base(node.nodeId));
  for (const node of plan.nodes) if (node.blocked) finish(node.nodeId, 'failed', { error: node.blocked });

  // Run-wide stop: the caller's cancel or the time limit.
  const stopAll = (reason: StopReason) => {
    if (ctx.stopped) return;
    ctx.stopped = reason;
    for (const controller of ctx.controllers.values()) controller.abort(reason);
  };
  const onAbort = () => stopAll('cancelled');
  if (options.signal?.aborted) stopAll('cancelled');
  options.signal?.addEventListener('abort', onAbort);
  const runTimer = setTimeout(() => stopAll('run_time_limit'), limits.runTimeoutMs);

  const inFlight = new Map<string, Promise<void>>();
  try {
    for (;;) {
      const stopped = ctx.stopped;
      if (stopped) {
        for (const id of schedule.order) {
          if ((statuses.get(id) ?? 'queued') === 'queued')
            finish(id, 'cancelled', { error: getStopError(limits, stopped, 'not_started') });
        }
      }
      for (const { id, because } of getSkippedNodes(schedule, statuses)) {
        finish(id, 'skipped', {
          error: {
            code: 'upstream_failed',
            message: `Not called: ${nameOf(because)}, which feeds it, ${ENDED[statuses.get(because)!] ?? `ended ${statuses.get(because)}`}.`,
          },
        });
      }
      if (!ctx.stopped) {
        for (const id of getStartableNodes(schedule, statuses, limits.concurrency)) {
          statuses.set(id, 'running');
          const promise = runNode(ctx, id).finally(() => inFlight.delete(id));
          inFlight.set(id, promise);
        }
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight.values());
    }
  } finally {
    clearTimeout(runTimer);
    options.signal?.removeEventListener('abort', onAbort);
    await Promise.allSettled(inFlight.values());
    await journal.settle();
  }
  if (journal.failure()) throw journal.failure();

  const nodes = plan.nodes.map((n) => journal.records.get(n.nodeId)!);
  return getOutcome(nodes, ctx.stopped, limits, nameOf);
}

/** A step as people know it from the canvas: its number and its label or tool title. */
function nameOfStep(file: WorkflowExportV1, planned: PlannedNode): string {
  const title = getExportTool(file, planned.toolName)?.title;
  return nameStep({ ...planned, label: planned.label ?? title });
}

/**
 * Waits for the node's server to be ready, within the start-up limit (its own timer, so the
 * node's limit counts only the call). A stop meanwhile ends the wait with its reason.
 */
async function startServer(
  { port, limits }: RunContext,
  planned: PlannedNode,
  controller: AbortController,
): Promise<Result<void, RunError>> {
  const timer = setTimeout(() => controller.abort('server_start_timeout'), limits.serverStartTimeoutMs);
  try {
    const started = await Promise.race([
      port
        .startServer(planned.server!, { timeoutMs: limits.serverStartTimeoutMs, signal: controller.signal })
        .catch((error: Error) => err<RunError>({ code: 'server_unavailable', message: error.message })),
      whenAborted<void>(controller.signal),
    ]);
    const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
    return reason ? err(getStopError(limits, reason, 'starting')) : started;
  } finally {
    clearTimeout(timer);
  }
}

/** Calls the tool within the step's time limit; a stop meanwhile ends the wait. */
async function callNode(
  { port, limits, controllers }: RunContext,
  call: Omit<ToolCall, 'timeoutMs' | 'signal'>,
  controller: AbortController,
): Promise<Result<ToolCallResult, RunError>> {
  const nodeTimer = setTimeout(() => controller.abort('timeout'), limits.nodeTimeoutMs);
  try {
    // A port that does not honour the signal still cannot hold the node past a stop.
    return await Promise.race([
      port.callTool({ ...call, timeoutMs: limits.nodeTimeoutMs, signal: controller.signal }),
      whenAborted<ToolCallResult>(controller.signal),
    ]);
  } catch (error) {
    return err({
      code: 'call_failed',
      message: 'The call failed before the server answered.',
      detail: (error as Error).message,
    });
  } finally {
    clearTimeout(nodeTimer);
    controllers.delete(call.nodeId);
  }
}

/** Runs one node: its arguments resolved and checked, its server started, its tool called. */
async function runNode(ctx: RunContext, nodeId: string): Promise<void> {
  const { file, limits, journal } = ctx;
  const { finish } = journal;
  const node = ctx.nodesById.get(nodeId)!;
  const planned = ctx.plannedById.get(nodeId)!;
  const controller = new AbortController();
  ctx.controllers.set(nodeId, controller);
  journal.start(nodeId);
  const args = resolveArguments(file, node, ctx.results);
  if (!args.ok) return finish(nodeId, 'failed', { error: args.error });
  const capArgs = capJson(args.value, limits.maxResultBytes);
  const sent = {
    arguments: capArgs.value,
    ...(capArgs.cuts.length ? { truncated: capArgs.cuts.map((c) => `arguments${c}`) } : {}),
  };
  const tool = getExportTool(file, node.tool_name)!;
  const checked = checkArguments(tool, args.value);
  if (!checked.ok) return finish(nodeId, 'failed', { ...sent, error: checked.error });
  journal.emit({ ...journal.records.get(nodeId)!, ...sent });
  if (ctx.stopped) {
    return finish(nodeId, ctx.stopped === 'cancelled' ? 'cancelled' : 'failed', {
      error: getStopError(limits, ctx.stopped, 'before_call'),
    });
  }
  const ready = await startServer(ctx, planned, controller);
  if (!ready.ok)
    return finish(nodeId, ready.error.code === 'cancelled' ? 'cancelled' : 'failed', {
      ...sent,
      error: ready.error,
    });
  const called = await callNode(
    ctx,
    { nodeId, server: planned.server!, tool: node.tool_name, args: args.value },
    controller,
  );
  const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
  if (reason) {
    return finish(nodeId, reason === 'cancelled' ? 'cancelled' : 'failed', {
      ...sent,
      error: getStopError(limits, reason, 'calling'),
    });
  }
  if (!called.ok) return finish(nodeId, 'failed', { ...sent, error: called.error });
  const result = called.value;
  const capped = capJson(result, limits.maxResultBytes);
  const truncated = [...(sent.truncated ?? []), ...capped.cuts.map((c) => `result${c}`)];
  const stored = { ...sent, result: capped.value, ...(truncated.length ? { truncated } : {}) };
  if (result.isError) {
    return finish(nodeId, 'failed', {
      ...stored,
      error: getToolError(result, { tool: node.tool_name, args: args.value, readOnly: planned.readOnly }),
    });
  }
  ctx.results.set(nodeId, result);
  finish(nodeId, 'succeeded', stored);
}

/** The run's final status and error from its nodes' records and why it stopped, if it did. */
function getOutcome(
  nodes: NodeRunRecord[],
  stopped: StopReason | undefined,
  limits: RunLimits,
  nameOf: (nodeId: string) => string,
): RunOutcome {
  if (stopped === 'cancelled') {
    return { status: 'cancelled', error: { code: 'cancelled', message: 'The run was cancelled.' }, nodes };
  }
  if (stopped === 'run_time_limit') {
    return {
      status: 'failed',
      error: {
        code: 'run_time_limit',
        message: `The run reached its time limit of ${formatLimit(limits.runTimeoutMs)} before every step ended.`,
        detail: `TOOLFLOW_RUN_TIMEOUT_MS is ${limits.runTimeoutMs}.`,
      },
      nodes,
    };
  }
  const failed = nodes.filter((n) => n.status !== 'succeeded');
  if (failed.length === 0) return { status: 'succeeded', nodes };
  const first = failed.find((n) => n.status === 'failed') ?? failed[0];
  const skipped = failed.filter((n) => n.status === 'skipped').length;
  return {
    status: 'failed',
    error: {
      code: 'node_failed',
      message: `${countOf(failed.filter((n) => n.status === 'failed').length, 'step')} failed${skipped ? `, ${skipped} skipped` : ''}. ${capitalize(nameOf(first.nodeId))}: ${first.error?.message ?? first.status}`,
    },
    nodes,
  };
}

/** How a step that feeds another ended, in "…, which feeds it, failed". */
const ENDED: Partial<Record<NodeRunStatus, string>> = {
  failed: 'failed',
  skipped: 'was not called either',
  cancelled: 'was cancelled',
  interrupted: 'was interrupted',
};

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
