import { getFixturePath } from '../../tests/fixtures/index';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashDeclaration } from '../tools/canonical-json';
import { analyseTool, fetchTool, parseSeedTools } from './__fixtures__/declarations';
import { exportWorkflow } from './export';
import { createDocumentFromPlan, getGridPosition, getReferences, parsePlan, parseReference } from './plan';
import type { Plan, WorkflowDocument } from './types';

const SEED = getFixturePath('seed-optimize-structure/');
const tools = [fetchTool, analyseTool];

function build(plan: Plan, opts?: Parameters<typeof createDocumentFromPlan>[2]): WorkflowDocument {
  const result = createDocumentFromPlan(plan, tools, opts);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}

describe('parseReference', () => {
  it('reads a whole-string reference', () => {
    expect(parseReference('{{step_2.result}}')).toEqual({ step: 'step_2', output: 'result' });
    expect(parseReference(' {{ s1.path }} ')).toEqual({ step: 's1', output: 'path' });
  });
  it('ignores a reference inside a longer string and non-strings', () => {
    expect(parseReference('file: {{step_2.result}}')).toBeUndefined();
    expect(parseReference(42)).toBeUndefined();
    expect(parseReference('{{step_2}}')).toBeUndefined();
  });
});

describe('getReferences', () => {
  it('finds references anywhere in a value, in reading order', () => {
    expect(getReferences({ a: ['x {{s1.path}} y', { b: '{{s2.result}}' }], c: 3 })).toEqual([
      { step: 's1', output: 'path' },
      { step: 's2', output: 'result' },
    ]);
  });
  it('gives nothing for values without references', () => {
    expect(getReferences(['{{', 'a.b', null, 1])).toEqual([]);
  });
});

describe('parsePlan', () => {
  it('reads a valid plan and defaults edges and args', () => {
    expect(parsePlan({ steps: [{ id: 's1', tool: 't' }] })).toEqual({
      ok: true,
      value: { steps: [{ id: 's1', tool: 't', args: {} }], edges: [] },
    });
  });
  it('reports every shape problem with its path', () => {
    const result = parsePlan({
      task: 3,
      steps: [{ id: '', tool: 't', args: [] }, 'x'],
      edges: [{ source: 's1' }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.map((i) => i.path)).toEqual([
      '/task',
      '/steps/0/id',
      '/steps/0/args',
      '/steps/1',
      '/edges/0/source_output',
      '/edges/0/target',
      '/edges/0/target_input',
    ]);
  });
  it('refuses a value that is not an object', () => {
    expect(parsePlan([])).toMatchObject({ ok: false, error: [{ path: '' }] });
  });
});

describe('createDocumentFromPlan', () => {
  describe('nodes', () => {
    it('uses step ids as node ids and snapshots each used tool with its hash', () => {
      const doc = build({ task: 'go', steps: [{ id: 'a', tool: 'fetch_file', args: { url: 'https://x' } }] });
      expect(doc.task).toBe('go');
      expect(doc.nodes).toEqual([
        {
          id: 'a',
          tool: 'fetch_file',
          position: { x: 0, y: 0 },
          args: { url: 'https://x' },
          toolHash: hashDeclaration(fetchTool),
        },
      ]);
      expect(Object.keys(doc.tools)).toEqual(['fetch_file']);
      expect(doc.tools.fetch_file).toEqual({ declaration: fetchTool, hash: hashDeclaration(fetchTool) });
    });
    it('places nodes on a grid', () => {
      const steps = Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, tool: 'analyse', args: {} }));
      const doc = build({ steps }, { columns: 4 });
      expect(doc.nodes.map((n) => n.position)).toEqual([0, 1, 2, 3, 4, 5].map((i) => getGridPosition(i, 4)));
      expect(doc.nodes[5].position).toEqual({ x: 320, y: 240 });
    });
    it('moves args the declaration lacks to unknownArgs, a system parameter it does not declare too', () => {
      const doc = build({
        steps: [
          { id: 'a', tool: 'analyse', args: { path: 'p', colour: 'red', executor: { kind: 'local' } } },
        ],
      });
      expect(doc.nodes[0].args).toEqual({ path: 'p' });
      expect(doc.nodes[0].unknownArgs).toEqual(['colour', 'executor']);
    });
    it('keeps every arg of a step whose tool is unknown', () => {
      const doc = build({ steps: [{ id: 'a', tool: 'nope', args: { x: 1 } }] });
      expect(doc.nodes[0]).toMatchObject({ tool: 'nope', args: { x: 1 } });
      expect(doc.nodes[0].toolHash).toBeUndefined();
      expect(doc.tools).toEqual({});
    });
    it('stores the system params it was given', () => {
      expect(build({ steps: [] }, { systemParams: ['executor'] }).systemParams).toEqual(['executor']);
      expect(build({ steps: [] }).systemParams).toBeUndefined();
    });
    it('refuses two steps with one id, with the path', () => {
      const result = createDocumentFromPlan(
        {
          steps: [
            { id: 'a', tool: 'analyse', args: {} },
            { id: 'a', tool: 'analyse', args: {} },
          ],
        },
        tools,
      );
      expect(result).toMatchObject({ ok: false, error: [{ path: '/steps/1/id', code: 'duplicate_id' }] });
    });
  });

  describe('references', () => {
    it('turns a whole-string reference into an edge and drops the arg', () => {
      const doc = build({
        steps: [
          { id: 'a', tool: 'fetch_file', args: { url: 'https://x' } },
          { id: 'b', tool: 'analyse', args: { path: '{{a.path}}' } },
        ],
      });
      expect(doc.edges).toEqual([
        { id: 'a.path->b.path', source: 'a', sourceOutput: 'path', target: 'b', targetInput: 'path' },
      ]);
      expect(doc.nodes[1].args).toEqual({});
      expect(doc.nodes[1].notes).toBeUndefined();
    });
    it('reports a reference to an unknown step as an error note and drops the value', () => {
      const doc = build({ steps: [{ id: 'b', tool: 'analyse', args: { path: '{{zz.path}}' } }] });
      expect(doc.edges).toEqual([]);
      // Kept as text it would show as a value the model set; dropped, the input shows missing.
      expect(doc.nodes[0].args).toEqual({});
      expect(doc.nodes[0].notes).toEqual([
        expect.objectContaining({
          severity: 'error',
          code: 'bad_reference',
          param: 'path',
          message: expect.stringContaining('"zz"'),
        }),
      ]);
      const exported = exportWorkflow(doc, { id: 'w', name: 'w' });
      expect(exported.nodes[0].input_parameters[0]).toMatchObject({
        name: 'path',
        value: '',
        origin: 'zero',
      });
      expect(exported.nodes[0].missing_tool_args).toContain('path');
    });
    it('reports a reference to an unknown output, naming the outputs there are', () => {
      const doc = build({
        steps: [
          { id: 'a', tool: 'fetch_file', args: {} },
          { id: 'b', tool: 'analyse', args: { path: '{{a.result}}' } },
        ],
      });
      expect(doc.edges).toEqual([]);
      expect(doc.nodes[1].notes?.[0].message).toContain('"path", "size"');
    });
    it('refuses a reference to the step itself', () => {
      const doc = build({ steps: [{ id: 'a', tool: 'analyse', args: { path: '{{a.result}}' } }] });
      expect(doc.edges).toEqual([]);
      expect(doc.nodes[0].notes?.[0]).toMatchObject({
        code: 'bad_reference',
        message: expect.stringContaining('cannot feed its own input'),
      });
    });
    it('refuses a reference to a later step: a plan is calls made in order', () => {
      const doc = build({
        steps: [
          { id: 'a', tool: 'analyse', args: { tags: '{{b.result}}' } },
          { id: 'b', tool: 'analyse', args: { tags: '{{a.result}}' } },
        ],
      });
      expect(doc.edges.map((e) => e.id)).toEqual(['a.result->b.tags']);
      expect(doc.nodes[0].notes?.[0]).toMatchObject({
        code: 'bad_reference',
        message: expect.stringContaining('There is no node "b"'),
      });
    });
    it('refuses a type mismatch, as connecting by hand does', () => {
      const doc = build({
        steps: [
          { id: 'a', tool: 'fetch_file', args: {} },
          { id: 'b', tool: 'analyse', args: { threshold: '{{a.path}}' } },
        ],
      });
      expect(doc.edges).toEqual([]);
      expect(doc.nodes[1].args).toEqual({});
      expect(doc.nodes[1].notes).toEqual([
        expect.objectContaining({
          severity: 'error',
          code: 'bad_reference',
          param: 'threshold',
          message: expect.stringContaining('is str but input "threshold" takes float'),
        }),
      ]);
    });
    it('accepts an int output into a float input', () => {
      const doc = build({
        steps: [
          { id: 'a', tool: 'fetch_file', args: {} },
          { id: 'b', tool: 'analyse', args: { threshold: '{{a.size}}' } },
        ],
      });
      expect(doc.nodes[1].notes).toBeUndefined();
    });
    it('warns about a reference embedded in a larger value', () => {
      const doc = build({ steps: [{ id: 'a', tool: 'analyse', args: { path: 'dir/{{x.path}}' } }] });
      expect(doc.nodes[0].args.path).toBe('dir/{{x.path}}');
      expect(doc.nodes[0].notes).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'embedded_reference' }),
      ]);
    });
  });

  describe('explicit edges', () => {
    const steps = [
      { id: 'a', tool: 'fetch_file', args: {} },
      { id: 'b', tool: 'analyse', args: { path: 'kept behind the edge' } },
    ];
    it('adds a valid edge and keeps the arg behind it', () => {
      const doc = build({
        steps,
        edges: [{ source: 'a', source_output: 'path', target: 'b', target_input: 'path' }],
      });
      expect(doc.edges).toHaveLength(1);
      expect(doc.nodes[1].args.path).toBe('kept behind the edge');
    });
    it('reports unknown steps and ports with their paths', () => {
      const result = createDocumentFromPlan(
        {
          steps,
          edges: [
            { source: 'x', source_output: 'path', target: 'y', target_input: 'path' },
            { source: 'a', source_output: 'nope', target: 'b', target_input: 'path' },
            { source: 'a', source_output: 'path', target: 'b', target_input: 'nope' },
          ],
        },
        tools,
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.map((i) => [i.path, i.code])).toEqual([
        ['/edges/0/source', 'unknown_step'],
        ['/edges/0/target', 'unknown_step'],
        ['/edges/1/source_output', 'unknown_port'],
        ['/edges/2/target_input', 'unknown_port'],
      ]);
    });
    it('refuses a second edge into one input', () => {
      const result = createDocumentFromPlan(
        {
          steps: [...steps, { id: 'c', tool: 'analyse', args: { path: '{{a.path}}' } }],
          edges: [{ source: 'b', source_output: 'result', target: 'c', target_input: 'path' }],
        },
        tools,
      );
      expect(result).toMatchObject({
        ok: false,
        error: [
          {
            path: '/edges/0/target_input',
            code: 'input_taken',
            message: expect.stringContaining('already fed'),
          },
        ],
      });
    });
    it('refuses an edge that closes a cycle, or whose types do not fit', () => {
      const result = createDocumentFromPlan(
        {
          steps: [
            { id: 'a', tool: 'analyse', args: {} },
            { id: 'b', tool: 'analyse', args: { tags: '{{a.result}}' } },
            { id: 'c', tool: 'fetch_file', args: {} },
          ],
          edges: [
            { source: 'b', source_output: 'result', target: 'a', target_input: 'tags' },
            { source: 'c', source_output: 'path', target: 'b', target_input: 'threshold' },
          ],
        },
        tools,
      );
      expect(!result.ok && result.error.map((i) => [i.path, i.code])).toEqual([
        ['/edges/0/target', 'cycle'],
        ['/edges/1/target_input', 'type_mismatch'],
      ]);
    });
  });

  describe('the seed plan', () => {
    it('builds one node with the three args the model sent', () => {
      const seedTools = parseSeedTools(readFileSync(SEED + 'tools.json', 'utf8'));
      const plan = JSON.parse(readFileSync(SEED + 'plan.json', 'utf8'));
      const result = createDocumentFromPlan(plan, seedTools);
      expect(result.ok && result.value.nodes.map((n) => [n.id, Object.keys(n.args)])).toEqual([
        ['step_1', ['input_structure', 'model_path', 'relax_cell']],
      ]);
    });
  });
});
