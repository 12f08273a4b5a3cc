/**
 * The planner through the real `openai` SDK against the scripted OpenAI-protocol server, on both
 * APIs, streamed and not. After every test, every request the SDK sent and every reply the
 * server gave is checked against the official OpenAI schemas.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { materialsTools } from '../planner/__fixtures__/tools';
import { runPlanner } from '../planner/loop';
import { applyPlanOperations, createPlannedDocument } from '../planner/operations';
import type { PlanEvent, PlannerInput } from '../planner/types';
import type { ToolDeclaration } from '../tools/types';
import { exportWorkflow } from '../workflow/export';
import { createOpenAIPort, type OpenAIApi, type OpenAIPortOptions } from './openai-port';
import type { Scenario, ScriptedTurn } from './testing/scenario';
import { startScriptedServer, type ScriptedServer } from './testing/server';
import { checkReply, checkRequest } from './testing/spec';

const URL_A = 'https://example.org/structures/Cu_bulk.cif';
const MODEL = 'https://example.org/models/dpa-2.4-7M.pt';
const MODES: { api: OpenAIApi; stream: boolean }[] = [
  { api: 'chat', stream: true },
  { api: 'chat', stream: false },
  { api: 'responses', stream: true },
  { api: 'responses', stream: false },
];

let servers: ScriptedServer[] = [];

afterEach(async () => {
  for (const server of servers) {
    const problems = [
      ...server.requests.flatMap(checkRequest),
      ...server.replies.flatMap((r, i) => checkReply(r, i)),
    ];
    expect(problems).toEqual([]);
    await server.close();
  }
  servers = [];
});

interface PlanOptions extends Partial<Omit<OpenAIPortOptions, 'client'>> {
  input?: Partial<PlannerInput>;
  maxIterations?: number;
  signal?: AbortSignal;
  onEvent?: (event: PlanEvent, server: ScriptedServer) => void;
}

async function plan(scenario: Scenario, opts: PlanOptions = {}) {
  const server = await startScriptedServer(scenario);
  servers.push(server);
  const client = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
  const port = createOpenAIPort({
    client,
    model: 'scripted-model',
    api: 'chat',
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...opts,
  });
  const events: PlanEvent[] = [];
  const input: PlannerInput = {
    task: 'Optimise the structure, then compute its phonons',
    tools: materialsTools,
    ...opts.input,
  };
  for await (const event of runPlanner(input, port, {
    ...(opts.maxIterations ? { maxIterations: opts.maxIterations } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  })) {
    events.push(event);
    opts.onEvent?.(event, server);
  }
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('no done event');
  const of = <T extends PlanEvent['type']>(type: T) =>
    events.filter((e): e is Extract<PlanEvent, { type: T }> => e.type === type);
  return { server, events, done, of };
}

/** The tool results the planner sent back in the second request, in call order. */
function getToolResults(server: ScriptedServer, api: OpenAIApi): string[] {
  const next = server.requests[1].body as {
    messages?: { role: string; content?: string }[];
    input?: { type?: string; output?: string }[];
  };
  return api === 'chat'
    ? (next.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content))
    : (next.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => String(i.output));
}

const optimizeTurn: ScriptedTurn = {
  text: 'First the optimisation.',
  tool_calls: [{ name: 'optimize_structure', arguments: { input_structure: URL_A, model_path: MODEL } }],
};
const parallelTurn: ScriptedTurn = {
  tool_calls: [
    {
      name: 'calculate_phonons',
      arguments: { structure_path: '{{step_1.optimized_structure}}', model_path: MODEL },
    },
    {
      name: 'calculate_band_structure',
      arguments: { structure: '{{step_1.optimized_structure}}', num_points: 150 },
    },
  ],
};

describe.each(MODES)('planning through the SDK ($api, stream: $stream)', ({ api, stream }) => {
  it('plans over several turns with parallel calls, wiring later steps to earlier outputs', async () => {
    const { done, of, server } = await plan(
      { turns: [optimizeTurn, parallelTurn, { text: 'The workflow is ready.' }] },
      { api, stream },
    );
    expect(of('step').map((e) => [e.step.id, e.step.tool, e.step.args])).toEqual([
      ['step_1', 'optimize_structure', { input_structure: URL_A, model_path: MODEL }],
      ['step_2', 'calculate_phonons', { model_path: MODEL }],
      ['step_3', 'calculate_band_structure', { num_points: 150 }],
    ]);
    expect(done.edges).toEqual([
      {
        id: 'step_1.optimized_structure->step_2.structure_path',
        source: 'step_1',
        sourceOutput: 'optimized_structure',
        target: 'step_2',
        targetInput: 'structure_path',
      },
      {
        id: 'step_1.optimized_structure->step_3.structure',
        source: 'step_1',
        sourceOutput: 'optimized_structure',
        target: 'step_3',
        targetInput: 'structure',
      },
    ]);
    expect(done).toMatchObject({ stopReason: 'no_tool_calls', iterations: 3 });
    expect(server.requests).toHaveLength(3);
    // The second request carries the first call and its synthetic result, in the API's own shape.
    const second = server.requests[1].body as Record<string, unknown>;
    const results =
      api === 'chat'
        ? (second.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool')
        : (second.input as { type?: string; output: string }[]).filter(
            (i) => i.type === 'function_call_output',
          );
    expect(
      results.map((r) => JSON.parse('content' in r ? r.content : (r as { output: string }).output)),
    ).toEqual([{ step_id: 'step_1', outputs: ['optimized_structure', 'final_energy'] }]);
    expect(server.requests[0].authorization).toBe('Bearer test-key');
    expect((server.requests[0].body as { stream?: boolean }).stream ?? false).toBe(stream);
  });

  it('stops with no_tool_calls when the first reply has none', async () => {
    const { done, of } = await plan({ turns: [{ text: 'I need more details.' }] }, { api, stream });
    expect(done).toMatchObject({ stopReason: 'no_tool_calls', iterations: 1, steps: [] });
    expect(of('text')[0].text).toBe('I need more details.');
  });

  it('stops at max_iterations while the model keeps calling', async () => {
    const again: ScriptedTurn = {
      tool_calls: [{ name: 'fetch_structure', arguments: { material_id: 'mp-149' } }],
    };
    const { done, server } = await plan({ turns: [again, again, again] }, { api, stream, maxIterations: 2 });
    expect(done).toMatchObject({ stopReason: 'max_iterations', iterations: 2 });
    expect(done.steps.map((s) => s.id)).toEqual(['step_1', 'step_2']);
    expect(server.requests).toHaveLength(2);
  });

  it('keeps malformed arguments raw with the parse error, repairs a trailing comma, rejects an unknown tool and drops hallucinated args', async () => {
    const { done, of, server } = await plan(
      {
        turns: [
          {
            tool_calls: [
              { name: 'optimize_structure', raw_arguments: '{input_structure = a.cif, model_path = m}' },
              { name: 'fetch_structure', raw_arguments: '{"material_id": "mp-149",}' },
              { name: 'make_coffee', arguments: { size: 'L' } },
              {
                name: 'calculate_band_structure',
                arguments: { structure: 's.cif', color: 'red', num_points: 'many' },
              },
            ],
          },
        ],
      },
      { api, stream },
    );
    const [bad, repaired, hallucinated] = done.steps;
    expect(bad).toMatchObject({
      id: 'step_1',
      args: {},
      rawArguments: '{input_structure = a.cif, model_path = m}',
    });
    expect(bad.issues[0]).toMatchObject({ code: 'bad_json', severity: 'error' });
    expect(repaired).toMatchObject({
      id: 'step_2',
      args: { material_id: 'mp-149' },
      issues: [expect.objectContaining({ code: 'repaired_arguments' })],
    });
    expect(of('error')).toEqual([
      expect.objectContaining({ code: 'unknown_tool', message: expect.stringContaining('"make_coffee"') }),
    ]);
    expect(hallucinated).toMatchObject({
      id: 'step_3',
      unknownArgs: ['color'],
      args: { structure: 's.cif', num_points: 'many' },
    });
    expect(hallucinated.issues.map((i) => i.code)).toEqual(['unknown_arg', 'invalid_value']);
    // Every call, the rejected one too, is answered so the conversation stays valid.
    expect(getToolResults(server, api)).toHaveLength(4);
  });

  it('tells the model which arguments were repaired and flags a value cut off mid-string', async () => {
    const { done, server } = await plan(
      {
        turns: [
          {
            tool_calls: [
              {
                name: 'optimize_structure',
                raw_arguments: '{"input_structure": "https://example.org/structures/Cu_bu',
              },
              { name: 'fetch_structure', raw_arguments: "{'material_id': 'mp-149', 'format': " },
            ],
          },
        ],
      },
      { api, stream },
    );
    const [cut, leftOut] = done.steps;
    expect(cut.args).toEqual({ input_structure: 'https://example.org/structures/Cu_bu' });
    expect(cut.issues.map((i) => [i.code, i.param])).toEqual([
      ['repaired_arguments', undefined],
      ['possibly_truncated', 'input_structure'],
      ['missing_required', 'model_path'],
    ]);
    // A member cut before its value is left out rather than set to an invented null.
    expect(leftOut.args).toEqual({ material_id: 'mp-149' });
    expect(leftOut.issues.map((i) => [i.code, i.param])).toEqual([
      ['repaired_arguments', undefined],
      ['possibly_truncated', 'format'],
    ]);
    const [first, second] = getToolResults(server, api).map((r) => JSON.parse(r) as Record<string, unknown>);
    expect(first).toMatchObject({
      step_id: 'step_1',
      repaired: {
        how: ['closed an unterminated string', 'closed brackets left open (the reply looks cut off)'],
        arguments: ['input_structure'],
        possibly_truncated: ['input_structure'],
      },
      repair_note: expect.stringContaining('update_step with step_id "step_1"'),
    });
    expect(second).toMatchObject({
      step_id: 'step_2',
      repaired: { arguments: ['material_id'], left_out: ['format'] },
    });
    // The flag reaches the export's problems list.
    const doc = createPlannedDocument('t', done.operations, materialsTools);
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    const exported = exportWorkflow(doc.value, { id: 'wf', name: 'n' });
    expect(exported.nodes[0].problems).toContainEqual(
      expect.objectContaining({ code: 'possibly_truncated', param: 'input_structure', severity: 'warning' }),
    );
  });

  it('falls back to the text protocol when the endpoint answers 400 about tools', async () => {
    const blocks =
      '<tool_call>{"name": "optimize_structure", "arguments": {"input_structure": "a.cif", "model_path": "m.pt"}}</tool_call>';
    const { done, of, server } = await plan(
      {
        turns: [
          {
            error: {
              status: 400,
              message: 'This model does not support tools.',
              param: 'tools',
              code: 'invalid_request_error',
            },
          },
          { text: `Here is my plan.\n\`\`\`\n${blocks}\n\`\`\`` },
          { text: 'Done.' },
        ],
      },
      { api, stream },
    );
    expect(of('warning')[0].message).toMatch(
      /refused native tool calling \(HTTP 400: This model does not support tools\.\)/,
    );
    expect(done.steps.map((s) => [s.id, s.tool, s.args])).toEqual([
      ['step_1', 'optimize_structure', { input_structure: 'a.cif', model_path: 'm.pt' }],
    ]);
    const retried = server.requests[1].body as Record<string, unknown>;
    expect(retried.tools).toBeUndefined();
    const system =
      api === 'chat'
        ? (retried.messages as { content: string }[])[0].content
        : (retried.instructions as string);
    expect(system).toContain('<tool_call>{"name": "tool_name"');
    expect(system).toContain('- model_path (string, required): Path to the DPA model file');
    const third = server.requests[2].body as Record<string, unknown>;
    const lastUser =
      api === 'chat'
        ? (third.messages as { role: string; content: string }[]).at(-1)
        : (third.input as { role: string; content: string }[]).at(-1);
    expect(lastUser).toEqual({
      role: 'user',
      content:
        '<tool_result name="optimize_structure">{"step_id":"step_1","outputs":["optimized_structure","final_energy"]}</tool_result>',
    });
  });

  it('retries a 429 after the wait the server asks for, and says so', async () => {
    const { done, of, server } = await plan(
      {
        turns: [
          { error: { status: 429, message: 'Rate limit reached', retry_after_ms: 20 } },
          optimizeTurn,
          { text: 'ok' },
        ],
      },
      { api, stream },
    );
    expect(of('warning')[0].message).toBe(
      'Rate limited by the model endpoint (HTTP 429); retrying in 20 ms (retry 1 of 3).',
    );
    expect(done.stopReason).toBe('no_tool_calls');
    expect(done.steps).toHaveLength(1);
    expect(server.requests.map((r) => r.turn)).toEqual([0, 1, 2]);
  });
});

describe('rate limits, errors and timeouts', () => {
  it('gives up after a bounded number of retries, capping a huge Retry-After', async () => {
    const limited: ScriptedTurn = { error: { status: 429, message: 'Slow down', retry_after_ms: 3_600_000 } };
    const started = Date.now();
    const { done, of, server } = await plan(
      { turns: [limited, limited, limited] },
      { retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 30 } },
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.requests).toHaveLength(3);
    expect(of('warning').map((w) => w.message)).toEqual([
      'Rate limited by the model endpoint (HTTP 429); retrying in 30 ms (retry 1 of 2).',
      'Rate limited by the model endpoint (HTTP 429); retrying in 30 ms (retry 2 of 2).',
    ]);
    expect(done.stopReason).toBe('error');
    expect(done.message).toBe(
      'The model endpoint is rate limiting Toolflow (HTTP 429: Slow down). Wait a moment and plan again, or use a key with a higher limit. (gave up after 2 retries)',
    );
  });

  it('retries a 503 and then succeeds', async () => {
    const { done, server } = await plan({
      turns: [{ error: { status: 503, message: 'Overloaded' } }, optimizeTurn, { text: 'ok' }],
    });
    expect(done.steps).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it('times out a response that does not start, with a message saying what to do', async () => {
    const started = Date.now();
    const { done } = await plan({ turns: [{ ...optimizeTurn, delay_ms: 2000 }] }, { timeoutMs: 150 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(done.stopReason).toBe('error');
    expect(done.message).toMatch(
      /^The model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 did not answer within 150 ms\. .*TOOLFLOW_LLM_TIMEOUT_MS/,
    );
  });

  it.each(['chat', 'responses'] as const)(
    'times out a %s stream that goes quiet halfway, keeping the steps already made',
    async (api) => {
      const { done } = await plan(
        {
          turns: [
            {
              tool_calls: [
                { name: 'fetch_structure', arguments: { material_id: 'mp-1' } },
                { name: 'fetch_structure', arguments: { material_id: 'mp-2' } },
              ],
              chunk_size: 4,
              stall_after_chunks: 14,
            },
          ],
        },
        { api, timeoutMs: 200 },
      );
      expect(done.stopReason).toBe('error');
      expect(done.message).toMatch(/stopped sending in the middle of its reply for 200 ms/);
      expect(done.steps.map((s) => s.args)).toEqual([{ material_id: 'mp-1' }]);
    },
  );

  it('explains a refused key and an unknown model', async () => {
    const unauthorized = await plan({
      turns: [{ error: { status: 401, message: 'Incorrect API key provided' } }],
    });
    expect(unauthorized.done.message).toBe(
      'The model endpoint refused the request (HTTP 401: Incorrect API key provided). Check OPENAI_API_KEY.',
    );
    const missing = await plan(
      { turns: [{ error: { status: 404, message: 'The model `x` does not exist' } }] },
      { api: 'responses' },
    );
    expect(missing.done.message).toMatch(
      /no such model or path \(HTTP 404: The model `x` does not exist\)\. Check TOOLFLOW_MODEL \("scripted-model"\)/,
    );
  });

  it('cancels a turn that is waiting for the endpoint', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const { done } = await plan(
      { turns: [{ ...optimizeTurn, delay_ms: 3000 }] },
      { signal: controller.signal },
    );
    expect(done.stopReason).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('streaming accumulation', () => {
  const threeCalls: ScriptedTurn['tool_calls'] = [
    { name: 'fetch_structure', arguments: { material_id: 'mp-149', format: 'poscar' } },
    { name: 'calculate_band_structure', arguments: { structure: 'Si.cif', kpath: 'GXLG', num_points: 240 } },
    {
      name: 'run_molecular_dynamics',
      arguments: { structure: 'w.cif', model_path: 'm.pt', temperature: 300.5, ensemble: 'NPT' },
    },
  ];

  it('joins interleaved Chat tool-call deltas by index', async () => {
    const { done } = await plan(
      { turns: [{ tool_calls: threeCalls, chunk_size: 3, interleave: true }] },
      { api: 'chat' },
    );
    expect(done.steps.map((s) => [s.tool, s.args])).toEqual(threeCalls?.map((c) => [c.name, c.arguments]));
  });

  it.each(['chat', 'responses'] as const)(
    'emits each %s step as soon as its arguments are complete, before the reply ends',
    async (api) => {
      const sentAtStep: number[] = [];
      let total = 0;
      const { done } = await plan(
        {
          turns: [
            { text: 'Planning three steps.', tool_calls: threeCalls, chunk_size: 5, chunk_delay_ms: 2 },
          ],
        },
        {
          api,
          onEvent: (event, server) => {
            const reply = server.replies[0];
            if (event.type === 'step') sentAtStep.push(reply.events?.length ?? 0);
            if (event.type === 'done') total = reply.events?.length ?? 0;
          },
        },
      );
      expect(done.steps).toHaveLength(3);
      // The first two steps exist while the server is still streaming the calls after them.
      expect(sentAtStep[0]).toBeLessThan(sentAtStep[1]);
      expect(sentAtStep[1]).toBeLessThan(sentAtStep[2]);
      expect(sentAtStep[1]).toBeLessThan(total - 5);
    },
  );
});

describe('tool names and follow-up edits through the SDK', () => {
  it('sends tool names OpenAI forbids under aliases and maps the calls back', async () => {
    const mcpTool: ToolDeclaration = {
      name: 'github.create_issue',
      description: 'Create an issue',
      inputSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    };
    const { done, server } = await plan(
      { turns: [{ tool_calls: [{ name: 'github_create_issue', arguments: { title: 'Bug' } }] }] },
      { input: { tools: [mcpTool] } },
    );
    const sent = (server.requests[0].body as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(sent).toEqual(['github_create_issue', 'update_step', 'remove_step', 'connect', 'disconnect']);
    expect(done.steps.map((s) => [s.tool, s.args])).toEqual([['github.create_issue', { title: 'Bug' }]]);
    const history = (
      server.requests[1].body as {
        messages: { role: string; tool_calls?: { function: { name: string } }[] }[];
      }
    ).messages;
    expect(history.find((m) => m.role === 'assistant')?.tool_calls?.[0].function.name).toBe(
      'github_create_issue',
    );
  });

  it.each(['chat', 'responses'] as const)(
    'edits an existing workflow with update_step, connect and remove_step (%s)',
    async (api) => {
      const existing = createPlannedDocument(
        'optimise',
        [
          {
            op: 'add_step',
            step: {
              id: 'step_1',
              tool: 'optimize_structure',
              args: { input_structure: URL_A, model_path: MODEL },
              unknownArgs: [],
              issues: [],
            },
          },
          {
            op: 'add_step',
            step: {
              id: 'step_2',
              tool: 'calculate_elastic_constants',
              args: { structure: 'x.cif', model_path: MODEL },
              unknownArgs: [],
              issues: [],
            },
          },
        ],
        materialsTools,
      );
      if (!existing.ok) throw new Error('fixture');
      const { done, server } = await plan(
        {
          turns: [
            {
              tool_calls: [
                { name: 'update_step', arguments: { step_id: 'step_1', args: { relax_cell: true } } },
                {
                  name: 'calculate_phonons',
                  arguments: { structure_path: '{{step_1.optimized_structure}}', model_path: MODEL },
                },
                { name: 'remove_step', arguments: { step_id: 'step_2' } },
              ],
            },
            { text: 'Relaxing the cell now, phonons added, elastic step removed.' },
          ],
        },
        {
          api,
          input: { task: 'relax the cell too, add phonons, drop the elastic step', document: existing.value },
        },
      );
      const body = server.requests[0].body as { tools: { name?: string; function?: { name: string } }[] };
      const names = body.tools.map((t) => t.function?.name ?? t.name);
      expect(names).toEqual(expect.arrayContaining(['update_step', 'remove_step', 'connect', 'disconnect']));
      const next = applyPlanOperations(existing.value, done.operations, materialsTools);
      if (!next.ok) throw new Error(JSON.stringify(next.error));
      expect(next.value.nodes.map((n) => [n.id, n.tool, n.args])).toEqual([
        ['step_1', 'optimize_structure', { input_structure: URL_A, model_path: MODEL, relax_cell: true }],
        ['step_3', 'calculate_phonons', { model_path: MODEL }],
      ]);
      expect(next.value.edges.map((e) => e.id)).toEqual([
        'step_1.optimized_structure->step_3.structure_path',
      ]);
    },
  );
});
