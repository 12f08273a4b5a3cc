import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../tools/types';
import { analyseTool, fetchTool } from './__fixtures__/declarations';
import { exportWorkflow } from './export';
import { importWorkflow, migrateExport, validateExport } from './import';
import { createDocumentFromPlan } from './plan';
import type { Plan, WorkflowExportV1 } from './types';

const meta = { id: 'wf_1', name: 'Round trip' };

function exportPlan(
  plan: Plan,
  tools: ToolDeclaration[] = [fetchTool, analyseTool],
  systemParams?: string[],
): WorkflowExportV1 {
  const built = createDocumentFromPlan(plan, tools, { systemParams });
  if (!built.ok) throw new Error(JSON.stringify(built.error));
  return exportWorkflow(built.value, meta);
}

const chain: Plan = {
  task: 'fetch then analyse',
  steps: [
    { id: 'a', tool: 'fetch_file', args: { url: 'https://x/y.cif', extra: 1 } },
    { id: 'b', tool: 'analyse', args: { path: '{{a.path}}', mode: 'slow', tags: 'dir/{{q.r}}' } },
    { id: 'c', tool: 'ghost', args: { q: { deep: [1, null] }, from: '{{b.result}}' } },
  ],
};

/** A fresh, mutable copy of an export, as a file would be. */
const copy = (value: unknown) => JSON.parse(JSON.stringify(value));

function roundTrip(exported: WorkflowExportV1): string {
  const first = JSON.stringify(exported);
  const imported = importWorkflow(JSON.parse(first));
  if (!imported.ok) throw new Error(JSON.stringify(imported.error, null, 2));
  return JSON.stringify(exportWorkflow(imported.value.document, imported.value.meta));
}

describe('importWorkflow', () => {
  describe('a valid export', () => {
    it('gives back the meta and a document that exports to the same bytes', () => {
      const exported = exportPlan(chain);
      const imported = importWorkflow(copy(exported));
      expect(imported.ok && imported.value.meta).toEqual(meta);
      expect(roundTrip(exported)).toBe(JSON.stringify(exported));
    });
    it('recovers args from arg-origin parameters only', () => {
      const imported = importWorkflow(copy(exportPlan(chain)));
      if (!imported.ok) throw new Error('import failed');
      const [a, b] = imported.value.document.nodes;
      expect(a.args).toEqual({ url: 'https://x/y.cif' });
      expect(a.unknownArgs).toEqual(['extra']);
      expect(b.args).toEqual({ mode: 'slow', tags: 'dir/{{q.r}}' });
      expect(b.notes?.map((n) => n.code)).toEqual(['embedded_reference']);
    });
    it('keeps custom system parameters', () => {
      const exported = exportPlan(chain, undefined, ['executor']);
      expect(exported.system_parameters).toEqual(['executor']);
      expect(roundTrip(exported)).toBe(JSON.stringify(exported));
    });
  });

  describe('a node whose tool is missing', () => {
    it('becomes a placeholder that keeps its parameters and edges', () => {
      const exported = exportPlan(chain);
      const imported = importWorkflow(copy(exported));
      if (!imported.ok) throw new Error('import failed');
      const ghost = imported.value.document.nodes[2];
      expect(ghost.placeholderParams).toEqual(exported.nodes[2].input_parameters);
      expect(ghost.placeholderOutputs).toEqual([{ name: 'result', type: 'any' }]);
      expect(imported.value.document.edges.map((e) => e.id)).toContain('b.result->c.from');
    });
    it('turns a node into a placeholder when its tool is removed from tools', () => {
      const file = copy(exportPlan(chain));
      file.tools = file.tools.filter((t: { name: string }) => t.name !== 'analyse');
      const imported = importWorkflow(file);
      if (!imported.ok) throw new Error(JSON.stringify(imported.error));
      const b = imported.value.document.nodes[1];
      expect(b.placeholderParams?.map((p) => p.name)).toEqual(['path', 'threshold', 'mode', 'tags']);
      expect(b.notes?.map((n) => [n.code, n.param])).toEqual([
        ['embedded_reference', 'tags'],
        ['invalid_value', 'mode'],
        ['invalid_value', 'tags'],
      ]);
      const again = exportWorkflow(imported.value.document, imported.value.meta);
      expect(again.nodes[1]).toEqual({ ...file.nodes[1], placeholder: true });
    });
  });

  describe('a tool named like an Object.prototype member', () => {
    it('imports a node of an undeclared "constructor" tool as a placeholder that exports again', () => {
      const exported = exportPlan({ steps: [{ id: 's1', tool: 'constructor', args: { q: 1 } }] }, []);
      const imported = importWorkflow(copy(exported));
      if (!imported.ok) throw new Error(JSON.stringify(imported.error));
      expect(Object.keys(imported.value.document.tools)).toEqual([]);
      expect(imported.value.document.nodes[0].placeholderParams).toEqual(exported.nodes[0].input_parameters);
      expect(roundTrip(exported)).toBe(JSON.stringify(exported));
    });
    it.each(['__proto__', 'toString'])('keeps the snapshot of a declared tool "%s"', (name) => {
      const exported = exportPlan({ steps: [{ id: 's1', tool: name, args: { url: 'u' } }] }, [
        { ...fetchTool, name },
      ]);
      const imported = importWorkflow(copy(exported));
      if (!imported.ok) throw new Error(JSON.stringify(imported.error));
      expect(Object.keys(imported.value.document.tools)).toEqual([name]);
      expect(imported.value.document.nodes[0].placeholderParams).toBeUndefined();
      expect(roundTrip(exported)).toBe(JSON.stringify(exported));
    });
  });

  describe('a parameter named ""', () => {
    const emptyName: ToolDeclaration = {
      name: 't',
      description: '',
      inputSchema: { type: 'object', properties: { '': { type: 'string' } } },
      outputSchema: { type: 'object', properties: { '': { type: 'string' }, out: { type: 'string' } } },
    };
    it('exports a file its own import accepts, and round-trips', () => {
      const exported = exportPlan({ steps: [{ id: 's1', tool: 't', args: { '': 'x' } }] }, [emptyName]);
      expect(exported.nodes[0].input_parameters).toEqual([]);
      expect(exported.nodes[0].output_parameters).toEqual([{ name: 'out', type: 'str' }]);
      expect(exported.nodes[0].unknown_args).toEqual(['']);
      expect(validateExport(copy(exported))).toEqual([]);
      expect(roundTrip(exported)).toBe(JSON.stringify(exported));
    });
    it('exports an arg named "" of an undeclared tool as an unknown arg, not as a parameter', () => {
      const exported = exportPlan({
        steps: [
          { id: 's1', tool: 'ghost', args: { '': 'x', q: 1 } },
          { id: 's2', tool: 'ghost', args: { '': '{{s1.result}}' } },
        ],
      });
      expect(exported.nodes[0].input_parameters.map((p) => p.name)).toEqual(['q']);
      expect(exported.nodes[0].unknown_args).toEqual(['']);
      expect(exported.edges).toEqual([]);
      expect(validateExport(copy(exported))).toEqual([]);
      expect(roundTrip(exported)).toBe(JSON.stringify(exported));
    });
  });

  describe('schema problems', () => {
    it('reports every problem with its JSON path', () => {
      const file = copy(exportPlan(chain));
      delete file.nodes[0].tool_name;
      file.nodes[1].input_parameters[0].origin = 'guess';
      file.nodes[1].colour = 'red';
      file.edges[0].source = 5;
      const result = importWorkflow(file);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.map((i) => i.path).sort()).toEqual(
        [
          '/nodes/0/tool_name',
          '/nodes/1/colour',
          '/nodes/1/input_parameters/0/origin',
          '/edges/0/source',
        ].sort(),
      );
      const byPath = Object.fromEntries(result.error.map((i) => [i.path, i.message]));
      expect(byPath['/nodes/0/tool_name']).toMatch(/missing: add it/);
      expect(byPath['/nodes/1/colour']).toMatch(/remove it/);
      expect(byPath['/nodes/1/input_parameters/0/origin']).toMatch(/"edge", "arg", "default", "zero"/);
    });
    it('refuses a file that is not a workflow export', () => {
      expect(validateExport([])).toEqual([expect.objectContaining({ path: '' })]);
      expect(validateExport({ format: 'other' })).toEqual([expect.objectContaining({ path: '/format' })]);
    });
    it('refuses a newer version and asks for an upgrade', () => {
      const file = { ...copy(exportPlan(chain)), version: 2 };
      expect(validateExport(file)).toEqual([
        expect.objectContaining({ path: '/version', message: expect.stringMatching(/Upgrade/) }),
      ]);
    });
    it('refuses a missing version', () => {
      const { version: _v, ...file } = copy(exportPlan(chain));
      expect(validateExport(file)).toEqual([expect.objectContaining({ path: '/version' })]);
    });
  });

  describe('referential integrity', () => {
    it('reports duplicate ids, unknown endpoints and ports', () => {
      const file = copy(exportPlan(chain));
      file.nodes[1].id = 'a';
      file.edges.push({
        id: file.edges[0].id,
        source: 'zz',
        source_output: 'path',
        target: 'a',
        target_input: 'nope',
      });
      const paths = validateExport(file).map((i) => `${i.path} ${i.code}`);
      expect(paths).toEqual(
        expect.arrayContaining([
          '/nodes/1/id duplicate_id',
          '/edges/2/id duplicate_id',
          '/edges/2/source unknown_node',
        ]),
      );
    });
    it('reports an edge into a missing port and a second edge into one input', () => {
      const file = copy(exportPlan(chain));
      file.edges.push({ id: 'x', source: 'a', source_output: 'nope', target: 'b', target_input: 'path' });
      expect(validateExport(file).map((i) => `${i.path} ${i.code}`)).toEqual([
        '/edges/2/source_output unknown_port',
        '/edges/2/target_input duplicate_input',
      ]);
    });
    it('reports an edge whose types the typed-wiring rule refuses, by the declared types', () => {
      // a.size is an int; b.path takes a str. A file that says otherwise changes nothing: a
      // document built from it would have the declared types.
      const plan: Plan = {
        steps: [
          { id: 'a', tool: 'fetch_file', args: { url: 'https://x/y.cif' } },
          { id: 'b', tool: 'analyse', args: { path: '{{a.path}}' } },
        ],
      };
      const file = copy(exportPlan(plan));
      file.edges[0] = { id: 'e', source: 'a', source_output: 'size', target: 'b', target_input: 'path' };
      file.nodes[0].output_parameters[1].type = 'str';
      const issues = validateExport(file);
      expect(issues.map((i) => `${i.path} ${i.code}`)).toEqual(['/edges/0 type_mismatch']);
      expect(issues[0].message).toContain('Output "size" is int but input "path" takes str');
      // An int into a float is accepted: every int is a float.
      file.edges[0] = { id: 'e', source: 'a', source_output: 'size', target: 'b', target_input: 'threshold' };
      file.nodes[1].input_parameters[0] = { ...file.nodes[1].input_parameters[0], origin: 'zero', value: '' };
      file.nodes[1].input_parameters[1] = { ...file.nodes[1].input_parameters[1], origin: 'edge', value: '' };
      expect(validateExport(file)).toEqual([]);
    });
    it('reports self loops and cycles', () => {
      const file = copy(exportPlan(chain));
      file.nodes[0].input_parameters[1].origin = 'edge';
      file.nodes[0].input_parameters[1].value = '';
      file.edges.push({
        id: 'loop',
        source: 'b',
        source_output: 'result',
        target: 'a',
        target_input: 'retries',
      });
      expect(validateExport(file).map((i) => `${i.path} ${i.code}`)).toEqual(['/edges/2 cycle']);
      file.edges[2] = {
        id: 'self',
        source: 'a',
        source_output: 'path',
        target: 'a',
        target_input: 'retries',
      };
      expect(validateExport(file).map((i) => `${i.path} ${i.code}`)).toEqual(['/edges/2 self_loop']);
    });
    it('reports an origin that disagrees with the edges', () => {
      const file = copy(exportPlan(chain));
      file.edges = file.edges.slice(1);
      expect(validateExport(file).map((i) => `${i.path} ${i.code}`)).toEqual([
        '/nodes/1/input_parameters/0/origin origin_mismatch',
      ]);
    });
    it('reports a tool snapshot changed after export, with the hash to restore', () => {
      const file = copy(exportPlan(chain));
      file.tools[0].description = 'edited';
      const [issue] = validateExport(file);
      expect(issue).toMatchObject({ path: '/tools/0/hash', code: 'hash_mismatch' });
      expect(issue.message).toMatch(/sha256:[0-9a-f]{64}/);
    });
    it('reports parameters that do not match the declaration', () => {
      const file = copy(exportPlan(chain));
      file.nodes[0].input_parameters[0].name = 'link';
      file.nodes[0].step_index = 9;
      expect(validateExport(file).map((i) => `${i.path} ${i.code}`)).toEqual([
        '/nodes/0/step_index bad_step_index',
        '/nodes/0/input_parameters/0/name unknown_parameter',
        '/nodes/0/input_parameters missing_parameter',
      ]);
    });
    it('reports a placeholder flag on a node whose tool is declared', () => {
      const file = copy(exportPlan(chain));
      file.nodes[0].placeholder = true;
      expect(validateExport(file).map((i) => i.path)).toEqual(['/nodes/0/placeholder']);
    });
  });

  describe('version 0', () => {
    function toV0(file: WorkflowExportV1) {
      const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      const rename = (o: Record<string, unknown>, keys: string[]) =>
        Object.fromEntries(Object.entries(o).map(([k, v]) => [keys.includes(k) ? camel(k) : k, v]));
      return {
        format: file.format,
        version: 0,
        id: file.id,
        name: file.name,
        task: file.task,
        systemParameters: file.system_parameters,
        steps: file.nodes.map(({ step_index: _i, problems, ...n }) => ({
          ...rename(n, [
            'tool_name',
            'tool_source',
            'input_parameters',
            'missing_tool_args',
            'unknown_args',
            'output_parameters',
            'tool_hash',
          ]),
          ...(problems.length > 0 ? { problems } : {}),
        })),
        edges: file.edges.map((e) => rename({ ...e }, ['source_output', 'target_input'])),
        tools: file.tools.map((t) => rename({ ...t }, ['input_schema', 'output_schema'])),
      };
    }

    it('migrates to v1 and exports exactly what the v1 file would be', () => {
      const v1 = exportPlan({ steps: chain.steps.slice(0, 2) });
      const v0 = toV0(v1);
      expect(v0.steps[1]).toHaveProperty('inputParameters');
      const imported = importWorkflow(copy(v0));
      if (!imported.ok) throw new Error(JSON.stringify(imported.error));
      expect(JSON.stringify(exportWorkflow(imported.value.document, imported.value.meta))).toBe(
        JSON.stringify(v1),
      );
    });
    it('reports problems at their path in the v0 file', () => {
      const v0 = copy(toV0(exportPlan(chain)));
      delete v0.steps[1].toolName;
      v0.edges[0].sourceOutput = 'nope';
      const paths = validateExport(v0).map((i) => i.path);
      expect(paths).toEqual(['/steps/1/toolName']);
      v0.steps[1].toolName = 'analyse';
      expect(validateExport(v0).map((i) => i.path)).toEqual(['/edges/0/sourceOutput']);
    });
    it('reports an unknown field named like an Object.prototype member at its own name', () => {
      const v0 = {
        format: 'toolflow.workflow',
        version: 0,
        id: 'w',
        name: 'n',
        task: '',
        systemParameters: [],
        steps: [],
        edges: [],
        tools: [],
      };
      for (const name of ['toString', 'constructor', '__proto__']) {
        const file = JSON.parse(JSON.stringify(v0).replace('{', `{${JSON.stringify(name)}:1,`));
        expect(validateExport(file)).toEqual([
          expect.objectContaining({ path: `/${name}`, code: 'schema_unknown_field' }),
        ]);
      }
      const step = copy(toV0(exportPlan({ steps: chain.steps.slice(0, 1) })));
      step.steps[0].valueOf = 1;
      expect(validateExport(step).map((i) => i.path)).toEqual(['/steps/0/valueOf']);
    });
    it('keeps the v1 key names of a version-0 file that uses them in its issue paths', () => {
      const file = copy({ ...exportPlan(chain), version: 0 });
      file.nodes[0].position[''] = 1;
      file.edges[0].source_output = 5;
      expect(validateExport(file).map((i) => i.path)).toEqual([
        '/nodes/0/position/',
        '/edges/0/source_output',
      ]);
      const mixed = copy(toV0(exportPlan(chain)));
      mixed.steps[1].tool_name = mixed.steps[1].toolName;
      delete mixed.steps[1].toolName;
      mixed.steps[1].inputParameters = 'x';
      expect(validateExport(mixed).map((i) => i.path)).toEqual(['/steps/1/inputParameters']);
      mixed.steps[1].tool_name = 5;
      expect(validateExport(mixed).map((i) => i.path)).toContain('/steps/1/tool_name');
    });
    it('points a step_index problem at the v0 step', () => {
      const migrated = migrateExport({ format: 'toolflow.workflow', version: 0, steps: [] });
      expect(migrated.ok && migrated.value.toOriginalPath('/nodes/3/step_index')).toBe('/steps/3');
      expect(
        migrated.ok && migrated.value.toOriginalPath('/nodes/3/input_parameters/0/value/tool_name'),
      ).toBe('/steps/3/inputParameters/0/value/tool_name');
    });
  });

  describe('round trip (fast-check)', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'd', 'url', 'path', 'x y', 'ü/~', '__proto__');
    const propSchema = fc.oneof(
      fc.constantFrom(
        { type: 'string' },
        { type: 'integer', default: 2 },
        { type: 'number' },
        { type: 'boolean', default: null },
      ),
      fc.constantFrom(
        { type: 'array', items: { type: 'string' } },
        { type: 'object', default: { k: [1] } },
        { enum: ['p', 'q'] },
        {},
      ),
    );
    const toolArb = fc.record({
      name: fc.constantFrom('t1', 't2', 't3'),
      properties: fc.dictionary(word, propSchema, { minKeys: 1, maxKeys: 5 }),
      outputs: fc.option(fc.dictionary(word, propSchema, { minKeys: 1, maxKeys: 3 }), { nil: undefined }),
      required: fc.subarray(['a', 'b', 'url']),
    });
    const workflowArb = fc
      .record({
        tools: fc.uniqueArray(toolArb, { selector: (t) => t.name, maxLength: 3 }),
        steps: fc.array(
          fc.record({
            tool: fc.constantFrom('t1', 't2', 't3', 'ghost'),
            args: fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
            refs: fc.array(fc.record({ input: word, from: fc.nat(), output: word }), { maxLength: 2 }),
            label: fc.option(fc.string(), { nil: undefined }),
          }),
          { maxLength: 6 },
        ),
        systemParams: fc.option(fc.subarray(['a', 'executor', 'storage']), { nil: undefined }),
      })
      .map(({ tools, steps, systemParams }) => {
        const decls: ToolDeclaration[] = tools.map((t) => ({
          name: t.name,
          description: `tool ${t.name}`,
          inputSchema: { type: 'object', properties: t.properties, required: t.required },
          ...(t.outputs ? { outputSchema: { type: 'object', properties: t.outputs } } : {}),
        }));
        const plan: Plan = {
          task: 'generated',
          steps: steps.map((s, i) => {
            const args: Record<string, unknown> = { ...s.args };
            for (const r of s.refs) args[r.input] = `{{s${r.from % Math.max(i, 1)}.${r.output}}}`;
            return { id: `s${i}`, tool: s.tool, args };
          }),
        };
        return { decls, plan, labels: steps.map((s) => s.label), systemParams };
      });

    it('export → import → export is byte-identical for generated workflows', () => {
      fc.assert(
        fc.property(workflowArb, ({ decls, plan, labels, systemParams }) => {
          const built = createDocumentFromPlan(plan, decls, { systemParams });
          if (!built.ok) return;
          built.value.nodes.forEach((n, i) => {
            if (labels[i] !== undefined) n.label = labels[i];
          });
          const exported = exportWorkflow(built.value, meta);
          expect(validateExport(copy(exported))).toEqual([]);
          expect(roundTrip(exported)).toBe(JSON.stringify(exported));
        }),
        { numRuns: 200 },
      );
    });
  });
});
