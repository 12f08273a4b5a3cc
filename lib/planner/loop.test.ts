import { describe, expect, it } from 'vitest';
import { materialsTools, officeTools } from './__fixtures__/tools';
import { call, createScriptedPort, end, text, type TurnScript } from './__fixtures__/scripted-port';
import { runPlanner } from './loop';
import { applyPlanOperations, createPlannedDocument } from './operations';
import { createOfflinePort } from './offline/port';
import type { ModelEvent, PlanEvent, PlannerInput, PlannerOptions } from './types';
import type { ToolDeclaration } from '../tools/types';
import { exportWorkflow } from '../workflow/export';
import { validateExport } from '../workflow/import';
import type { WorkflowDocument } from '../workflow/types';

const URL_A = 'https://example.org/a.cif';
const MODEL = 'https://example.org/m.pt';

async function run(
  turns: TurnScript[],
  input: Partial<PlannerInput> = {},
  opts: PlannerOptions = {},
  portOpts = {},
) {
  const port = createScriptedPort(turns, portOpts);
  const events: PlanEvent[] = [];
  for await (const event of runPlanner({ task: 'the task', tools: materialsTools, ...input }, port, opts))
    events.push(event);
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('the run did not end with done');
  return {
    port,
    events,
    done,
    of: <T extends PlanEvent['type']>(type: T) =>
      events.filter((e): e is Extract<PlanEvent, { type: T }> => e.type === type),
  };
}

const optimize = (args: object = { input_structure: URL_A, model_path: MODEL }, id?: string) =>
  call('optimize_structure', args, id);

describe('runPlanner: turns and stopping', () => {
  it('turns parallel calls of one turn into steps in call order, each answered with its own result', async () => {
    const { done, port, of } = await run([
      [
        optimize({ input_structure: URL_A, model_path: MODEL }, 'a'),
        call('fetch_structure', { material_id: 'mp-149' }, 'b'),
        end(),
      ],
      [text('Done.'), end()],
    ]);
    expect(of('step').map((e) => [e.step.id, e.step.tool])).toEqual([
      ['step_1', 'optimize_structure'],
      ['step_2', 'fetch_structure'],
    ]);
    expect(done.stopReason).toBe('no_tool_calls');
    expect(done.iterations).toBe(2);
    const second = port.requests[1].messages;
    expect(second.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [expect.objectContaining({ callId: 'a' }), expect.objectContaining({ callId: 'b' })],
      },
      {
        role: 'tool',
        callId: 'a',
        name: 'optimize_structure',
        content: '{"step_id":"step_1","outputs":["optimized_structure","final_energy"]}',
      },
      {
        role: 'tool',
        callId: 'b',
        name: 'fetch_structure',
        content: '{"step_id":"step_2","outputs":["structure_file"]}',
      },
    ]);
  });

  it('wires a later turn to an earlier step through its {{step_N.output}} reference', async () => {
    const { of, done, port } = await run([
      [optimize(), end()],
      [
        call('calculate_phonons', { structure_path: '{{step_1.optimized_structure}}', model_path: MODEL }),
        end(),
      ],
      [text('All set.'), end()],
    ]);
    expect(of('edge').map((e) => e.edge)).toEqual([
      {
        id: 'step_1.optimized_structure->step_2.structure_path',
        source: 'step_1',
        sourceOutput: 'optimized_structure',
        target: 'step_2',
        targetInput: 'structure_path',
      },
    ]);
    expect(done.steps[1].args).toEqual({ model_path: MODEL });
    expect(done.steps[1].issues).toEqual([]);
    expect(port.requests[1].system).toContain('your next call becomes step_2');
    const doc = createPlannedDocument('t', done.operations, materialsTools);
    expect(doc.ok && doc.value.edges.map((e) => e.id)).toEqual([
      'step_1.optimized_structure->step_2.structure_path',
    ]);
  });

  it('stops after max_iterations turns when the model keeps calling, and says what to do', async () => {
    const always: TurnScript = () => [call('fetch_structure', { material_id: 'mp-1' }), end()];
    const { done, port } = await run([always, always, always, always], {}, { maxIterations: 3 });
    expect(done.stopReason).toBe('max_iterations');
    expect(done.iterations).toBe(3);
    expect(port.requests).toHaveLength(3);
    expect(done.steps.map((s) => s.id)).toEqual(['step_1', 'step_2', 'step_3']);
    expect(done.message).toMatch(/Stopped after 3 model turns.*follow-up prompt/);
  });

  it('defaults to 8 iterations', async () => {
    const always: TurnScript = () => [call('fetch_structure', { material_id: 'mp-1' }), end()];
    const { done } = await run(Array.from({ length: 10 }, () => always));
    expect(done).toMatchObject({ stopReason: 'max_iterations', iterations: 8 });
  });

  it('stops with no_tool_calls and warns when the model answers in prose only', async () => {
    const { done, of } = await run([[text('I cannot help with that.'), end()]]);
    expect(done).toMatchObject({ stopReason: 'no_tool_calls', iterations: 1, steps: [] });
    expect(of('text')).toEqual([{ type: 'text', iteration: 1, text: 'I cannot help with that.' }]);
    expect(of('warning')[0].message).toMatch(/without calling any tool/);
  });

  it('warns about an empty reply', async () => {
    const { done, of } = await run([[end()]]);
    expect(done.stopReason).toBe('no_tool_calls');
    expect(of('warning')[0].message).toMatch(/replied with nothing/);
    expect(done.message).toBe(of('warning')[0].message);
  });

  it('says why the offline planner planned nothing in its own words, never blaming a model', async () => {
    const events: PlanEvent[] = [];
    for await (const e of runPlanner({ task: 'asdf qwerty', tools: materialsTools }, createOfflinePort()))
      events.push(e);
    const done = events.at(-1);
    if (done?.type !== 'done') throw new Error('the run did not end with done');
    expect(done).toMatchObject({ stopReason: 'no_tool_calls', steps: [], missingValues: [] });
    expect(done.message).toMatch(/^No tool matches the task/);
    const warnings = events.filter((e) => e.type === 'warning');
    expect(warnings.map((w) => w.message)).toEqual([done.message]);
    expect(JSON.stringify(warnings)).not.toMatch(/model/i);
  });

  it('lists the required values the steps were left without, and none once every one is given', async () => {
    const partial = await run([[optimize({ input_structure: URL_A }), end()], [end()]]);
    expect(JSON.stringify(partial.done.missingValues)).toBe(
      JSON.stringify([{ stepId: 'step_1', param: 'model_path' }]),
    );
    expect(partial.done.message).toBeUndefined();
    const whole = await run([[optimize(), end()], [end()]]);
    expect(whole.done.missingValues).toEqual([]);
  });

  it('does not count a required input an edge feeds as missing', async () => {
    const { done } = await run([
      [optimize(), end()],
      [
        call('calculate_phonons', { structure_path: '{{step_1.optimized_structure}}', model_path: MODEL }),
        end(),
      ],
      [end()],
    ]);
    expect(done.edges).toHaveLength(1);
    expect(done.missingValues).toEqual([]);
  });

  it('ends with error (not an exception) when the port reports a failure', async () => {
    const { done, of } = await run([
      [optimize(), { type: 'error', kind: 'http', message: 'HTTP 500: boom', status: 500 }],
    ]);
    expect(done).toMatchObject({ stopReason: 'error', message: 'HTTP 500: boom' });
    expect(done.steps).toHaveLength(1);
    expect(of('error')).toEqual([{ type: 'error', message: 'HTTP 500: boom', code: 'http' }]);
  });

  it('ends with error when the port throws', async () => {
    const { done } = await run([
      async function* () {
        yield text('partial');
        throw new Error('socket hang up');
      },
    ]);
    expect(done.stopReason).toBe('error');
    expect(done.message).toContain('socket hang up');
  });

  it('stops with cancelled when the signal aborts mid-turn, keeping the steps so far', async () => {
    const controller = new AbortController();
    const { done } = await run(
      [
        async function* () {
          yield optimize();
          controller.abort();
          yield call('fetch_structure', { material_id: 'x' });
        },
      ],
      {},
      { signal: controller.signal },
    );
    expect(done.stopReason).toBe('cancelled');
    expect(done.steps.map((s) => s.tool)).toEqual(['optimize_structure']);
  });

  it('reports which planner and model ran', async () => {
    const { events } = await run([[end()]]);
    expect(events[0]).toEqual({
      type: 'start',
      planner: 'scripted',
      model: 'test-model',
      protocol: 'native',
      maxIterations: 8,
    });
  });
});

describe('runPlanner: bad model output', () => {
  it('keeps arguments that are not JSON raw on the step, with the parse error', async () => {
    const { done, port } = await run([
      [call('optimize_structure', '{"input_structure": "a.cif",, }'), end()],
    ]);
    const [step] = done.steps;
    expect(step).toMatchObject({ id: 'step_1', args: {}, rawArguments: '{"input_structure": "a.cif",, }' });
    expect(step.issues[0]).toMatchObject({ severity: 'error', code: 'bad_json' });
    expect(step.issues[0].message).toMatch(/not valid JSON/);
    const result = JSON.parse((port.requests[1].messages[2] as { content: string }).content);
    expect(result.problems[0]).toMatch(/not valid JSON/);
  });

  it('repairs trailing commas and code fences, and warns on the step', async () => {
    const { done } = await run([
      [
        call('optimize_structure', '```json\n{"input_structure": "a.cif", "model_path": "m.pt",}\n```'),
        end(),
      ],
    ]);
    expect(done.steps[0].args).toEqual({ input_structure: 'a.cif', model_path: 'm.pt' });
    expect(done.steps[0].issues).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'repaired_arguments',
        message: expect.stringContaining('removed a code fence; removed trailing commas'),
      }),
    ]);
  });

  it('rejects an unknown tool without using a step id, and tells the model which tools exist', async () => {
    const { done, of, port } = await run([[call('make_coffee', { size: 'L' }, 'x'), optimize(), end()]]);
    expect(of('error')[0]).toMatchObject({
      code: 'unknown_tool',
      message: expect.stringContaining('"make_coffee", which is not an available tool'),
    });
    expect(done.steps.map((s) => s.id)).toEqual(['step_1']);
    const toolMessage = port.requests[1].messages.find((m) => m.role === 'tool' && m.callId === 'x');
    expect(JSON.parse((toolMessage as { content: string }).content).error).toContain(
      'Available tools: optimize_structure, calculate_phonons',
    );
  });

  it('drops hallucinated parameters into unknownArgs with a warning', async () => {
    const { done } = await run([
      [optimize({ input_structure: URL_A, model_path: MODEL, temperature: 300, executor: { x: 1 } }), end()],
    ]);
    expect(done.steps[0].args).toEqual({ input_structure: URL_A, model_path: MODEL, executor: { x: 1 } });
    expect(done.steps[0].unknownArgs).toEqual(['temperature']);
    expect(done.steps[0].issues).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'unknown_arg', param: 'temperature' }),
    ]);
  });

  it('keeps an argument named "__proto__": unknown to a tool without parameters, an arg of one that declares it', async () => {
    const ping: ToolDeclaration = {
      name: 'ping',
      description: 'no parameters',
      inputSchema: { type: 'object' },
    };
    const flag: ToolDeclaration = {
      name: 'flag',
      description: 'one odd parameter',
      inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"boolean"}}}'),
    };
    const { done } = await run(
      [[call('ping', '{"__proto__": false}'), call('flag', '{"__proto__": true}'), end()]],
      {
        tools: [ping, flag],
      },
    );
    expect(done.steps[0].args).toEqual({});
    expect(done.steps[0].unknownArgs).toEqual(['__proto__']);
    expect(done.steps[0].issues).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'unknown_arg', param: '__proto__' }),
    ]);
    expect(Object.hasOwn(done.steps[1].args, '__proto__')).toBe(true);
    expect(JSON.stringify(done.steps[1].args)).toBe('{"__proto__":true}');
    expect(done.steps[1].issues).toEqual([]);
  });

  it('reports wrong types from the schema (Ajv) and missing required parameters on the step', async () => {
    const { done } = await run([[optimize({ input_structure: URL_A, max_iterations: 'many' }), end()]]);
    const codes = done.steps[0].issues.map((i) => [i.code, i.param, i.severity]);
    expect(codes).toContainEqual(['missing_required', 'model_path', 'error']);
    expect(codes).toContainEqual(['invalid_value', 'max_iterations', 'error']);
  });

  it('drops a reference to a step or output that does not exist, with an error saying why', async () => {
    const { done, of } = await run([
      [optimize()],
      [
        call('calculate_phonons', { structure_path: '{{step_9.optimized_structure}}', model_path: MODEL }),
        call('calculate_band_structure', { structure: '{{step_1.nope}}' }),
      ],
    ]);
    expect(of('edge')).toEqual([]);
    expect(done.steps[1].issues[0]).toMatchObject({
      code: 'bad_reference',
      param: 'structure_path',
      message: expect.stringContaining('There is no node "step_9"'),
    });
    expect(done.steps[2].issues[0]).toMatchObject({
      code: 'bad_reference',
      message: expect.stringContaining(
        'has no output "nope"; its outputs: "optimized_structure", "final_energy"',
      ),
    });
  });

  it('refuses a reference whose types do not fit, like the editor would', async () => {
    const { done } = await run([
      [optimize()],
      [call('calculate_band_structure', { structure: '{{step_1.final_energy}}' })],
    ]);
    expect(done.edges).toEqual([]);
    expect(done.steps[1].issues[0].message).toContain('is float but input "structure" takes str');
  });

  it('keeps a reference inside a longer string as text, with a warning', async () => {
    const { done } = await run([
      [optimize()],
      [call('calculate_band_structure', { structure: 'from {{step_1.optimized_structure}}' })],
    ]);
    expect(done.edges).toEqual([]);
    expect(done.steps[1].issues).toContainEqual(
      expect.objectContaining({ code: 'embedded_reference', severity: 'warning' }),
    );
  });

  it('gives calls without ids (or with repeated ids) unique ones', async () => {
    const { port } = await run([
      [optimize(undefined, ''), call('fetch_structure', { material_id: 'a' }, ''), end()],
    ]);
    const ids = port.requests[1].messages
      .filter((m) => m.role === 'tool')
      .map((m) => (m as { callId: string }).callId);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('runPlanner: text protocol', () => {
  const blocks = (...calls: [string, object][]) =>
    calls
      .map(([name, args]) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`)
      .join('\n');

  it('reads <tool_call> blocks as steps as they close, and answers with <tool_result> blocks', async () => {
    const reply = `First I optimise.\n${blocks(['optimize_structure', { input_structure: URL_A, model_path: MODEL }], ['fetch_structure', { material_id: 'mp-1' }])}`;
    let stepsBeforeEnd = 0;
    const port = createScriptedPort(
      [
        [text(reply.slice(0, 120)), text(reply.slice(120)), end()],
        [text('Done.'), end()],
      ],
      { protocol: 'text' },
    );
    const events: PlanEvent[] = [];
    for await (const event of runPlanner({ task: 't', tools: materialsTools }, port)) {
      events.push(event);
      if (event.type === 'step') stepsBeforeEnd++;
    }
    expect(stepsBeforeEnd).toBe(2);
    expect(port.requests[0].protocol).toBe('text');
    expect(port.requests[0].system).toContain('<tool_call>{"name": "tool_name"');
    const results = port.requests[1].messages[2];
    expect(results).toEqual({
      role: 'user',
      content:
        '<tool_result name="optimize_structure">{"step_id":"step_1","outputs":["optimized_structure","final_energy"]}</tool_result>\n<tool_result name="fetch_structure">{"step_id":"step_2","outputs":["structure_file"]}</tool_result>',
    });
    expect(events.find((e) => e.type === 'text')).toEqual({
      type: 'text',
      iteration: 1,
      text: 'First I optimise.',
    });
  });

  it('flags the argument a cut-off block ended in and tells the model what was repaired', async () => {
    const reply =
      '<tool_call>{"name": "optimize_structure", "arguments": {"model_path": "m.pt", "input_structure": "https://example.org/Cu_bu';
    const { port, done } = await run(
      [
        [text(reply), end()],
        [text('Done.'), end()],
      ],
      {},
      {},
      { protocol: 'text' },
    );
    expect(done.steps[0].args).toEqual({ model_path: 'm.pt', input_structure: 'https://example.org/Cu_bu' });
    expect(done.steps[0].issues.map((i) => [i.code, i.param])).toEqual([
      ['repaired_arguments', undefined],
      ['possibly_truncated', 'input_structure'],
    ]);
    const results = port.requests[1].messages[2];
    expect(results.role === 'user' && results.content).toContain('"possibly_truncated":["input_structure"]');
  });

  it('switches to the text protocol when the endpoint refuses native tools, without using up a turn', async () => {
    const { port, done, of } = await run(
      [
        [
          {
            type: 'error',
            kind: 'tools_unsupported',
            message: 'HTTP 400: tools are not supported',
            status: 400,
          },
        ],
        [text(blocks(['fetch_structure', { material_id: 'mp-1' }])), end()],
        [text('Done.'), end()],
      ],
      {},
      { maxIterations: 2 },
    );
    expect(port.requests.map((r) => [r.turn, r.protocol])).toEqual([
      [1, 'native'],
      [1, 'text'],
      [2, 'text'],
    ]);
    expect(of('warning')[0].message).toMatch(
      /refused native tool calling \(HTTP 400: tools are not supported\); retrying with the text protocol/,
    );
    expect(done).toMatchObject({ stopReason: 'no_tool_calls', iterations: 2 });
    expect(done.steps.map((s) => s.tool)).toEqual(['fetch_structure']);
  });

  it('reads <tool_call> blocks a native-mode model wrote in prose, with a warning', async () => {
    const { done, of } = await run([
      [text(`Calling:\n${blocks(['fetch_structure', { material_id: 'mp-1' }])}`), end()],
    ]);
    expect(done.steps.map((s) => s.tool)).toEqual(['fetch_structure']);
    expect(of('warning')[0].message).toMatch(/instead of native tool calls/);
  });

  it('tells the model when a block cannot be read', async () => {
    const { of, port } = await run(
      [[text('<tool_call>{"arguments": {}}</tool_call>'), end()]],
      {},
      {},
      { protocol: 'text' },
    );
    expect(of('error')[0]).toMatchObject({ code: 'bad_tool_call' });
    expect(port.requests[1].messages[2]).toMatchObject({
      role: 'user',
      content: expect.stringContaining('could not be read'),
    });
  });
});

describe('runPlanner: follow-up edits', () => {
  const existing = (): WorkflowDocument => {
    const doc = createPlannedDocument(
      'optimise then phonons',
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
            tool: 'calculate_phonons',
            args: { model_path: MODEL },
            unknownArgs: [],
            issues: [],
          },
        },
        {
          op: 'connect',
          edge: {
            source: 'step_1',
            sourceOutput: 'optimized_structure',
            target: 'step_2',
            targetInput: 'structure_path',
          },
        },
      ],
      materialsTools,
    );
    if (!doc.ok) throw new Error(JSON.stringify(doc.error));
    return doc.value;
  };

  it('offers the edit tools and describes the current workflow in the prompt', async () => {
    const { port } = await run([[end()]], { document: existing() });
    const names = port.requests[0].tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['update_step', 'remove_step', 'connect', 'disconnect']));
    expect(port.requests[0].system).toContain(
      `- step_2: calculate_phonons {"model_path":"${MODEL}","structure_path":"{{step_1.optimized_structure}}"} → outputs: phonon_band_plot, thermal_properties`,
    );
    expect(port.requests[0].system).toContain('your next call becomes step_3');
  });

  it('turns edit calls and new steps into operations applied as one change', async () => {
    const doc = existing();
    const { done, of } = await run(
      [
        [
          call(
            'update_step',
            { step_id: 'step_1', args: { relax_cell: true, force_tolerance: 0.001 }, unset: ['model_path'] },
            'u',
          ),
          call('calculate_band_structure', { structure: '{{step_1.optimized_structure}}' }, 'n'),
          call(
            'disconnect',
            {
              source: 'step_1',
              source_output: 'optimized_structure',
              target: 'step_2',
              target_input: 'structure_path',
            },
            'd',
          ),
          call('remove_step', { step_id: 'step_2' }, 'r'),
          end(),
        ],
        [text('Updated.'), end()],
      ],
      { document: doc },
    );
    expect(done.operations.map((o) => o.op)).toEqual([
      'update_step',
      'add_step',
      'connect',
      'disconnect',
      'remove_step',
    ]);
    expect(of('operation').map((e) => e.operation.op)).toEqual(['update_step', 'disconnect', 'remove_step']);
    expect(done.steps.map((s) => s.id)).toEqual(['step_3']);
    const next = applyPlanOperations(doc, done.operations, materialsTools);
    if (!next.ok) throw new Error(JSON.stringify(next.error));
    expect(next.value.nodes.map((n) => [n.id, n.tool, n.args])).toEqual([
      ['step_1', 'optimize_structure', { input_structure: URL_A, relax_cell: true, force_tolerance: 0.001 }],
      ['step_3', 'calculate_band_structure', {}],
    ]);
    expect(next.value.edges.map((e) => e.id)).toEqual(['step_1.optimized_structure->step_3.structure']);
    expect(doc.nodes).toHaveLength(2);
  });

  it('passes an update_step argument named "__proto__" on as an unknown arg warning, not as nothing', async () => {
    const { events, done } = await run(
      [
        [
          call(
            'update_step',
            JSON.stringify({ step_id: 'step_1' }).replace('}', ',"args":{"__proto__":1}}'),
            'u',
          ),
          end(),
        ],
      ],
      { document: existing() },
    );
    // Recorded on the node as an unknown arg, as an add_step records it.
    expect(JSON.stringify(done.operations)).toBe(
      JSON.stringify([
        { op: 'update_step', stepId: 'step_1', args: {}, unset: [], unknownArgs: ['__proto__'] },
      ]),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'warning', message: expect.stringContaining('Argument "__proto__"') }),
    );
  });

  it('drops the wires a changed tool no longer has when a step of it is added, as applying the plan will', async () => {
    const doc = existing();
    const phonons = materialsTools.find((t) => t.name === 'calculate_phonons')!;
    const schema = JSON.parse(JSON.stringify(phonons.inputSchema));
    delete schema.properties.structure_path;
    schema.required = ['model_path'];
    const changed: ToolDeclaration = { ...phonons, inputSchema: schema };
    const tools = materialsTools.map((t) => (t === phonons ? changed : t));
    const wire = {
      source: 'step_1',
      source_output: 'optimized_structure',
      target: 'step_2',
      target_input: 'structure_path',
    };
    const { done, events } = await run(
      [[call('calculate_phonons', { model_path: MODEL }, 'n'), call('connect', wire, 'c'), end()], [end()]],
      { document: doc, tools },
    );
    expect(events).toContainEqual({
      type: 'warning',
      message: expect.stringContaining('"step_2" has no input "structure_path"'),
      stepId: 'step_2',
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'error', code: 'unknown_port', stepId: 'step_2' }),
    );
    expect(done.operations.map((o) => o.op)).toEqual(['add_step']);
    const next = applyPlanOperations(doc, done.operations, tools);
    if (!next.ok) throw new Error(JSON.stringify(next.error));
    expect(next.value.edges).toEqual([]);
    expect(next.value.nodes[1].notes?.map((n) => n.code)).toEqual(['edge_removed']);
    const file = JSON.parse(JSON.stringify(exportWorkflow(next.value, { id: 'w', name: 'w' })));
    expect(validateExport(file)).toEqual([]);
  });

  it('rewires with connect after a disconnect, and refuses edits that do not fit', async () => {
    const { done, of } = await run(
      [
        [
          call(
            'connect',
            {
              source: 'step_1',
              source_output: 'optimized_structure',
              target: 'step_2',
              target_input: 'structure_path',
            },
            'a',
          ),
          call('update_step', { step_id: 'step_7', args: {} }, 'b'),
          call(
            'connect',
            { source: 'step_1', source_output: 'final_energy', target: 'step_2', target_input: 'nope' },
            'c',
          ),
          call(
            'disconnect',
            {
              source: 'step_1',
              source_output: 'optimized_structure',
              target: 'step_2',
              target_input: 'structure_path',
            },
            'd',
          ),
          call(
            'connect',
            {
              source: 'step_2',
              source_output: 'phonon_band_plot',
              target: 'step_1',
              target_input: 'input_structure',
            },
            'e',
          ),
          end(),
        ],
      ],
      { document: existing() },
    );
    expect(of('error').map((e) => e.code)).toEqual(['input_taken', 'unknown_step', 'unknown_port']);
    expect(of('error')[0].message).toContain(
      'is already fed by "step_1.optimized_structure": remove that edge first',
    );
    expect(done.operations.map((o) => o.op)).toEqual(['disconnect', 'connect']);
  });

  it('applies nothing when the document no longer fits the operations', () => {
    const doc = existing();
    const result = applyPlanOperations(doc, [
      { op: 'update_step', stepId: 'step_1', args: { head: 'x' }, unset: [] },
      { op: 'remove_step', stepId: 'step_9' },
    ]);
    expect(result).toEqual({
      ok: false,
      error: [expect.objectContaining({ path: '/operations/1/stepId', code: 'unknown_step' })],
    });
  });
});

describe('runPlanner: tools and system parameters', () => {
  it('warns when a real tool shadows an edit tool in a follow-up', async () => {
    const shadow = {
      name: 'connect',
      description: 'Connect to a VPN',
      inputSchema: { type: 'object', properties: {} },
    };
    const doc: WorkflowDocument = { task: '', nodes: [], edges: [], tools: {} };
    const { of } = await run([[end()]], { tools: [...officeTools, shadow], document: doc });
    expect(of('warning')[0].message).toContain('A tool named "connect" shadows');
  });

  it('keeps system parameters out of the catalogue the model sees', async () => {
    const { port } = await run([[end()]]);
    const system = port.requests[0].system;
    expect(system).toContain('Never pass "executor" or "storage"');
    expect(system).not.toMatch(/^- executor \(/m);
  });

  it('streams events in order: a step before its edges, done last', async () => {
    const events: ModelEvent[] = [
      optimize(),
      call('calculate_phonons', { structure_path: '{{step_1.optimized_structure}}', model_path: MODEL }),
      end(),
    ];
    const { events: out } = await run([events]);
    expect(out.map((e) => e.type)).toEqual([
      'start',
      'progress',
      'step',
      'step',
      'edge',
      'progress',
      'text',
      'done',
    ]);
  });
});

describe('runPlanner: limits and progress', () => {
  it('announces a streamed call when its first delta arrives, before the step', async () => {
    const { events } = await run([
      [
        { type: 'tool_call_delta', key: 'chat:0', name: 'fetch_structure', argumentsDelta: '{"material_id"' },
        { type: 'tool_call_delta', key: 'chat:0', name: 'fetch_structure', argumentsDelta: ': "mp-1"}' },
        call('fetch_structure', { material_id: 'mp-1' }),
        end(),
      ],
    ]);
    const types = events.map((e) => (e.type === 'progress' ? e.message : e.type));
    expect(types.slice(0, 4)).toEqual([
      'start',
      expect.stringMatching(/^Turn 1/),
      'Receiving a call to fetch_structure…',
      'step',
    ]);
  });

  it('lists at most 30 tool names when rejecting an unknown tool', async () => {
    const many = Array.from({ length: 45 }, (_, i) => ({
      name: `tool_${i}`,
      description: 'x',
      inputSchema: { type: 'object', properties: {} },
    }));
    const { of } = await run([[call('nope', {}), end()]], { tools: many });
    expect(of('error')[0].message).toMatch(/tool_29 and 19 more \(see the catalogue\)\.$/);
  });

  it('stops adding steps after 200 in one run', async () => {
    const flood: TurnScript = () => [
      ...Array.from({ length: 201 }, (_, i) => call('fetch_structure', { material_id: `mp-${i}` }, `c${i}`)),
      end(),
    ];
    const { done, of } = await run([flood], {}, { maxIterations: 1 });
    expect(done.steps).toHaveLength(200);
    expect(of('error')).toEqual([expect.objectContaining({ code: 'too_many_steps' })]);
  });
});
