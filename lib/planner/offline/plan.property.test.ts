/**
 * Properties of the offline planner on generated tools and tasks: whatever the declarations (the
 * fuzzers' wild schemas included) and whatever the text (tool words, values of every kind,
 * Chinese, stray punctuation), it finishes, is deterministic, calls only declared tools with
 * declared parameters, and wires only to outputs of earlier steps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declarationList } from '../../../tests/fuzz/schemas';
import { BUILTIN_TOOLKITS } from '../../toolkits/builtin';
import { parseReference } from '../../workflow/plan';
import { getOutputParameters, getParamPlan } from '../../workflow/params';
import type { ToolDeclaration } from '../../tools/types';
import { planOffline } from './plan';

const PIECES = [
  'then',
  'and',
  '然后',
  '，',
  '. ',
  ', ',
  'its',
  'it',
  '其结果',
  'the result',
  'read',
  'write',
  'create',
  'list',
  'search',
  'commit',
  'optimize',
  '计算',
  '新建',
  '删除',
  'sheet',
  'cell',
  'called Summary',
  '叫 Data',
  'A1:B3',
  'B2 to D9',
  'C10',
  '=SUM(A1:A9)',
  'Si',
  'NaCl',
  '石墨烯',
  '铜超胞',
  '2×2×2',
  '[1, 2]',
  '300 K',
  '2 GPa',
  '0.5 fs',
  '10 ps',
  '42',
  '-3.5e2',
  '2024-01-01',
  './a.cif',
  '/tmp/x y',
  'https://example.org/f.json',
  "'quoted value'",
  '“中文”',
  'origin/main',
  '9f8e7d6',
  'GXWKGL',
  'c/a 2.7',
  'not',
  '不',
  'without',
  '?',
  '',
];

const task = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 14 })
  .map((parts) => parts.join(' '));

function check(text: string, tools: ToolDeclaration[]): void {
  const plan = planOffline({ task: text, tools });
  expect(planOffline({ task: text, tools })).toEqual(plan);
  const byName = new Map(tools.map((t) => [t.name, t]));
  plan.calls.forEach((call, i) => {
    expect(call.id).toBe(`step_${i + 1}`);
    const decl = byName.get(call.tool);
    expect(decl, call.tool).toBeDefined();
    const params = new Set(getParamPlan(decl!).map((p) => p.name));
    for (const [name, value] of Object.entries(call.args)) {
      expect(params.has(name), `${call.tool}.${name}`).toBe(true);
      const ref = parseReference(value);
      if (!ref) continue;
      const source = plan.calls.findIndex((c) => c.id === ref.step);
      expect(source, `${call.id}.${name} ← ${ref.step}`).toBeGreaterThanOrEqual(0);
      expect(source).toBeLessThan(i);
      const outputs = getOutputParameters(byName.get(plan.calls[source].tool)!).map((o) => o.name);
      expect(outputs).toContain(ref.output);
    }
  });
  for (const note of plan.notes) expect(typeof note).toBe('string');
}

describe('planOffline on generated input', () => {
  it('plans any task over the built-in toolkits soundly and deterministically', () => {
    const tools = BUILTIN_TOOLKITS.flatMap((k) => k.tools);
    fc.assert(
      fc.property(task, (text) => check(text, tools)),
      { numRuns: 80 },
    );
  });

  it('plans any task over generated declarations, wild schemas included', () => {
    fc.assert(
      fc.property(task, declarationList(6), (text, tools) => check(text, tools)),
      { numRuns: 400 },
    );
  });
});
