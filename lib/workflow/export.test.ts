import { getFixturePath } from '../../tests/fixtures/index';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseTool, fetchTool, parseSeedTools } from './__fixtures__/declarations';
import { exportWorkflow, getNodeParameters } from './export';
import { createDocumentFromPlan } from './plan';
import { asNodeId, type Plan, type WorkflowDocument } from './types';

const SEED = getFixturePath('seed-optimize-structure/');
const meta = { id: 'wf_1', name: 'Test' };

function build(plan: Plan, tools = [analyseTool, fetchTool]): WorkflowDocument {
  const result = createDocumentFromPlan(plan, tools);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}

const chain: Plan = {
  task: 'fetch then analyse',
  steps: [
    { id: 'a', tool: 'fetch_file', args: { url: 'https://x/y.cif', extra: 1 } },
    { id: 'b', tool: 'analyse', args: { path: '{{a.path}}', mode: 'exact' } },
  ],
};

describe('exportWorkflow', () => {
  describe('the seed golden case', () => {
    it('matches expected.json for every node, field by field', () => {
      const tools = parseSeedTools(readFileSync(SEED + 'tools.json', 'utf8'));
      const plan = JSON.parse(readFileSync(SEED + 'plan.json', 'utf8'));
      const expected = JSON.parse(readFileSync(SEED + 'expected.json', 'utf8'));
      const exported = exportWorkflow(build(plan, tools), meta);
      for (const [id, want] of Object.entries<Record<string, unknown>>(expected.nodes)) {
        const node = exported.nodes.find((n) => n.id === id);
        expect(node?.tool_name).toBe(want.tool_name);
        expect(
          node?.input_parameters.map(({ name, type, value, origin }) => ({ name, type, value, origin })),
        ).toEqual(want.input_parameters);
        expect(node?.missing_tool_args).toEqual(want.missing_tool_args);
        expect(node?.unknown_args).toEqual(want.unknown_args);
      }
    });
  });

  describe('the document', () => {
    const exported = exportWorkflow(build(chain), meta);
    it('writes the header and the default system parameters', () => {
      expect(exported).toMatchObject({
        format: 'toolflow.workflow',
        version: 1,
        id: 'wf_1',
        name: 'Test',
        task: 'fetch then analyse',
        system_parameters: ['executor', 'storage'],
      });
    });
    it('writes nodes in document order with a 1-based step_index', () => {
      expect(exported.nodes.map((n) => [n.id, n.step_index, n.tool_name])).toEqual([
        ['a', 1, 'fetch_file'],
        ['b', 2, 'analyse'],
      ]);
    });
    it('blanks the edge-fed input and lists moved args as unknown with a warning', () => {
      const [a, b] = exported.nodes;
      expect(b.input_parameters.find((p) => p.name === 'path')).toMatchObject({ value: '', origin: 'edge' });
      expect(a.unknown_args).toEqual(['extra']);
      expect(a.problems).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'unknown_arg', param: 'extra' }),
      ]);
    });
    it('writes tool source, hash and typed output ports', () => {
      const [a, b] = exported.nodes;
      expect(a.tool_source).toEqual({
        kind: 'mcp-http',
        toolkit: 'files',
        server: 'http://127.0.0.1:3001/mcp',
      });
      expect(b.tool_source).toBeNull();
      expect(a.tool_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(a.output_parameters).toEqual([
        { name: 'path', type: 'str' },
        { name: 'size', type: 'int' },
      ]);
    });
    it('writes edges by id in snake_case', () => {
      expect(exported.edges).toEqual([
        { id: 'a.path->b.path', source: 'a', source_output: 'path', target: 'b', target_input: 'path' },
      ]);
    });
    it('writes the tools sorted by name with their snapshots', () => {
      expect(exported.tools.map((t) => t.name)).toEqual(['analyse', 'fetch_file']);
      expect(exported.tools[0]).toMatchObject({
        title: 'Analyse a structure',
        input_schema: analyseTool.inputSchema,
        annotations: { readOnlyHint: true },
      });
      expect(Object.keys(exported.tools[1])).toEqual([
        'name',
        'hash',
        'description',
        'input_schema',
        'output_schema',
        'source',
      ]);
    });
  });

  describe('determinism', () => {
    it('gives the same bytes for documents whose maps were built in a different order', () => {
      const doc = build(chain);
      const reordered: WorkflowDocument = {
        ...doc,
        tools: Object.fromEntries(Object.entries(doc.tools).reverse()),
      };
      expect(JSON.stringify(exportWorkflow(reordered, meta))).toBe(JSON.stringify(exportWorkflow(doc, meta)));
    });
    it('writes node keys in one fixed order', () => {
      const doc = build(chain);
      doc.nodes[0].label = 'Fetch';
      expect(Object.keys(exportWorkflow(doc, meta).nodes[0])).toEqual([
        'id',
        'step_index',
        'tool_name',
        'tool_source',
        'label',
        'position',
        'input_parameters',
        'missing_tool_args',
        'unknown_args',
        'output_parameters',
        'tool_hash',
        'problems',
      ]);
    });
  });

  describe('a node whose tool is unknown', () => {
    it('is written as a placeholder with its args and the unknown-tool error', () => {
      const doc = build({ steps: [{ id: 'a', tool: 'ghost', args: { q: 'x' } }] });
      const [node] = exportWorkflow(doc, meta).nodes;
      expect(node).toMatchObject({
        placeholder: true,
        tool_hash: null,
        input_parameters: [{ name: 'q', value: 'x', origin: 'arg' }],
      });
      expect(node.problems).toEqual([expect.objectContaining({ code: 'unknown_tool' })]);
    });
  });
});

describe('a tool named like an Object.prototype member', () => {
  const named = (name: string) => ({ ...fetchTool, name });
  it('exports an undeclared "constructor" tool as a placeholder instead of throwing', () => {
    const doc = build({ steps: [{ id: 's1', tool: 'constructor', args: {} }] }, []);
    const [node] = exportWorkflow(doc, meta).nodes;
    expect(node).toMatchObject({ tool_name: 'constructor', tool_source: null, placeholder: true });
    expect(node.problems.map((p) => p.code)).toEqual(['unknown_tool']);
  });
  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])(
    'exports a declared tool "%s" with its snapshot',
    (name) => {
      const doc = build({ steps: [{ id: 's1', tool: name, args: { url: 'u' } }] }, [named(name)]);
      expect(Object.keys(doc.tools)).toEqual([name]);
      const exported = exportWorkflow(doc, meta);
      expect(exported.tools.map((t) => t.name)).toEqual([name]);
      expect(exported.nodes[0].placeholder).toBeUndefined();
      expect(exported.nodes[0].input_parameters[0]).toMatchObject({ name: 'url', value: 'u' });
    },
  );
});

describe('getNodeParameters', () => {
  it('puts node notes before the builder problems', () => {
    const doc = build({
      steps: [{ id: 'a', tool: 'analyse', args: { path: 'dir/{{z.path}}', mode: 'slow' } }],
    });
    const params = getNodeParameters(doc, doc.nodes[0]);
    expect(params.problems.map((p) => p.code)).toEqual(['embedded_reference', 'invalid_value']);
  });
  it('returns the imported parameters of a placeholder verbatim', () => {
    const doc: WorkflowDocument = {
      task: '',
      edges: [],
      tools: {},
      nodes: [
        {
          id: asNodeId('p'),
          tool: 'gone',
          position: { x: 0, y: 0 },
          args: {},
          placeholderParams: [{ name: 'k', type: 'int', value: 4, origin: 'default', required: false }],
          placeholderOutputs: [{ name: 'out', type: 'str' }],
          placeholderMissingArgs: ['k'],
        },
      ],
    };
    expect(getNodeParameters(doc, doc.nodes[0])).toMatchObject({
      placeholder: true,
      input_parameters: [{ name: 'k', value: 4, origin: 'default' }],
      output_parameters: [{ name: 'out', type: 'str' }],
      missing_tool_args: ['k'],
    });
  });
});
