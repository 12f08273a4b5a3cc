import { getFixturePath } from '../../tests/fixtures/index';
import { planOffline } from '../planner';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildNodeParameters } from '../workflow/params';
import { compileSchema } from '../tools/schema-validator';
import { BUILTIN_TOOLKITS, getToolkitHash } from './builtin';

const seedTools = JSON.parse(readFileSync(getFixturePath('seed-optimize-structure/tools.json'), 'utf8')) as {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}[];

const allTools = BUILTIN_TOOLKITS.flatMap((toolkit) => toolkit.tools);
const toolkit = (key: string) => BUILTIN_TOOLKITS.find((t) => t.key === key)!;
const names = (key: string) => toolkit(key).tools.map((t) => t.name);

describe('BUILTIN_TOOLKITS', () => {
  it('carries the golden fixture’s optimize_structure exactly, system parameters included', () => {
    const tool = toolkit('materials').tools.find((t) => t.name === 'optimize_structure')!;
    expect(tool.description).toBe(seedTools[0].description);
    expect(tool.inputSchema).toEqual(seedTools[0].parameters);
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(
      Object.keys(seedTools[0].parameters.properties as object),
    );
  });

  it('offers the tools the seeds name', () => {
    expect(names('materials')).toEqual(
      expect.arrayContaining([
        'optimize_structure',
        'calculate_phonons',
        'calculate_band_structure',
        'run_molecular_dynamics',
        'calculate_elastic_constants',
      ]),
    );
    expect(names('spreadsheet')).toEqual(
      expect.arrayContaining([
        'read_data_from_excel',
        'write_data_to_excel',
        'create_workbook',
        'create_chart',
      ]),
    );
    expect(names('git')).toEqual(expect.arrayContaining(['git_status', 'git_diff', 'git_commit', 'git_log']));
  });

  it('declares read_data_from_excel with the Excel MCP server’s parameters', () => {
    const tool = toolkit('spreadsheet').tools.find((t) => t.name === 'read_data_from_excel')!;
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual([
      'filepath',
      'sheet_name',
      'start_cell',
      'end_cell',
      'preview_only',
    ]);
    expect(tool.inputSchema.required).toEqual(['filepath', 'sheet_name']);
  });

  it('gives every tool a unique name across the sample toolkits', () => {
    const seen = allTools.map((t) => t.name);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('marks every tool with its toolkit as source, and the runnable samples with their server', () => {
    for (const kit of BUILTIN_TOOLKITS)
      for (const tool of kit.tools)
        expect(tool.source).toEqual(
          kit.server
            ? { kind: 'mcp-stdio', server: kit.server, toolkit: kit.name }
            : { kind: 'builtin', toolkit: kit.name },
        );
    expect(BUILTIN_TOOLKITS.filter((kit) => kit.server).map((kit) => kit.server)).toEqual([
      'memory',
      'filesystem',
    ]);
  });

  it.each(allTools.map((t) => [t.name, t] as const))(
    '%s has schemas that compile and defaults that satisfy them',
    (_name, tool) => {
      expect(compileSchema(tool.inputSchema).ok).toBe(true);
      if (tool.outputSchema) expect(compileSchema(tool.outputSchema).ok).toBe(true);
      // A node with no args: only required parameters may be reported, never a default that breaks its schema.
      const node = buildNodeParameters(tool, {}, { connectedInputs: new Set() });
      expect(node.problems.filter((p) => p.code !== 'missing_required')).toEqual([]);
      expect(tool.description.length).toBeGreaterThan(10);
    },
  );
});

describe('getToolkitHash', () => {
  it('is the same for equal declarations whatever their source or key order', () => {
    const tools = toolkit('git').tools;
    const reordered = tools.map((t) => ({
      inputSchema: t.inputSchema,
      name: t.name,
      title: t.title,
      description: t.description,
      outputSchema: t.outputSchema,
      source: { kind: 'file' as const },
    }));
    expect(getToolkitHash(reordered)).toBe(getToolkitHash(tools));
  });

  it('changes when a schema changes', () => {
    const tools = toolkit('git').tools;
    const changed = tools.map((t, i) =>
      i === 0 ? { ...t, inputSchema: { ...t.inputSchema, required: ['repo_path'] } } : t,
    );
    expect(getToolkitHash(changed)).not.toBe(getToolkitHash(tools));
  });
});

describe('built-in toolkits and the offline planner', () => {
  const all = BUILTIN_TOOLKITS.flatMap((kit) => kit.tools);

  it('gives every built-in declaration a title with its Chinese name (the samples keep their server’s)', () => {
    const declared = BUILTIN_TOOLKITS.filter((kit) => !kit.server).flatMap((kit) => kit.tools);
    for (const tool of declared) expect(tool.title, tool.name).toMatch(/ · \p{Script=Han}/u);
  });

  it('plans the worked example written in Chinese: optimise, then phonons fed by the relaxed structure', () => {
    const plan = planOffline({ task: '对这个结构进行几何优化，然后计算声子谱', tools: all });
    expect(plan.calls.map((c) => c.tool)).toEqual(['optimize_structure', 'calculate_phonons']);
    expect(plan.calls[1].args.input_structure).toBe('{{step_1.optimized_structure}}');
  });

  it('plans Chinese spreadsheet and band-structure tasks against the English declarations', () => {
    expect(planOffline({ task: '读取表格数据，然后创建图表', tools: all }).calls.map((c) => c.tool)).toEqual([
      'read_data_from_excel',
      'create_chart',
    ]);
    expect(planOffline({ task: '计算能带结构', tools: all }).calls.map((c) => c.tool)).toEqual([
      'calculate_band_structure',
    ]);
  });
});
