import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolDeclaration } from '../tools/types';
import type { PlanEvent, PlannedStep } from '../planner/types';
import { asEdgeId, asNodeId, type WorkflowDocument } from '../workflow/types';
import {
  describePlanProgress,
  INITIAL_PROGRESS,
  openFirstPlan,
  reducePlanProgress,
  runPlan,
  type PlanProgress,
} from './plan-client';
import { createEditorStore } from './store';

const optimize: ToolDeclaration = {
  name: 'optimize_structure',
  description: 'Relax',
  inputSchema: {
    type: 'object',
    required: ['input_structure'],
    properties: { input_structure: { type: 'string' } },
  },
  outputSchema: { type: 'object', properties: { optimized_structure: { type: 'string' } } },
};
const phonons: ToolDeclaration = {
  name: 'calculate_phonons',
  description: 'Phonons',
  inputSchema: {
    type: 'object',
    required: ['input_structure'],
    properties: { input_structure: { type: 'string' } },
  },
};
const tools = [optimize, phonons];

const step = (id: string, tool: string, args: Record<string, unknown> = {}): PlannedStep => ({
  id,
  tool,
  args,
  unknownArgs: [],
  issues: [],
});
const edge = {
  id: asEdgeId('step_1.optimized_structure->step_2.input_structure'),
  source: asNodeId('step_1'),
  sourceOutput: 'optimized_structure',
  target: asNodeId('step_2'),
  targetInput: 'input_structure',
};
const s1 = step('step_1', 'optimize_structure', { input_structure: 'a.cif' });
const s2 = step('step_2', 'calculate_phonons');

const EVENTS: PlanEvent[] = [
  { type: 'start', planner: 'offline', model: 'offline', protocol: 'native', maxIterations: 8 },
  { type: 'progress', iteration: 1, message: 'ranking tools' },
  { type: 'step', step: s1 },
  { type: 'step', step: s2 },
  { type: 'edge', edge },
  {
    type: 'done',
    stopReason: 'no_tool_calls',
    iterations: 2,
    steps: [s1, s2],
    edges: [edge],
    operations: [
      { op: 'add_step', step: s1 },
      { op: 'add_step', step: s2 },
      { op: 'connect', edge },
    ],
    missingValues: [],
  },
];

const NOTHING_DONE: PlanEvent = {
  type: 'done',
  stopReason: 'no_tool_calls',
  iterations: 1,
  steps: [],
  edges: [],
  operations: [],
  message: 'No tool matches the task.',
  missingValues: [],
};

const emptyDoc = (): WorkflowDocument => ({ task: 'relax then phonons', nodes: [], edges: [], tools: {} });
const createStore = () =>
  createEditorStore({ meta: { id: 'wf_1', name: 'Plan', version: 1, readOnly: false }, doc: emptyDoc() });

/** A fetch that answers /api/plan with the given NDJSON lines, one chunk each, after `gate` resolves per chunk. */
function mockPlanFetch(lines: string[], gate?: (index: number) => Promise<void>) {
  const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
    const signal = init.signal as AbortSignal;
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (i >= lines.length) return controller.close();
        await gate?.(i);
        if (signal.aborted) return controller.error(new DOMException('aborted', 'AbortError'));
        controller.enqueue(new TextEncoder().encode(lines[i++] + '\n'));
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('reducePlanProgress', () => {
  it('counts steps and edges and ends with the stop reason', () => {
    const final = EVENTS.reduce(reducePlanProgress, INITIAL_PROGRESS);
    expect(final).toMatchObject({
      status: 'done',
      planner: 'offline',
      steps: 2,
      edges: 1,
      stopReason: 'no_tool_calls',
    });
  });

  it('ignores lines it does not know, such as the trailing document', () => {
    const done = EVENTS.reduce(reducePlanProgress, INITIAL_PROGRESS);
    expect(reducePlanProgress(done, { type: 'document' } as unknown as PlanEvent)).toBe(done);
  });

  it('keeps warnings and rejected calls as notices', () => {
    const p = [
      { type: 'warning', message: 'hallucinated "temperature"', stepId: 'step_1' },
      { type: 'error', message: 'unknown tool "frobnicate"' },
    ].reduce((acc, e) => reducePlanProgress(acc, e as PlanEvent), INITIAL_PROGRESS);
    expect(p.notices).toEqual([
      { severity: 'warning', message: 'hallucinated "temperature"', stepId: 'step_1' },
      { severity: 'error', message: 'unknown tool "frobnicate"', stepId: undefined },
    ]);
  });
});

describe('describePlanProgress', () => {
  it('says which planner runs, the step and why it stopped', () => {
    const running = reducePlanProgress(reducePlanProgress(INITIAL_PROGRESS, EVENTS[0]), EVENTS[2]);
    expect(describePlanProgress(running)).toBe('offline planner · 1 step so far · turn 1');
    expect(describePlanProgress(EVENTS.reduce(reducePlanProgress, INITIAL_PROGRESS))).toBe(
      'offline planner finished (no more steps to add) · 2 steps, 1 edge · planned everything the task asked',
    );
  });

  it('counts the values left for the person', () => {
    const done = EVENTS[EVENTS.length - 1] as Extract<PlanEvent, { type: 'done' }>;
    const left = [...EVENTS.slice(0, -1), { ...done, missingValues: [{ stepId: 'step_1', param: 'model' }] }];
    const p = left.reduce(reducePlanProgress, INITIAL_PROGRESS);
    expect(p.outcome?.kind).toBe('values_left');
    expect(describePlanProgress(p)).toBe(
      'offline planner finished (no more steps to add) · 2 steps, 1 edge · planned, with 1 value left for you',
    );
  });

  it('says plainly that nothing could be planned, and why, in the planner’s words', () => {
    const p = [EVENTS[0], { ...NOTHING_DONE }].reduce(reducePlanProgress, INITIAL_PROGRESS);
    expect(p).toMatchObject({ status: 'done', outcome: { kind: 'nothing' } });
    expect(describePlanProgress({ ...p, model: 'rules (no language model)' })).toBe(
      'offline planner (rules, no language model): nothing could be planned: No tool matches the task.',
    );
  });

  it('names the model of an LLM planner and the error of a failed run', () => {
    const p: PlanProgress = {
      ...INITIAL_PROGRESS,
      status: 'failed',
      planner: 'openai-chat',
      model: 'gpt-x',
      error: 'HTTP 500',
    };
    expect(describePlanProgress(p)).toBe('openai-chat planner (gpt-x) failed: HTTP 500');
  });

  it('keeps a descriptive model name readable', () => {
    const offline: PlanProgress = {
      ...INITIAL_PROGRESS,
      status: 'running',
      planner: 'offline',
      model: 'rules (no language model)',
      iteration: 1,
      steps: 1,
      message: 'Turn 1 of at most 8',
    };
    expect(describePlanProgress(offline)).toBe(
      'offline planner (rules, no language model) · 1 step so far · Turn 1 of at most 8',
    );
  });
});

describe('runPlan', () => {
  it('shows nodes as they stream and records the whole run as one undo step', async () => {
    const seen: number[] = [];
    const store = createStore();
    store.subscribe((s) => seen.push(s.doc.nodes.length));
    let locked = false;
    mockPlanFetch(
      EVENTS.map((e) => JSON.stringify(e)),
      async () => {
        locked ||= store.getState().aiEditing;
      },
    );
    const progress = await runPlan(
      store,
      { task: 'relax then phonons', toolkitIds: [], llm: 'offline' },
      tools,
      new AbortController().signal,
      {
        onProgress: () => undefined,
      },
    );
    expect(progress.status).toBe('done');
    expect(locked).toBe(true);
    // One node, then two, while streaming.
    expect(seen).toContain(1);
    const s = store.getState();
    expect(s.aiEditing).toBe(false);
    expect(s.doc.nodes.map((n) => n.id)).toEqual(['step_1', 'step_2']);
    expect(s.doc.edges).toHaveLength(1);
    s.undo();
    expect(store.getState().doc.nodes).toEqual([]);
    store.getState().redo();
    expect(store.getState().doc.nodes).toHaveLength(2);
  });

  it('keeps what arrived when cancelled, unlocks the canvas, and one undo removes it', async () => {
    const store = createStore();
    const controller = new AbortController();
    mockPlanFetch(
      EVENTS.map((e) => JSON.stringify(e)),
      async (i) => {
        if (i === 3) controller.abort();
      },
    );
    const progress = await runPlan(
      store,
      { task: 't', toolkitIds: [], llm: 'offline' },
      tools,
      controller.signal,
      {
        onProgress: () => undefined,
      },
    );
    expect(progress.status).toBe('cancelled');
    expect(describePlanProgress(progress)).toMatch(/cancelled · 1 step, 0 edges kept/);
    expect(store.getState().aiEditing).toBe(false);
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['step_1']);
    store.getState().undo();
    expect(store.getState().doc.nodes).toEqual([]);
  });

  it('reports a refused request with the server message and leaves the document alone', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json(
          { code: 'bad_request:task', message: '"task" must not be empty: type what to do.' },
          { status: 400 },
        ),
      ),
    );
    const store = createStore();
    const before = store.getState().doc;
    const progress = await runPlan(
      store,
      { task: '', toolkitIds: [], llm: 'offline' },
      tools,
      new AbortController().signal,
      {
        onProgress: () => undefined,
      },
    );
    expect(progress.status).toBe('failed');
    expect(progress.error).toBe(
      'The planner refused the request: "task" must not be empty: type what to do.',
    );
    expect(store.getState().doc).toBe(before);
    expect(store.getState().aiEditing).toBe(false);
  });

  it('shows a run handed over already streaming, without sending a request', async () => {
    const fetchMock = mockPlanFetch([]);
    const store = createStore();
    async function* handed() {
      yield* EVENTS;
    }
    const progress = await runPlan(
      store,
      { task: 't', toolkitIds: [], llm: 'offline' },
      tools,
      new AbortController().signal,
      { onProgress: () => undefined },
      handed(),
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(progress.status).toBe('done');
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['step_1', 'step_2']);
  });

  it('says so when the stream ends without a done event', async () => {
    mockPlanFetch(EVENTS.slice(0, 3).map((e) => JSON.stringify(e)));
    const store = createStore();
    const progress = await runPlan(
      store,
      { task: 't', toolkitIds: [], llm: 'offline' },
      tools,
      new AbortController().signal,
      {
        onProgress: () => undefined,
      },
    );
    expect(progress.status).toBe('failed');
    expect(progress.error).toMatch(/stopped answering/);
    expect(store.getState().doc.nodes).toHaveLength(1);
  });
});

describe('openFirstPlan', () => {
  it('ends without a workflow to create when the plan makes no step', async () => {
    mockPlanFetch(
      [EVENTS[0], { type: 'warning', message: 'No tool matches the task.' }, NOTHING_DONE].map((e) =>
        JSON.stringify(e),
      ),
    );
    const seen: PlanProgress[] = [];
    const start = await openFirstPlan(
      { task: 'asdf qwerty', toolkitIds: [], llm: 'offline' },
      new AbortController().signal,
      {
        onProgress: (p) => seen.push(p),
      },
    );
    expect(start.kind).toBe('ended');
    expect(start.progress.outcome).toEqual({ kind: 'nothing', reason: 'No tool matches the task.' });
    expect(seen.at(-1)).toBe(start.progress);
  });

  it('stops at the first step and replays every event, then the rest of the stream', async () => {
    mockPlanFetch(EVENTS.map((e) => JSON.stringify(e)));
    const start = await openFirstPlan(
      { task: 't', toolkitIds: [], llm: 'offline' },
      new AbortController().signal,
      {
        onProgress: () => undefined,
      },
    );
    if (start.kind !== 'steps') throw new Error('expected a plan with steps');
    expect(start.progress.steps).toBe(1);
    const replayed: PlanEvent[] = [];
    for await (const e of start.events) replayed.push(e);
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(EVENTS));
  });

  it('reports a refused request as a failure, with the server message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ code: 'bad_request:tools', message: 'There are no tools.' }, { status: 400 }),
      ),
    );
    const start = await openFirstPlan(
      { task: 't', toolkitIds: [], llm: 'offline' },
      new AbortController().signal,
      {
        onProgress: () => undefined,
      },
    );
    expect(start).toMatchObject({ kind: 'ended', progress: { status: 'failed' } });
    expect(start.progress.error).toBe('The planner refused the request: There are no tools.');
  });
});
