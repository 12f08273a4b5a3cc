/**
 * The offline planner against the toolkits every user starts with (materials, spreadsheet,
 * git): the seed users' tasks in Chinese and English, each with its whole graph asserted —
 * tools in order, arguments, and the edges the `{{step_N.output}}` references become.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLKITS } from '../../toolkits/builtin';
import { runPlanner } from '../loop';
import type { PlanEvent } from '../types';
import { planOffline } from './plan';
import { createOfflinePort } from './port';
import { learnTitleLexicon } from './tool-index';

const tools = BUILTIN_TOOLKITS.flatMap((kit) => kit.tools);

const CU = 'https://example.org/Cu.cif';
const DPA = 'https://example.org/dpa.pt';
const SEED_CU = 'https://example.org/structures/Cu_bulk.cif';
const SEED_DPA = 'https://example.org/models/dpa-2.4-7M.pt';

/** The plan as readable rows, the edges its references make, and its notes. */
function graph(task: string) {
  const { calls, notes } = planOffline({ task, tools });
  const edges = calls.flatMap((call) =>
    Object.entries(call.args).flatMap(([input, value]) => {
      const ref = typeof value === 'string' ? /^\{\{(step_\d+)\.(\w+)\}\}$/.exec(value) : null;
      return ref ? [`${ref[1]}.${ref[2]} → ${call.id}.${input}`] : [];
    }),
  );
  return { steps: calls.map((c) => [c.id, c.tool, c.args]), edges, notes };
}

describe('the offline planner on Chinese tasks with the built-in toolkits', () => {
  it('reads "不优化晶胞" as relax_cell false on the optimisation, not as a second optimisation', () => {
    expect(graph(`对 ${CU} 进行结构优化，不优化晶胞，然后计算声子谱`)).toEqual({
      steps: [
        ['step_1', 'optimize_structure', { input_structure: CU, relax_cell: false }],
        ['step_2', 'calculate_phonons', { input_structure: '{{step_1.optimized_structure}}' }],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [
        'step_1 (optimize_structure): the task does not say the value of model_path; it is left for you to fill in.',
        'step_2 (calculate_phonons): the task does not say the value of model_path; it is left for you to fill in.',
      ],
    });
  });

  it('places the model and the structure by the files’ own names, and reads "并优化晶胞" as relax_cell true', () => {
    expect(graph(`用模型 ${DPA} 对 ${CU} 进行结构优化并优化晶胞，然后计算声子谱`)).toEqual({
      steps: [
        ['step_1', 'optimize_structure', { input_structure: CU, model_path: DPA, relax_cell: true }],
        [
          'step_2',
          'calculate_phonons',
          { input_structure: '{{step_1.optimized_structure}}', model_path: DPA },
        ],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [],
    });
  });

  it('places a file with no telling name by the Chinese word before it (结构 → structure, via the titles)', () => {
    expect(graph('用模型 ./m.pt 对结构 ./Cu.vasp 进行结构优化')).toEqual({
      steps: [['step_1', 'optimize_structure', { input_structure: './Cu.vasp', model_path: './m.pt' }]],
      edges: [],
      notes: [],
    });
  });

  it('reads "无需优化晶胞" after 结构弛豫 as relax_cell false, and the one model named for both steps', () => {
    expect(graph('对 ./Si.cif 进行结构弛豫，无需优化晶胞，然后用模型 ./dpa.pt 计算声子谱')).toEqual({
      steps: [
        [
          'step_1',
          'optimize_structure',
          { input_structure: './Si.cif', model_path: './dpa.pt', relax_cell: false },
        ],
        [
          'step_2',
          'calculate_phonons',
          { input_structure: '{{step_1.optimized_structure}}', model_path: './dpa.pt' },
        ],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [],
    });
  });

  it('does not wire a commit message from the output of git status, and says it is left to the user', () => {
    expect(graph('查看仓库状态，然后提交改动')).toEqual({
      steps: [
        ['step_1', 'git_status', {}],
        ['step_2', 'git_commit', {}],
      ],
      edges: [],
      notes: [
        'step_2 (git_commit): the task does not say the value of message; it is left for you to fill in.',
      ],
    });
  });

  it('builds, optimises and computes phonons, the built structure and the model carried along', () => {
    expect(graph('构建 Cu 的 fcc 晶体结构，然后用模型 ./dpa.pt 进行结构优化，最后计算声子谱')).toEqual({
      steps: [
        ['step_1', 'build_bulk_structure', { formula: 'Cu', crystal_structure: 'fcc' }],
        ['step_2', 'optimize_structure', { input_structure: '{{step_1.structure}}', model_path: './dpa.pt' }],
        [
          'step_3',
          'calculate_phonons',
          { input_structure: '{{step_2.optimized_structure}}', model_path: './dpa.pt' },
        ],
      ],
      edges: [
        'step_1.structure → step_2.input_structure',
        'step_2.optimized_structure → step_3.input_structure',
      ],
      notes: [],
    });
  });

  it('feeds the last MD frame to the elastic constants and reads "系综为 NPT" on the MD step', () => {
    expect(graph('用模型 ./dpa.pt 对 ./water.cif 进行分子动力学模拟，系综为 NPT，然后计算弹性常数')).toEqual({
      steps: [
        [
          'step_1',
          'run_molecular_dynamics',
          { input_structure: './water.cif', model_path: './dpa.pt', ensemble: 'NPT' },
        ],
        [
          'step_2',
          'calculate_elastic_constants',
          { input_structure: '{{step_1.final_structure}}', model_path: './dpa.pt' },
        ],
      ],
      edges: ['step_1.final_structure → step_2.input_structure'],
      notes: [],
    });
  });

  it('reads a functional named in a trailing clause', () => {
    expect(graph('对 ./Fe.cif 计算能带结构，使用 PBEsol 泛函')).toEqual({
      steps: [['step_1', 'calculate_band_structure', { input_structure: './Fe.cif', functional: 'PBEsol' }]],
      edges: [],
      notes: [],
    });
  });

  it('reads worksheet data and writes it elsewhere (工作表 is one word, not two that outvote 读取)', () => {
    expect(
      graph("读取 ./sales.xlsx 中 'Q1' 工作表的数据，然后把数据写入 ./summary.xlsx 的 'Summary' 工作表"),
    ).toEqual({
      steps: [
        ['step_1', 'read_data_from_excel', { filepath: './sales.xlsx', sheet_name: 'Q1' }],
        [
          'step_2',
          'write_data_to_excel',
          { filepath: './summary.xlsx', sheet_name: 'Summary', data: '{{step_1.rows}}' },
        ],
      ],
      edges: ['step_1.rows → step_2.data'],
      notes: [],
    });
  });

  it('creates a workbook, then a worksheet in it', () => {
    expect(graph("新建工作簿 ./report.xlsx，然后新建工作表 'Data'")).toEqual({
      steps: [
        ['step_1', 'create_workbook', { filepath: './report.xlsx' }],
        ['step_2', 'create_worksheet', { filepath: '{{step_1.filepath}}', sheet_name: 'Data' }],
      ],
      edges: ['step_1.filepath → step_2.filepath'],
      notes: [],
    });
  });

  it('reads "提交信息为 \'fix typo\'" as the message of the commit, not as a workbook step', () => {
    expect(graph("提交改动，提交信息为 'fix typo'，然后查看提交历史")).toEqual({
      steps: [
        ['step_1', 'git_commit', { message: 'fix typo' }],
        ['step_2', 'git_log', {}],
      ],
      edges: [],
      notes: [],
    });
  });

  it('stages a file as the one item of the files list', () => {
    expect(graph("查看未暂存的改动，然后暂存文件 'src/app.ts'")).toEqual({
      steps: [
        ['step_1', 'git_diff_unstaged', {}],
        ['step_2', 'git_add', { files: ['src/app.ts'] }],
      ],
      edges: [],
      notes: [],
    });
  });

  it('switches to the branch it just created', () => {
    expect(graph("创建分支 'feature/plot'，然后切换分支")).toEqual({
      steps: [
        ['step_1', 'git_create_branch', { branch_name: 'feature/plot' }],
        ['step_2', 'git_checkout', { branch_name: 'feature/plot' }],
      ],
      edges: [],
      notes: [],
    });
  });
});

describe('the offline planner on English tasks with the built-in toolkits', () => {
  it("plans the seed's sentence as two wired nodes with the seed's values", () => {
    expect(
      graph(`Optimise the structure at ${SEED_CU} with the model ${SEED_DPA}, then compute its phonons`),
    ).toEqual({
      steps: [
        ['step_1', 'optimize_structure', { input_structure: SEED_CU, model_path: SEED_DPA }],
        [
          'step_2',
          'calculate_phonons',
          { input_structure: '{{step_1.optimized_structure}}', model_path: SEED_DPA },
        ],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [],
    });
  });

  it('reads "without relaxing the cell" and "do not relax the cell" as relax_cell false on the same step', () => {
    const expected = {
      steps: [
        ['step_1', 'optimize_structure', { input_structure: CU, relax_cell: false }],
        ['step_2', 'calculate_phonons', { input_structure: '{{step_1.optimized_structure}}' }],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [
        'step_1 (optimize_structure): the task does not say the value of model_path; it is left for you to fill in.',
        'step_2 (calculate_phonons): the task does not say the value of model_path; it is left for you to fill in.',
      ],
    };
    expect(graph(`Optimize ${CU}, without relaxing the cell, then compute the phonons`)).toEqual(expected);
    expect(graph(`Optimize ${CU} and do not relax the cell, then compute the phonons`)).toEqual(expected);
  });

  it('keeps "Do not relax the cell." as its own sentence on the optimisation (not a git step)', () => {
    expect(
      graph(`Optimize ${CU} with model ./dpa.pt. Do not relax the cell. Then compute the phonons`),
    ).toEqual({
      steps: [
        ['step_1', 'optimize_structure', { input_structure: CU, model_path: './dpa.pt', relax_cell: false }],
        [
          'step_2',
          'calculate_phonons',
          { input_structure: '{{step_1.optimized_structure}}', model_path: './dpa.pt' },
        ],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [],
    });
  });

  it('places the model named first by its words and reads "relax the cell" as true', () => {
    expect(
      graph(`With the model ${DPA}, optimize ${CU} and relax the cell, then compute the phonons`),
    ).toEqual({
      steps: [
        ['step_1', 'optimize_structure', { input_structure: CU, model_path: DPA, relax_cell: true }],
        [
          'step_2',
          'calculate_phonons',
          { input_structure: '{{step_1.optimized_structure}}', model_path: DPA },
        ],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [],
    });
  });

  it('reads the negation next to "relax the cell", not the "Relax" that starts the task', () => {
    expect(
      graph(
        'Relax ./Si.cif using the model ./dpa.pt without relaxing the cell, then calculate its elastic constants',
      ),
    ).toEqual({
      steps: [
        [
          'step_1',
          'optimize_structure',
          { input_structure: './Si.cif', model_path: './dpa.pt', relax_cell: false },
        ],
        [
          'step_2',
          'calculate_elastic_constants',
          { input_structure: '{{step_1.optimized_structure}}', model_path: './dpa.pt' },
        ],
      ],
      edges: ['step_1.optimized_structure → step_2.input_structure'],
      notes: [],
    });
  });

  it('feeds the band-structure step the relaxed structure, not the phonon band structure', () => {
    expect(
      graph(
        'Optimize ./Cu.cif with model ./dpa.pt, then calculate phonons, then calculate the band structure',
      ),
    ).toEqual({
      steps: [
        ['step_1', 'optimize_structure', { input_structure: './Cu.cif', model_path: './dpa.pt' }],
        [
          'step_2',
          'calculate_phonons',
          { input_structure: '{{step_1.optimized_structure}}', model_path: './dpa.pt' },
        ],
        ['step_3', 'calculate_band_structure', { input_structure: '{{step_1.optimized_structure}}' }],
      ],
      edges: [
        'step_1.optimized_structure → step_2.input_structure',
        'step_1.optimized_structure → step_3.input_structure',
      ],
      notes: [],
    });
  });

  it('reads an ensemble and a temperature for molecular dynamics', () => {
    expect(
      graph(
        'Run molecular dynamics of ./water.cif with model ./dpa.pt in the NVT ensemble at a temperature of 500 K',
      ),
    ).toEqual({
      steps: [
        [
          'step_1',
          'run_molecular_dynamics',
          { input_structure: './water.cif', model_path: './dpa.pt', ensemble: 'NVT', temperature: 500 },
        ],
      ],
      edges: [],
      notes: [],
    });
  });

  it('wires the rows read into the data written, and does not take the .xlsx name for a sheet name', () => {
    expect(
      graph("Read data from sheet 'Sales' in ./q1.xlsx, then write it to ./summary.xlsx in sheet 'Summary'"),
    ).toEqual({
      steps: [
        ['step_1', 'read_data_from_excel', { filepath: './q1.xlsx', sheet_name: 'Sales' }],
        [
          'step_2',
          'write_data_to_excel',
          { filepath: './summary.xlsx', sheet_name: 'Summary', data: '{{step_1.rows}}' },
        ],
      ],
      edges: ['step_1.rows → step_2.data'],
      notes: [],
    });
  });

  it('wires the range read into a pivot table, but not the rows of cells into its header names', () => {
    expect(graph("Read sheet 'Q1' of ./sales.xlsx and then create a pivot table")).toEqual({
      steps: [
        ['step_1', 'read_data_from_excel', { filepath: './sales.xlsx', sheet_name: 'Q1' }],
        [
          'step_2',
          'create_pivot_table',
          { filepath: './sales.xlsx', sheet_name: 'Q1', data_range: '{{step_1.range}}' },
        ],
      ],
      edges: ['step_1.range → step_2.data_range'],
      notes: [
        'step_2 (create_pivot_table): the task does not say the values of rows, values; they are left for you to fill in.',
      ],
    });
  });

  it('applies a formula, then charts a range in the same file and sheet', () => {
    expect(
      graph(
        "Apply the formula '=SUM(B2:B10)' to cell B11 of sheet 'Q1' in ./budget.xlsx, then create a bar chart of the range 'A1:B10' at cell D2",
      ),
    ).toEqual({
      steps: [
        [
          'step_1',
          'apply_formula',
          { filepath: './budget.xlsx', sheet_name: 'Q1', cell: 'B11', formula: '=SUM(B2:B10)' },
        ],
        [
          'step_2',
          'create_chart',
          {
            filepath: './budget.xlsx',
            sheet_name: 'Q1',
            data_range: 'A1:B10',
            chart_type: 'bar',
            target_cell: 'D2',
          },
        ],
      ],
      edges: [],
      notes: [],
    });
  });

  it('commits with the message from the text, not the output of git status', () => {
    expect(graph("Check the git status, then commit the changes with message 'Update docs'")).toEqual({
      steps: [
        ['step_1', 'git_status', {}],
        ['step_2', 'git_commit', { message: 'Update docs' }],
      ],
      edges: [],
      notes: [],
    });
  });

  it('shows the commit it made (the hash shares "commit" with the revision)', () => {
    expect(graph("Commit with message 'Release 1.0', then show the commit")).toEqual({
      steps: [
        ['step_1', 'git_commit', { message: 'Release 1.0' }],
        ['step_2', 'git_show', { revision: '{{step_1.commit}}' }],
      ],
      edges: ['step_1.commit → step_2.revision'],
      notes: [],
    });
  });

  it('stages two files into one list, then commits', () => {
    expect(graph("Stage 'src/app.ts' and 'README.md', then commit with message 'Docs'")).toEqual({
      steps: [
        ['step_1', 'git_add', { files: ['src/app.ts', 'README.md'] }],
        ['step_2', 'git_commit', { message: 'Docs' }],
      ],
      edges: [],
      notes: [],
    });
  });

  it('puts a quoted branch name in the branch parameter, not the repository path', () => {
    expect(graph("Create a branch 'dev' from 'main' then switch to it")).toEqual({
      steps: [
        ['step_1', 'git_create_branch', { branch_name: 'dev', base_branch: 'main' }],
        ['step_2', 'git_checkout', { branch_name: 'dev' }],
      ],
      edges: [],
      notes: [],
    });
  });
});

describe('the offline planner through the planning loop with the built-in toolkits', () => {
  it('streams the Chinese seed task as two valid steps and one edge', async () => {
    let done: Extract<PlanEvent, { type: 'done' }> | undefined;
    const task = `用模型 ${DPA} 对 ${CU} 进行结构优化并优化晶胞，然后计算声子谱`;
    for await (const event of runPlanner({ task, tools }, createOfflinePort()))
      if (event.type === 'done') done = event;
    expect(done?.stopReason).toBe('no_tool_calls');
    expect(done?.edges).toEqual([
      {
        id: 'step_1.optimized_structure->step_2.input_structure',
        source: 'step_1',
        sourceOutput: 'optimized_structure',
        target: 'step_2',
        targetInput: 'input_structure',
      },
    ]);
    expect(done?.steps.map((s) => [s.tool, s.issues])).toEqual([
      ['optimize_structure', []],
      ['calculate_phonons', []],
    ]);
  });
});

describe('learnTitleLexicon', () => {
  it('pairs Chinese words with the English words of the same built-in titles, and nothing from one title alone', () => {
    const lexicon = learnTitleLexicon(tools.map((t) => t.title ?? ''));
    expect(lexicon.get('结构')).toEqual(['structur']);
    expect(lexicon.get('计算')).toEqual(['calcul']);
    expect(lexicon.get('分支')).toEqual(['branch']);
    expect(lexicon.get('提交')).toEqual(['commit']);
    // 声子 occurs only in "Calculate phonons · 计算声子谱": it would pair with every word there.
    expect(lexicon.get('声子')).toBeUndefined();
  });
});
