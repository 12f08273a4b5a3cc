import { describe, expect, it } from 'vitest';
import { asEdgeId, asNodeId, type WorkflowDocument } from '../../lib/workflow/types';
import { alignSteps, scoreTask } from './score';
import { getToolset, loadQualitySet, TOOLSET_NAMES, type QualityTask } from './set';

const task: QualityTask = {
  id: 't',
  file: 'tasks/t.json',
  lang: 'en',
  toolset: 'builtin',
  task: 'Optimise ./Cu.cif with ./dpa.pt, then compute its phonons',
  steps: [
    {
      tool: 'optimize_structure',
      args: { input_structure: './Cu.cif', model_path: './dpa.pt' },
      unset: ['relax_cell'],
    },
    {
      tool: 'calculate_phonons',
      args: { input_structure: '{{step_1.optimized_structure}}', model_path: './dpa.pt' },
      unset: [],
    },
  ],
};

function doc(
  nodes: [string, string, Record<string, unknown>][],
  edges: [string, string, string, string][],
): WorkflowDocument {
  return {
    task: task.task,
    nodes: nodes.map(([id, tool, args]) => ({ id: asNodeId(id), tool, args, position: { x: 0, y: 0 } })),
    edges: edges.map(([source, sourceOutput, target, targetInput], i) => ({
      id: asEdgeId(`e${i}`),
      source: asNodeId(source),
      sourceOutput,
      target: asNodeId(target),
      targetInput,
    })),
    tools: {},
  };
}

describe('scoreTask', () => {
  it('finds every node, edge and value of a graph built as expected', () => {
    const score = scoreTask(
      task,
      doc(
        [
          ['step_1', 'optimize_structure', { input_structure: './Cu.cif', model_path: './dpa.pt' }],
          ['step_2', 'calculate_phonons', { model_path: './dpa.pt' }],
        ],
        [['step_1', 'optimized_structure', 'step_2', 'input_structure']],
      ),
    );
    expect(score).toMatchObject({
      nodes: { expected: 2, found: 2, extra: 0 },
      edges: { expected: 1, found: 1, extra: 0 },
      values: { expected: 3, right: 3, wrong: 0 },
      unset: { expected: 1, kept: 1 },
      wrongValues: 0,
      problems: [],
    });
  });

  it('counts a different value and a value the text does not give as wrong, a missing one as missing', () => {
    const score = scoreTask(
      task,
      doc(
        [
          ['step_1', 'optimize_structure', { input_structure: './Si.cif', relax_cell: true }],
          ['step_2', 'calculate_phonons', { input_structure: './Cu.cif', model_path: './dpa.pt' }],
        ],
        [],
      ),
    );
    expect(score.values).toEqual({ expected: 3, right: 1, wrong: 1 });
    expect(score.unexpected).toBe(2);
    expect(score.wrongValues).toBe(3);
    expect(score.unset).toEqual({ expected: 1, kept: 0 });
    expect(score.edges).toEqual({ expected: 1, found: 0, extra: 0 });
    expect(score.problems).toEqual([
      'missing edge step_1.optimized_structure → step_2.input_structure',
      'WRONG value step_1 optimize_structure.input_structure = "./Si.cif" (expected "./Cu.cif")',
      'missing value step_1 optimize_structure.model_path = "./dpa.pt"',
      'WRONG value step_1 optimize_structure.relax_cell = true (the text gives none)',
      'WRONG value step_2 calculate_phonons.input_structure = "./Cu.cif" (expected the edge {{step_1.optimized_structure}})',
    ]);
  });

  it('aligns around an extra step, and counts an edge into an unset parameter as extra', () => {
    const score = scoreTask(
      task,
      doc(
        [
          ['step_1', 'git_status', {}],
          ['step_2', 'optimize_structure', { input_structure: './Cu.cif', model_path: './dpa.pt' }],
          ['step_3', 'calculate_phonons', { model_path: './dpa.pt' }],
        ],
        [
          ['step_2', 'optimized_structure', 'step_3', 'input_structure'],
          ['step_2', 'converged', 'step_2', 'relax_cell'],
        ],
      ),
    );
    expect(score.nodes).toEqual({ expected: 2, found: 2, extra: 1 });
    expect(score.edges).toEqual({ expected: 1, found: 1, extra: 1 });
    expect(score.unset).toEqual({ expected: 1, kept: 0 });
    expect(score.values.right).toBe(3);
  });
});

describe('alignSteps', () => {
  it('matches the longest common subsequence of tool names, one match per pair at most', () => {
    expect(alignSteps(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([0, -1, 2]);
    expect(alignSteps(['a', 'a'], ['a'])).toEqual([0, -1]);
    expect(alignSteps(['a', 'b'], ['b', 'a'])).toEqual([-1, 0]);
    expect(alignSteps([], ['a'])).toEqual([]);
  });
});

describe('the quality set', () => {
  const tasks = loadQualitySet();

  it('has at least 60 tasks in English and Chinese over every toolset', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(60);
    expect(tasks.filter((t) => t.lang === 'zh').length).toBeGreaterThanOrEqual(20);
    const others = [...loadQualitySet('held-out'), ...loadQualitySet('rounds')];
    expect(new Set([...tasks, ...others].map((t) => t.toolset))).toEqual(new Set(TOOLSET_NAMES));
  });

  it('covers every built-in toolkit and every captured server with expected steps', () => {
    const used = new Set(tasks.flatMap((t) => t.steps.map((s) => s.tool)));
    for (const toolset of ['builtin', 'filesystem', 'memory', 'everything'] as const) {
      const names = getToolset(toolset).map((t) => t.name);
      expect(names.filter((n) => used.has(n)).length, toolset).toBeGreaterThanOrEqual(5);
    }
  });

  it('expects edges, values and parameters that must stay unset', () => {
    const steps = tasks.flatMap((t) => t.steps);
    expect(
      steps.filter((s) => Object.values(s.args).some((v) => /^\{\{/.test(String(v)))).length,
    ).toBeGreaterThanOrEqual(15);
    expect(steps.reduce((n, s) => n + s.unset.length, 0)).toBeGreaterThanOrEqual(30);
  });
});
