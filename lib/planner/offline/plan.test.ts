import { getFixturePath } from '../../../tests/fixtures/index';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allTools, materialsTools, officeTools } from '../__fixtures__/tools';
import type { ToolDeclaration } from '../../tools/types';
import { createPlannedDocument } from '../operations';
import { runPlanner } from '../loop';
import type { PlanEvent } from '../types';
import { planOffline } from './plan';
import { createOfflinePort } from './port';

const CU = 'https://example.org/structures/Cu_bulk.cif';
const DPA = 'https://example.org/models/dpa-2.4-7M.pt';

/** The graph as `[id, tool, args]` rows: easy to read in a failing assertion. */
function plan(task: string, tools: ToolDeclaration[] = allTools) {
  return planOffline({ task, tools }).calls.map((c) => [c.id, c.tool, c.args]);
}

describe('planOffline on English tasks', () => {
  it("plans the seed's optimise-then-phonons task with the optimised structure wired and the model reused", () => {
    expect(plan(`Optimise the structure at ${CU} with model ${DPA}, then compute its phonons.`)).toEqual([
      ['step_1', 'optimize_structure', { input_structure: CU, model_path: DPA }],
      ['step_2', 'calculate_phonons', { structure_path: '{{step_1.optimized_structure}}', model_path: DPA }],
    ]);
  });

  it('reads a boolean phrase ("relax the cell") and numbers named by nearby words', () => {
    expect(
      plan(
        'Relax the structure at ./Si.cif with model ./dpa.pt and relax the cell, force tolerance 0.005, max 500 iterations',
      ),
    ).toEqual([
      [
        'step_1',
        'optimize_structure',
        {
          input_structure: './Si.cif',
          model_path: './dpa.pt',
          force_tolerance: 0.005,
          max_iterations: 500,
          relax_cell: true,
        },
      ],
    ]);
  });

  it('reads a negated boolean ("without relaxing the cell") as false and wires the band structure', () => {
    expect(
      plan('Optimize ./Si.cif with ./dpa.pt without relaxing the cell, then calculate the band structure'),
    ).toEqual([
      [
        'step_1',
        'optimize_structure',
        { input_structure: './Si.cif', model_path: './dpa.pt', relax_cell: false },
      ],
      ['step_2', 'calculate_band_structure', { structure: '{{step_1.optimized_structure}}' }],
    ]);
  });

  it('fills parameters named like Object.prototype members ("constructor", "__proto__")', () => {
    const tool = materialsTools.find((t) => t.name === 'optimize_structure')!;
    const text = JSON.stringify(tool.inputSchema)
      .replaceAll('"input_structure"', '"constructor"')
      .replaceAll('"model_path"', '"__proto__"');
    const [[, , args]] = plan('Relax the structure at ./Si.cif with model ./dpa.pt and relax the cell', [
      { ...tool, inputSchema: JSON.parse(text) },
    ]);
    expect(JSON.stringify(args)).toBe('{"constructor":"./Si.cif","__proto__":"./dpa.pt","relax_cell":true}');
  });

  it('chains three steps, wiring each to the most recent matching output', () => {
    expect(
      plan(
        'Download mp-149 from the Materials Project then optimize it with model ./dpa.pt and then compute phonons',
      ),
    ).toEqual([
      ['step_1', 'fetch_structure', { material_id: 'mp-149' }],
      [
        'step_2',
        'optimize_structure',
        { input_structure: '{{step_1.structure_file}}', model_path: './dpa.pt' },
      ],
      [
        'step_3',
        'calculate_phonons',
        { structure_path: '{{step_2.optimized_structure}}', model_path: './dpa.pt' },
      ],
    ]);
  });

  it('fills numbers, and an enum value named in the text', () => {
    expect(
      plan(
        'Run a molecular dynamics simulation of ./water.cif with model ./dpa.pt at a temperature of 300 K for 5000 steps using the NPT ensemble',
      ),
    ).toEqual([
      [
        'step_1',
        'run_molecular_dynamics',
        { structure: './water.cif', model_path: './dpa.pt', temperature: 300, steps: 5000, ensemble: 'NPT' },
      ],
    ]);
  });

  it('wires an untyped result into the data input and reads quoted sheet names by their context', () => {
    expect(
      plan(
        "Read sheet 'Sales' from ./data/report.xlsx, then write it to ./out/summary.xlsx in sheet 'Summary'",
      ),
    ).toEqual([
      ['step_1', 'read_data_from_excel', { filepath: './data/report.xlsx', sheet_name: 'Sales' }],
      [
        'step_2',
        'write_data_to_excel',
        { filepath: './out/summary.xlsx', sheet_name: 'Summary', data: '{{step_1.result}}' },
      ],
    ]);
  });

  it('reuses the file and sheet of the step before when the text gives none', () => {
    expect(
      plan(
        "Apply the formula '=SUM(B2:B10)' to cell B11 of sheet 'Q1' in ./budget.xlsx then create a bar chart of the range 'A1:B10'",
      ),
    ).toEqual([
      [
        'step_1',
        'apply_formula',
        { filepath: './budget.xlsx', sheet_name: 'Q1', cell: 'B11', formula: '=SUM(B2:B10)' },
      ],
      [
        'step_2',
        'create_chart',
        { filepath: './budget.xlsx', sheet_name: 'Q1', data_range: 'A1:B10', chart_type: 'bar' },
      ],
    ]);
  });

  it('splits "… and push" into its own step when it names another tool', () => {
    expect(
      plan(
        "Clone https://github.com/acme/widgets.git into ./widgets, then commit the changes with message 'Bump version' and push to origin",
      ),
    ).toEqual([
      ['step_1', 'git_clone', { repo_url: 'https://github.com/acme/widgets.git', target_dir: './widgets' }],
      ['step_2', 'git_commit', { repo_path: '{{step_1.repo_path}}', message: 'Bump version' }],
      ['step_3', 'git_push', { repo_path: '{{step_1.repo_path}}' }],
    ]);
  });

  it('plans a one-step task with a home-relative path', () => {
    expect(plan('Check the status of the repository at ~/code/toolflow')).toEqual([
      ['step_1', 'git_status', { repo_path: '~/code/toolflow' }],
    ]);
  });

  it('places two paths by the words before them', () => {
    expect(plan('Calculate the elastic constants of ./Fe.cif using the model at ./dpa.pt')).toEqual([
      ['step_1', 'calculate_elastic_constants', { structure: './Fe.cif', model_path: './dpa.pt' }],
    ]);
  });

  it('matches an enum case-insensitively and a number to the parameter named after it', () => {
    expect(
      plan('Fetch mp-2534 as a POSCAR file and then calculate its band structure with 200 points'),
    ).toEqual([
      ['step_1', 'fetch_structure', { material_id: 'mp-2534', format: 'poscar' }],
      ['step_2', 'calculate_band_structure', { structure: '{{step_1.structure_file}}', num_points: 200 }],
    ]);
  });

  it('calls the same tool twice for two clauses that each give their own values', () => {
    expect(plan("Read sheet 'A' from ./a.xlsx then read sheet 'B' from ./b.xlsx")).toEqual([
      ['step_1', 'read_data_from_excel', { filepath: './a.xlsx', sheet_name: 'A' }],
      ['step_2', 'read_data_from_excel', { filepath: './b.xlsx', sheet_name: 'B' }],
    ]);
  });

  it('plans nothing for a task no tool matches, and says so', () => {
    const result = planOffline({ task: 'Paint the fence green', tools: allTools });
    expect(result.calls).toEqual([]);
    expect(result.notes).toEqual([expect.stringContaining('No tool matches the task')]);
    // The note is read in the editor and by the CLI alike: it names neither's controls.
    expect(result.notes[0]).not.toMatch(/palette|toolkit|model/i);
  });

  it('says when no tools are available at all', () => {
    expect(planOffline({ task: 'Optimise the structure', tools: [] }).notes).toEqual([
      'No tools are available to plan with: give the planner tool declarations first.',
    ]);
  });

  it('notes a value it could not place instead of dropping it silently', () => {
    const result = planOffline({
      task: 'Check the status of the repository at ~/code/toolflow with 7 retries',
      tools: officeTools,
    });
    expect(result.calls).toEqual([
      {
        id: 'step_1',
        tool: 'git_status',
        args: { repo_path: '~/code/toolflow' },
        clause: expect.any(String),
      },
    ]);
    expect(result.notes).toEqual([
      'The value 7 matched no parameter of git_status; set it by hand if it matters.',
    ]);
  });
});

describe('planOffline on Chinese tasks', () => {
  it('plans "对这个结构进行几何优化，然后计算声子谱" as optimise → phonons, wired', () => {
    expect(plan('对这个结构进行几何优化，然后计算声子谱')).toEqual([
      ['step_1', 'optimize_structure', {}],
      ['step_2', 'calculate_phonons', { structure_path: '{{step_1.optimized_structure}}' }],
    ]);
  });

  it('reads 不优化晶胞 as relax_cell false and a number after 最大迭代, merging those clauses into the step', () => {
    expect(
      plan('使用模型 ./dpa.pt 对结构 ./Si.cif 进行几何优化，不优化晶胞，最大迭代 300 次，然后计算能带结构'),
    ).toEqual([
      [
        'step_1',
        'optimize_structure',
        { input_structure: './Si.cif', model_path: './dpa.pt', max_iterations: 300, relax_cell: false },
      ],
      ['step_2', 'calculate_band_structure', { structure: '{{step_1.optimized_structure}}' }],
    ]);
  });

  it('splits at 再 and wires the downloaded structure into the elastic-constant step', () => {
    expect(plan('从 Materials Project 下载 mp-149 的结构，再用模型 ./dpa.pt 计算弹性常数')).toEqual([
      ['step_1', 'fetch_structure', { material_id: 'mp-149' }],
      [
        'step_2',
        'calculate_elastic_constants',
        { structure: '{{step_1.structure_file}}', model_path: './dpa.pt' },
      ],
    ]);
  });

  it('splits at 并且, reads a temperature and an ensemble from a trailing clause', () => {
    expect(
      plan('下载 mp-149 的晶体结构，并且在 500 K 温度下用模型 ./dpa.pt 进行分子动力学模拟，系综为 NVT'),
    ).toEqual([
      ['step_1', 'fetch_structure', { material_id: 'mp-149' }],
      [
        'step_2',
        'run_molecular_dynamics',
        { structure: '{{step_1.structure_file}}', model_path: './dpa.pt', temperature: 500, ensemble: 'NVT' },
      ],
    ]);
  });

  it('plans clone → commit with the message from its own clause', () => {
    expect(
      plan("克隆 https://github.com/acme/widgets.git 到 ./widgets，然后提交修改，提交信息为 'fix typo'"),
    ).toEqual([
      ['step_1', 'git_clone', { repo_url: 'https://github.com/acme/widgets.git', target_dir: './widgets' }],
      ['step_2', 'git_commit', { repo_path: '{{step_1.repo_path}}', message: 'fix typo' }],
    ]);
  });

  it('keeps a clause about a parameter (路径上取 150 个点) on the step it refines', () => {
    expect(plan('对 ./Fe.cif 计算能带结构，路径上取 150 个点', materialsTools)).toEqual([
      ['step_1', 'calculate_band_structure', { structure: './Fe.cif', num_points: 150 }],
    ]);
  });

  it('splits at 接着 and 最后', () => {
    expect(
      plan('下载 mp-149 的结构，接着进行几何优化，最后计算声子谱', materialsTools).map(([id, tool]) => [
        id,
        tool,
      ]),
    ).toEqual([
      ['step_1', 'fetch_structure'],
      ['step_2', 'optimize_structure'],
      ['step_3', 'calculate_phonons'],
    ]);
  });
});

describe('planOffline in a follow-up', () => {
  it('numbers new steps after the existing ones and wires to an existing step', () => {
    const result = planOffline({
      task: 'then calculate the band structure',
      tools: materialsTools,
      existingSteps: [
        { id: 'step_1', tool: 'optimize_structure', args: { input_structure: CU, model_path: DPA } },
      ],
      firstStepNumber: 2,
    });
    expect(result.calls.map((c) => [c.id, c.tool, c.args])).toEqual([
      ['step_2', 'calculate_band_structure', { structure: '{{step_1.optimized_structure}}' }],
    ]);
  });
});

describe('the offline planner through the planning loop', () => {
  it('streams the seed plan as step and edge events and stops with no_tool_calls', async () => {
    const events: PlanEvent[] = [];
    const task = `Optimise the structure at ${CU} with model ${DPA}, then compute its phonons.`;
    for await (const event of runPlanner({ task, tools: materialsTools }, createOfflinePort()))
      events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'start',
      'progress',
      'step',
      'step',
      'edge',
      'progress',
      'text',
      'done',
    ]);
    expect(events[0]).toMatchObject({ type: 'start', planner: 'offline' });
    const done = events.at(-1);
    if (done?.type !== 'done') throw new Error('no done event');
    expect(done.stopReason).toBe('no_tool_calls');
    expect(done.edges).toEqual([
      {
        id: 'step_1.optimized_structure->step_2.structure_path',
        source: 'step_1',
        sourceOutput: 'optimized_structure',
        target: 'step_2',
        targetInput: 'structure_path',
      },
    ]);
    expect(done.steps.every((s) => s.issues.length === 0)).toBe(true);
  });

  it('gives the seed golden parameters for the optimisation node (shared fixture)', async () => {
    const expected = JSON.parse(
      readFileSync(getFixturePath('seed-optimize-structure/expected.json'), 'utf8'),
    );
    const seedTools = JSON.parse(
      readFileSync(getFixturePath('seed-optimize-structure/tools.json'), 'utf8'),
    ) as {
      name: string;
      description: string;
      parameters: Record<string, unknown>;
    }[];
    const tools: ToolDeclaration[] = seedTools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.parameters,
    }));
    const task = `Optimise the structure at ${expected.nodes.step_1.input_parameters[0].value} with model ${expected.nodes.step_1.input_parameters[1].value}; do not relax the cell.`;
    let done: Extract<PlanEvent, { type: 'done' }> | undefined;
    for await (const event of runPlanner({ task, tools }, createOfflinePort()))
      if (event.type === 'done') done = event;
    const doc = createPlannedDocument(task, done?.operations ?? [], tools);
    if (!doc.ok) throw new Error(JSON.stringify(doc.error));
    const { exportWorkflow } = await import('../../workflow/export');
    const node = exportWorkflow(doc.value, { id: 'w', name: 'seed' }).nodes[0];
    expect(
      node.input_parameters.map(({ name, type, value, origin }) => ({ name, type, value, origin })),
    ).toEqual(expected.nodes.step_1.input_parameters);
    expect(node.missing_tool_args).toEqual([]);
    expect(node.unknown_args).toEqual([]);
  });
});

describe('planOffline on the built-in toolkits', () => {
  it('plans the seed task, a comma-separated chain and a rows → data wire with the shipped tools', async () => {
    const { BUILTIN_TOOLKITS } = await import('../../toolkits/builtin');
    const tools = BUILTIN_TOOLKITS.flatMap((t) => t.tools);
    expect(
      plan(`Optimise the structure at ${CU} with model ${DPA}, then compute its phonons.`, tools),
    ).toEqual([
      ['step_1', 'optimize_structure', { input_structure: CU, model_path: DPA }],
      ['step_2', 'calculate_phonons', { input_structure: '{{step_1.optimized_structure}}', model_path: DPA }],
    ]);
    expect(
      plan(
        'Build a bulk Cu structure, optimise it with model ./dpa.pt, then calculate the band structure',
        tools,
      ),
    ).toEqual([
      ['step_1', 'build_bulk_structure', { formula: 'Cu' }],
      ['step_2', 'optimize_structure', { input_structure: '{{step_1.structure}}', model_path: './dpa.pt' }],
      ['step_3', 'calculate_band_structure', { input_structure: '{{step_2.optimized_structure}}' }],
    ]);
    expect(
      plan('Read sheet "Sales" from report.xlsx then write it to out.xlsx sheet "Summary"', tools),
    ).toEqual([
      ['step_1', 'read_data_from_excel', { filepath: 'report.xlsx', sheet_name: 'Sales' }],
      [
        'step_2',
        'write_data_to_excel',
        { filepath: 'out.xlsx', sheet_name: 'Summary', data: '{{step_1.rows}}' },
      ],
    ]);
  });
});

describe('planOffline: a part that names another tool', () => {
  const named = (name: string, title: string): ToolDeclaration => ({
    name,
    title,
    description: `${title} in the knowledge graph`,
    inputSchema: { type: 'object', properties: { items: { type: 'array', items: { type: 'object' } } } },
  });
  const tools = [
    named('create_entities', 'Create Entities'),
    named('create_relations', 'Create Relations'),
    named('read_graph', 'Read Graph'),
  ];

  it('starts a new step when the part starts with a word of that tool’s name, even one that is no known verb', () => {
    const plan = planOffline({
      task: "Create entities Alice and Bob, relate Alice to Bob as 'knows', then read the graph",
      tools,
    });
    expect(plan.calls.map((c) => c.tool)).toEqual(['create_entities', 'create_relations', 'read_graph']);
  });

  it('still reads a part that starts with no tool’s word with the part before it', () => {
    const plan = planOffline({ task: 'Create entities Alice and Bob, then read the graph', tools });
    expect(plan.calls.map((c) => c.tool)).toEqual(['create_entities', 'read_graph']);
  });
});

describe('planOffline on tools written to be slow', () => {
  /** Plans `task` with `tool` and says how long it took. */
  function timedPlan(task: string, tool: ToolDeclaration) {
    const started = performance.now();
    const rows = plan(task, [tool]);
    return { rows, ms: performance.now() - started };
  }

  it('tests task words against a catastrophic schema pattern in linear time', () => {
    const tool: ToolDeclaration = {
      name: 'check_code',
      description: 'Check a code.',
      inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } },
    };
    const { rows, ms } = timedPlan(`Check the code "${'a'.repeat(40)}!"`, tool);
    expect(ms).toBeLessThan(1_000);
    // The value does not match the pattern, so it is not put there.
    expect(rows).toEqual([['step_1', 'check_code', {}]]);
  });

  it('reads enum values and parameter names as literals, never as pattern syntax', () => {
    const tool: ToolDeclaration = {
      name: 'set_mode',
      description: 'Set the mode.',
      inputSchema: {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: [`a${'-'.repeat(30)}b`] },
          '(a+)+$': { type: 'array', items: { type: 'string' } },
        },
      },
    };
    const { ms } = timedPlan(`Set the mode a${'-'.repeat(45)}bx, then ${'a'.repeat(40)}! Alice`, tool);
    expect(ms).toBeLessThan(1_000);
  });
});
