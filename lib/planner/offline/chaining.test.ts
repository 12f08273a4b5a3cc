/**
 * Chaining without a model: "then … it", and an action after 然后/再/并/then that leaves its one
 * open input empty, take the previous step's result there; when two inputs could take it, neither
 * is wired and a note says so. The tools here declare no outputSchema (one untyped `result`), as
 * most MCP servers do, so the words of the task decide, not the output's name.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLKITS } from '../../toolkits/builtin';
import type { ToolDeclaration } from '../../tools/types';
import { planOffline } from './plan';

const untyped = (key: string): ToolDeclaration[] =>
  BUILTIN_TOOLKITS.find((kit) => kit.key === key)!.tools.map(({ outputSchema: _o, ...rest }) => rest);

function plan(task: string, tools: ToolDeclaration[]) {
  const result = planOffline({ task, tools });
  return { steps: result.calls.map((c) => [c.tool, c.args]), notes: result.notes };
}

describe('chaining a step to the one before', () => {
  const materials = untyped('materials');
  const files = untyped('files');

  it('chains 然后 + an action with no object of its own like "then … its"', () => {
    const english = plan('Optimize ./Cu.cif with the model ./dpa.pt, then calculate its phonons', materials);
    const chinese = plan('用模型 ./dpa.pt 对 ./Cu.cif 进行几何优化，然后计算声子谱', materials);
    expect(chinese.steps).toEqual([
      ['optimize_structure', { input_structure: './Cu.cif', model_path: './dpa.pt' }],
      ['calculate_phonons', { input_structure: '{{step_1.result}}', model_path: './dpa.pt' }],
    ]);
    expect(chinese.steps).toEqual(english.steps);
  });

  it("wires a read file's text into the written file's content, not its path", () => {
    for (const task of [
      'Read /tmp/a.txt, then write it to /tmp/b.txt',
      '读取 /tmp/a.txt，然后写到 /tmp/b.txt',
    ])
      expect(plan(task, files).steps).toEqual([
        ['read_text_file', { path: '/tmp/a.txt' }],
        ['write_file', { path: '/tmp/b.txt', content: '{{step_1.result}}' }],
      ]);
  });

  it('wires nothing when two inputs could take the result, and says so', () => {
    const { steps, notes } = plan('Read /tmp/a.txt, then write it', files);
    expect(JSON.stringify(steps[1])).not.toContain('{{');
    expect(notes).toContain(
      'step_2 (write_file): the result of step_1 could feed path or content; none is wired, connect the one it is for.',
    );
  });
});
