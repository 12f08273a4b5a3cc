/**
 * Fuzz target: model replies → the planning loop (docs/design.md §6), through a scripted ModelPort.
 *
 * Each case is a run: random tools, sometimes an existing workflow (a follow-up, so the edit
 * tools are live), and a script of model turns — native tool calls with random, malformed,
 * truncated, double-encoded, huge or deeply nested argument text, unknown and edit tool names,
 * several calls per turn, duplicate call ids; text replies with `<tool_call>` blocks, broken
 * ones included, streamed in random pieces; notices, failed turns, a port that throws, a run
 * cancelled half-way. Invariants: `runPlanner` never throws and leaves no unhandled rejection;
 * the stream starts with `start` and ends with one `done` carrying a stop reason (and a message
 * when it is `error` or `max_iterations`); every error and step issue has a clear message; a
 * native call's JSON arguments all land somewhere (arg, unknown arg, edge or a reported
 * reference); and what the run planned builds a document that exports, imports and exports
 * again to the same bytes.
 */
import fc from 'fast-check';
import { EDIT_TOOL_NAMES } from '../../lib/planner/edit-tools';
import { runPlanner } from '../../lib/planner/loop';
import { applyPlanOperations, createPlannedDocument } from '../../lib/planner/operations';
import type {
  ConversationToolCall,
  ModelErrorKind,
  ModelEvent,
  ModelPort,
  PlanEvent,
  PlannerInput,
  ToolProtocol,
} from '../../lib/planner/types';
import type { ToolDeclaration } from '../../lib/tools/types';
import type { WorkflowDocument } from '../../lib/workflow/types';
import { checkValidExport } from './exports';
import {
  check,
  fuzzName,
  fuzzText,
  fuzzValue,
  jsonEqual,
  mutateText,
  nest,
  normalizeJson,
  objectFrom,
  show,
  smallJson,
  sometimes,
  textMutation,
  type Json,
  type TextMutation,
} from './json';
import type { FuzzOptions, FuzzTarget } from './types';
import { avoidKnownBugs, buildWorkflow, getDeclaredNames, toolList, workflowDraft } from './workflows';
import { exportWorkflow } from '../../lib/workflow/export';

// ---- what the model says, before it is resolved against the run's tools ----

/** A tool name: one of the run's tools (by index), an edit tool, or something else. */
type NamePick = { tool: number } | { name: string };

/** Argument text: a JSON object of picked names, then maybe mangled; or raw text. */
type ArgsPick =
  | {
      kind: 'object';
      entries: [number, string, ValuePick][];
      style: 'json' | 'pretty' | 'fenced' | 'prose' | 'double' | 'python' | 'truncated' | 'garbled';
      garble: TextMutation[];
    }
  | { kind: 'raw'; text: string };

/** A value: plain JSON, a reference to an earlier (or missing) step's output, or a hostile one. */
type ValuePick = { json: Json } | { ref: number; output: number; exact: boolean };

type EventPick =
  | { type: 'call'; name: NamePick; args: ArgsPick; callId: string }
  | { type: 'text'; blocks: BlockPick[]; cuts: number[] }
  | { type: 'notice'; message: string }
  | { type: 'error'; kind: ModelErrorKind; message: string }
  | { type: 'throw'; asError: boolean }
  | { type: 'delta'; key: string };

/** One piece of a text reply: prose, a `<tool_call>` block (well formed or not), or fenced JSON. */
type BlockPick =
  | { kind: 'prose'; text: string }
  | {
      kind: 'block';
      name: NamePick;
      args: ArgsPick;
      nameKey: 'name' | 'tool_name' | 'tool' | 'function';
      open: string;
      close: string;
    }
  | { kind: 'broken'; text: string }
  | { kind: 'fenced'; name: NamePick; args: ArgsPick };

interface TurnPick {
  events: EventPick[];
  end: boolean;
}

interface PlannerCase {
  tools: ToolDeclaration[];
  followUp: boolean;
  draft: Parameters<typeof buildWorkflow>[0] | undefined;
  task: string;
  turns: TurnPick[];
  maxIterations: number;
  protocol: ToolProtocol | undefined;
  portProtocol: ToolProtocol | undefined;
  abortAfter: number | undefined;
}

const namePick: fc.Arbitrary<NamePick> = fc.oneof(
  { weight: 6, arbitrary: fc.nat().map((tool) => ({ tool })) },
  { weight: 2, arbitrary: fc.constantFrom(...EDIT_TOOL_NAMES).map((name) => ({ name })) },
  { weight: 1, arbitrary: fc.oneof(fuzzName, fuzzText).map((name) => ({ name })) },
);

const valuePick: fc.Arbitrary<ValuePick> = fc.oneof(
  { weight: 5, arbitrary: smallJson.map((json) => ({ json })) },
  { weight: 1, arbitrary: fuzzValue.map((json) => ({ json })) },
  { weight: 3, arbitrary: fc.record({ ref: fc.nat(6), output: fc.nat(), exact: fc.boolean() }) },
);

const argsPick: fc.Arbitrary<ArgsPick> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('object' as const),
      entries: fc.array(fc.tuple(fc.nat(), fuzzName, valuePick), { maxLength: 5 }),
      style: fc.constantFrom(
        'json',
        'json',
        'json',
        'pretty',
        'fenced',
        'prose',
        'double',
        'python',
        'truncated',
        'garbled',
      ),
      garble: fc.array(textMutation, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          '',
          ' ',
          'null',
          '[]',
          '"x"',
          '{',
          '}',
          '{"a":',
          '{"a": 1,}',
          "{'a': 'b'}",
          'undefined',
          '{}{}',
        ),
        fuzzText,
        fc.integer({ min: 50, max: 3000 }).map((n) => '['.repeat(n)),
        fc.integer({ min: 50, max: 600 }).map((n) => JSON.stringify(nest(n, 'deep', 'object'))),
        fc.integer({ min: 1000, max: 50_000 }).map((n) => JSON.stringify({ a: 'x'.repeat(n) })),
      )
      .map((text) => ({ kind: 'raw' as const, text })),
  },
);

const blockPick: fc.Arbitrary<BlockPick> = fc.oneof(
  { weight: 2, arbitrary: fuzzText.map((text) => ({ kind: 'prose' as const, text })) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('block' as const),
      name: namePick,
      args: argsPick,
      nameKey: fc.constantFrom('name', 'name', 'tool_name', 'tool', 'function'),
      open: fc.constantFrom('<tool_call>', '<tool_call>', '<TOOL_CALL id="1">', '<tool_call\n>'),
      close: fc.constantFrom('</tool_call>', '</tool_call>', '</TOOL_CALL >', '', '</tool_call'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '<tool_call></tool_call>',
        '<tool_call>{"name": </tool_call>',
        '<tool_call>[1,2]</tool_call>',
        '<tool_call>{"arguments": {}}</tool_call>',
        '<tool_call>{"name": "x", "arguments": {"a": </tool_call>',
        '<tool_call>',
        '</tool_call>',
        '<tool_',
        '<tool_call>not json at all, name: foo</tool_call>',
      )
      .map((text) => ({ kind: 'broken' as const, text })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('fenced' as const), name: namePick, args: argsPick }),
  },
);

const errorKind = fc.constantFrom<ModelErrorKind>(
  'tools_unsupported',
  'rate_limited',
  'timeout',
  'http',
  'network',
  'bad_response',
  'cancelled',
);

const eventPick: fc.Arbitrary<EventPick> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      type: fc.constant('call' as const),
      name: namePick,
      args: argsPick,
      callId: fc.oneof(fc.constantFrom('', 'call_1', 'call_1', 'dup'), fuzzName),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('text' as const),
      blocks: fc.array(blockPick, { maxLength: 4 }),
      cuts: fc.array(fc.nat(), { maxLength: 5 }),
    }),
  },
  {
    weight: 1,
    // Notices are written by the port (trusted code), not by the model.
    arbitrary: fc.record({
      type: fc.constant('notice' as const),
      message: fc.constantFrom('Retrying after a rate limit (1 of 3).', 'Repaired the streamed arguments.'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('error' as const),
      kind: errorKind,
      message: fc.constantFrom(
        'The endpoint said no (HTTP 400): tools are not supported.',
        'Rate limited; try later.',
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('throw' as const), asError: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('delta' as const), key: fuzzName }) },
);

const turnPick: fc.Arbitrary<TurnPick> = fc.record({
  events: fc.array(eventPick, { maxLength: 5 }),
  // A turn may end without turn_end: a stream can just stop.
  end: fc.boolean(),
});

const plannerCase: fc.Arbitrary<PlannerCase> = fc.boolean().chain((followUp) =>
  fc.record({
    tools: toolList(0, 3),
    followUp: fc.constant(followUp),
    draft: followUp ? workflowDraft : fc.constant(undefined),
    task: fuzzText,
    turns: fc.array(turnPick, { maxLength: 5 }),
    maxIterations: fc.integer({ min: 1, max: 6 }),
    protocol: fc.constantFrom<ToolProtocol | undefined>(undefined, 'native', 'text'),
    portProtocol: fc.constantFrom<ToolProtocol | undefined>(undefined, undefined, 'text'),
    abortAfter: sometimes(fc.nat(40), 6),
  }),
);

// ---- resolving picks into concrete model events ----

interface Resolver {
  /** Tool names the model may call (the run's tools, and the document's in a follow-up). */
  names: string[];
  tools: Map<string, ToolDeclaration>;
  /** Step ids a reference may point at: the document's nodes, then `step_1…`. */
  stepIds: (index: number) => string;
}

function resolveName(pick: NamePick, r: Resolver): string {
  if ('name' in pick) return pick.name;
  return r.names.length > 0 ? r.names[pick.tool % r.names.length] : 'no_tools_at_all';
}

function resolveValue(pick: ValuePick, r: Resolver): unknown {
  if ('json' in pick) return pick.json;
  const step = r.stepIds(pick.ref);
  const outputs = ['result', 'path', 'value', 'x'];
  const ref = `{{${step}.${outputs[pick.output % outputs.length]}}}`;
  return pick.exact ? ref : `see ${ref} here`;
}

/** The argument object a pick stands for, and its text as the model sends it. */
function resolveArgs(
  pick: ArgsPick,
  toolName: string,
  r: Resolver,
): { text: string; object?: Record<string, unknown> } {
  if (pick.kind === 'raw') return { text: pick.text };
  const tool = r.tools.get(toolName);
  const declared = tool ? getDeclaredNames(tool) : [];
  const object = normalizeJson<Record<string, unknown>>(
    objectFrom(
      pick.entries.map(([i, other, value]) => [
        declared.length > 0 && i % 3 !== 0 ? declared[i % declared.length] : other,
        resolveValue(value, r),
      ]),
    ),
  );
  const json = JSON.stringify(object);
  switch (pick.style) {
    case 'json':
      return { text: json, object };
    case 'pretty':
      return { text: JSON.stringify(object, null, 2), object };
    case 'fenced':
      return { text: '```json\n' + json + '\n```' };
    case 'prose':
      return { text: `Here are the arguments: ${json} — hope that helps.` };
    case 'double':
      return { text: JSON.stringify(json) };
    case 'python':
      return {
        text: json
          .replace(/"/g, "'")
          .replace(/\btrue\b/g, 'True')
          .replace(/\bnull\b/g, 'None'),
      };
    case 'truncated':
      return { text: json.slice(0, Math.max(1, Math.floor(json.length / 2))) };
    case 'garbled':
      return { text: mutateText(json, pick.garble) };
  }
}

function resolveBlock(pick: BlockPick, r: Resolver): string {
  switch (pick.kind) {
    case 'prose':
      return pick.text;
    case 'broken':
      return pick.text;
    case 'fenced': {
      const name = resolveName(pick.name, r);
      const args = resolveArgs(pick.args, name, r);
      return '\n```json\n' + JSON.stringify({ name, arguments: args.object ?? args.text }) + '\n```\n';
    }
    case 'block': {
      const name = resolveName(pick.name, r);
      const args = resolveArgs(pick.args, name, r);
      const argsValue = args.object ?? args.text;
      const body =
        pick.nameKey === 'function'
          ? { function: { name, arguments: argsValue } }
          : { [pick.nameKey]: name, arguments: argsValue };
      return `${pick.open}${JSON.stringify(body)}${pick.close}`;
    }
  }
}

/** A scripted port event: a model event, or an instruction to throw from the stream. */
type Scripted = ModelEvent | { type: 'throw'; asError: boolean };

interface ResolvedCall {
  call: ConversationToolCall;
  /** The arguments as an object when the text is exactly that object's JSON. */
  object?: Record<string, unknown>;
}

function resolveTurn(
  turn: TurnPick,
  r: Resolver,
  calls: Map<ConversationToolCall, ResolvedCall>,
): Scripted[] {
  const out: Scripted[] = [];
  for (const e of turn.events) {
    switch (e.type) {
      case 'call': {
        const name = resolveName(e.name, r);
        const args = resolveArgs(e.args, name, r);
        const call: ConversationToolCall = { callId: e.callId, name, arguments: args.text };
        calls.set(call, {
          call,
          ...(args.object && e.args.kind === 'object' && e.args.style === 'json'
            ? { object: args.object }
            : {}),
        });
        out.push({ type: 'tool_call_delta', key: e.callId, name, argumentsDelta: args.text.slice(0, 10) });
        out.push({ type: 'tool_call', call });
        break;
      }
      case 'text': {
        const text = e.blocks.map((b) => resolveBlock(b, r)).join('\n');
        const cuts = [...new Set(e.cuts.map((c) => (text.length === 0 ? 0 : c % text.length)))].sort(
          (a, b) => a - b,
        );
        let at = 0;
        for (const cut of [...cuts, text.length]) {
          if (cut > at) out.push({ type: 'text_delta', text: text.slice(at, cut) });
          at = Math.max(at, cut);
        }
        break;
      }
      case 'notice':
        out.push({ type: 'notice', message: e.message });
        break;
      case 'error':
        out.push({ type: 'error', kind: e.kind, message: e.message });
        break;
      case 'throw':
        out.push({ type: 'throw', asError: e.asError });
        break;
      case 'delta':
        out.push({ type: 'tool_call_delta', key: e.key, argumentsDelta: '{"' });
        break;
    }
  }
  if (turn.end) out.push({ type: 'turn_end', finishReason: 'stop' });
  return out;
}

/** A port that replays the script turn by turn (then replies with nothing), and says which
 * native call it is streaming right now. */
function createScriptedPort(
  script: Scripted[][],
  protocol: ToolProtocol | undefined,
): ModelPort & { current: ConversationToolCall | undefined } {
  let next = 0;
  const port = {
    planner: 'fuzz',
    model: 'scripted',
    ...(protocol ? { protocol } : {}),
    current: undefined as ConversationToolCall | undefined,
    async *turn(): AsyncGenerator<ModelEvent> {
      const events = script[next++] ?? [{ type: 'turn_end' as const }];
      for (const event of events) {
        if (event.type === 'throw') {
          if (event.asError) throw new Error('socket hang up');
          throw 'the stream broke'; // a port may throw anything, not only Errors
        }
        if (event.type === 'tool_call') port.current = event.call;
        yield event;
        port.current = undefined;
      }
    },
  };
  return port;
}

// ---- the property ----

const STOP_REASONS = new Set(['no_tool_calls', 'max_iterations', 'cancelled', 'error']);

function checkIssueList(issues: unknown, where: string): void {
  check(Array.isArray(issues), `${where}: issues is not a list`);
  for (const i of issues as { severity: unknown; code: unknown; message: unknown }[]) {
    check(i.severity === 'error' || i.severity === 'warning', `${where}: issue severity ${show(i.severity)}`);
    check(typeof i.code === 'string' && i.code !== '', `${where}: issue without a code ${show(i)}`);
    check(
      typeof i.message === 'string' && i.message.trim().length >= 10,
      `${where}: unclear issue ${show(i)}`,
    );
  }
}

/** Run one scripted planning session and check every invariant. */
export async function checkPlannerRun(c: PlannerCase, opts: FuzzOptions): Promise<void> {
  const document: WorkflowDocument | undefined = c.draft
    ? buildWorkflow(avoidKnownBugs(c.draft, opts)).doc
    : undefined;
  const tools = avoidKnownBugs(
    {
      tools: c.tools,
      plan: { steps: [] },
      systemParams: undefined,
      positions: [],
      labels: [],
      meta: { id: 'x', name: '' },
    },
    opts,
  ).tools;
  const known = new Map<string, ToolDeclaration>();
  for (const t of tools) if (!known.has(t.name)) known.set(t.name, t);
  for (const s of Object.values(document?.tools ?? {}))
    if (!known.has(s.declaration.name)) known.set(s.declaration.name, s.declaration);
  const docIds = (document?.nodes ?? []).map((n) => n.id as string);
  const resolver: Resolver = {
    names: [...known.keys()],
    tools: known,
    stepIds: (i) => (i < docIds.length ? docIds[i] : `step_${i - docIds.length + 1}`),
  };
  const calls = new Map<ConversationToolCall, ResolvedCall>();
  const script = c.turns.map((t) => resolveTurn(t, resolver, calls));
  const port = createScriptedPort(script, c.portProtocol);
  const controller = new AbortController();
  const input: PlannerInput = { task: c.task, tools, ...(document ? { document } : {}) };

  const events: PlanEvent[] = [];
  const stepCalls = new Map<string, ConversationToolCall | undefined>();
  try {
    for await (const event of runPlanner(input, port, {
      maxIterations: c.maxIterations,
      signal: controller.signal,
      ...(c.protocol ? { protocol: c.protocol } : {}),
    })) {
      events.push(event);
      if (event.type === 'step') stepCalls.set(event.step.id, port.current);
      if (c.abortAfter !== undefined && events.length === c.abortAfter) controller.abort();
    }
  } catch (error) {
    check(
      false,
      () => `runPlanner threw: ${error instanceof Error ? (error.stack ?? error.message) : show(error)}`,
    );
  }

  // The stream: start first, exactly one done, last.
  check(events[0]?.type === 'start', `the first event is ${show(events[0]?.type)}, not start`);
  const dones = events.filter((e) => e.type === 'done');
  check(dones.length === 1, `${dones.length} done events`);
  const done = events[events.length - 1];
  check(done.type === 'done', `the last event is ${done.type}, not done`);
  check(STOP_REASONS.has(done.stopReason), `stop reason ${show(done.stopReason)}`);
  if (done.stopReason === 'error' || done.stopReason === 'max_iterations') {
    check(
      typeof done.message === 'string' && done.message.trim().length >= 10,
      `done ${done.stopReason} without a message`,
    );
  }
  check(done.iterations <= c.maxIterations, `${done.iterations} iterations, at most ${c.maxIterations}`);
  const scripted = script.flat();
  const failing = scripted.some(
    (e) => e.type === 'throw' || (e.type === 'error' && e.kind !== 'tools_unsupported'),
  );
  const fallback = scripted.some((e) => e.type === 'error' && e.kind === 'tools_unsupported');
  if (done.stopReason === 'error') check(failing || fallback, 'the run failed but no turn did');
  if (c.abortAfter === undefined && !scripted.some((e) => e.type === 'error' && e.kind === 'cancelled')) {
    check(done.stopReason !== 'cancelled', 'cancelled without being cancelled');
  }

  // Every message is clear; every step's issues are well formed; ids are unique.
  const stepIds = new Set<string>(docIds);
  for (const e of events) {
    if (e.type === 'error' || e.type === 'warning') {
      check(
        typeof e.message === 'string' && e.message.trim().length >= 10,
        `unclear ${e.type} event ${show(e)}`,
      );
    }
    if (e.type === 'step') {
      check(!stepIds.has(e.step.id), `step id ${show(e.step.id)} used twice`);
      stepIds.add(e.step.id);
      checkIssueList(e.step.issues, `step ${e.step.id}`);
      check(
        known.has(e.step.tool),
        `step ${e.step.id} calls ${show(e.step.tool)}, which is not a tool of the run`,
      );
      checkArgumentsKept(e, stepCalls.get(e.step.id), calls, events);
    }
  }
  for (const s of done.steps)
    check(stepIds.has(s.id), `done lists step ${show(s.id)} that was never streamed`);
  for (const edge of done.edges) {
    check(
      stepIds.has(edge.source) && stepIds.has(edge.target),
      `done edge ${show(edge)} between unknown steps`,
    );
  }

  // What was planned builds a document that exports and round-trips.
  const built = document
    ? applyPlanOperations(document, done.operations, tools)
    : createPlannedDocument(c.task, done.operations, tools);
  check(built.ok, () => `the planned operations do not apply: ${show(!built.ok && built.error, 1500)}`);
  const file = normalizeJson<Json>(exportWorkflow(built.value, { id: 'wf_fuzz', name: 'fuzz' }));
  checkValidExport(file, file, 'export of a planned workflow');
}

/** A native call whose arguments were exact JSON: every argument is kept somewhere visible. */
function checkArgumentsKept(
  e: Extract<PlanEvent, { type: 'step' }>,
  call: ConversationToolCall | undefined,
  calls: Map<ConversationToolCall, ResolvedCall>,
  events: PlanEvent[],
): void {
  const object = call ? calls.get(call)?.object : undefined;
  if (!object) return;
  const { step } = e;
  const wired = new Set(
    events
      .filter((x) => x.type === 'edge' && x.edge.target === step.id)
      .map((x) => (x.type === 'edge' ? x.edge.targetInput : '')),
  );
  for (const key of Object.keys(object)) {
    const inArgs = Object.prototype.hasOwnProperty.call(step.args, key);
    const dropped = step.issues.some((i) => i.code === 'bad_reference' && i.param === key);
    check(
      inArgs || step.unknownArgs.includes(key) || wired.has(key) || dropped,
      () =>
        `step ${step.id}: argument ${show(key)} of ${show(call!.arguments, 300)} vanished (args ${show(step.args, 300)})`,
    );
    if (inArgs) {
      check(jsonEqual(step.args[key], object[key]), `step ${step.id}: argument ${show(key)} changed value`);
    }
  }
  for (const key of Object.keys(step.args)) {
    check(
      Object.prototype.hasOwnProperty.call(object, key),
      `step ${step.id}: argument ${show(key)} appeared from nowhere`,
    );
  }
}

export const plannerTarget: FuzzTarget = {
  name: 'planner',
  title: 'scripted model replies → runPlanner → plan → export',
  share: 0.13,
  property: (opts) =>
    fc.asyncProperty(plannerCase, async (c) => {
      await checkPlannerRun(c, opts);
      // Let rejections nobody handled surface before the next case (the runner fails on them).
      await new Promise((resolve) => setTimeout(resolve, 0));
      const unhandled = opts.takeUnhandledRejections?.() ?? [];
      check(unhandled.length === 0, () => `unhandled rejection: ${show(unhandled.map(String))}`);
    }),
};
