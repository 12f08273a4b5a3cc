import { getFixturePath } from '../../tests/fixtures/index';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, ToolDeclaration } from '../tools/types';
import { buildNodeParameters, cloneJson, getParamPlan } from './params';

const SEED_DIR = getFixturePath('seed-optimize-structure/');
const none: ReadonlySet<string> = new Set();

function tool(inputSchema: JsonSchema, extra: Partial<ToolDeclaration> = {}): ToolDeclaration {
  return { name: 't', description: 'test tool', inputSchema: { type: 'object', ...inputSchema }, ...extra };
}

function param(decl: ToolDeclaration, args: Record<string, unknown>, name: string, connected: string[] = []) {
  const built = buildNodeParameters(decl, args, { connectedInputs: new Set(connected) });
  const found = built.input_parameters.find((p) => p.name === name);
  if (!found) throw new Error(`no parameter ${name}`);
  return found;
}

describe('buildNodeParameters', () => {
  describe('the seed golden case', () => {
    it('matches expected.json field by field', () => {
      const [raw] = JSON.parse(readFileSync(SEED_DIR + 'tools.json', 'utf8'));
      const plan = JSON.parse(readFileSync(SEED_DIR + 'plan.json', 'utf8'));
      const expected = JSON.parse(readFileSync(SEED_DIR + 'expected.json', 'utf8')).nodes.step_1;
      const decl: ToolDeclaration = {
        name: raw.name,
        description: raw.description,
        inputSchema: raw.parameters,
      };
      const built = buildNodeParameters(decl, plan.steps[0].args, { connectedInputs: none });
      expect(
        built.input_parameters.map(({ name, type, value, origin }) => ({ name, type, value, origin })),
      ).toEqual(expected.input_parameters);
      expect(built.missing_tool_args).toEqual(expected.missing_tool_args);
      expect(built.unknown_args).toEqual(expected.unknown_args);
      expect(built.problems).toEqual([]);
    });
  });

  describe('rule 1: an edge', () => {
    const decl = tool({ properties: { x: { type: 'string', default: 'd' } } });
    it('blanks an input that an edge feeds, even when an arg is set', () => {
      expect(param(decl, { x: 'from arg' }, 'x', ['x'])).toMatchObject({ value: '', origin: 'edge' });
    });
    it('blanks an input that has a default', () => {
      expect(param(decl, {}, 'x', ['x'])).toMatchObject({ value: '', origin: 'edge' });
    });
    it('does not count an edge-fed input as missing, even when required', () => {
      const req = tool({ properties: { x: { type: 'integer' } }, required: ['x'] });
      const built = buildNodeParameters(req, {}, { connectedInputs: new Set(['x']) });
      expect(built.missing_tool_args).toEqual([]);
      expect(built.problems).toEqual([]);
    });
  });

  describe('rule 2: tool_args', () => {
    it('uses the arg over the default', () => {
      const decl = tool({ properties: { n: { type: 'integer', default: 5 } } });
      expect(param(decl, { n: 7 }, 'n')).toMatchObject({ value: 7, origin: 'arg' });
    });
    it('keeps an arg that is null', () => {
      const decl = tool({ properties: { n: { type: ['integer', 'null'], default: 5 } } });
      expect(param(decl, { n: null }, 'n')).toMatchObject({ value: null, origin: 'arg' });
    });
    it('keeps an arg that is a falsy value', () => {
      const decl = tool({
        properties: { s: { type: 'string', default: 'x' }, b: { type: 'boolean', default: true } },
      });
      expect(param(decl, { s: '', b: false }, 's')).toMatchObject({ value: '', origin: 'arg' });
      expect(param(decl, { s: '', b: false }, 'b')).toMatchObject({ value: false, origin: 'arg' });
    });
    it('ignores inherited object members with a parameter name', () => {
      const decl = tool({ properties: { constructor: { type: 'string' } } });
      expect(param(decl, {}, 'constructor')).toMatchObject({ value: '', origin: 'zero' });
    });
  });

  describe('rule 3: a default', () => {
    it('uses the default when no arg is set', () => {
      const decl = tool({ properties: { head: { type: 'string', default: 'Omat24' } } });
      expect(param(decl, {}, 'head')).toMatchObject({ value: 'Omat24', origin: 'default' });
    });
    it('keeps a default that is null', () => {
      const decl = tool({ properties: { s: { type: ['string', 'null'], default: null } } });
      expect(param(decl, {}, 's')).toMatchObject({ value: null, origin: 'default' });
      expect(buildNodeParameters(decl, {}, { connectedInputs: none }).missing_tool_args).toEqual([]);
    });
    it('deep-copies an object default for every node', () => {
      const decl = tool({ properties: { cfg: { type: 'object', default: { nested: { list: [1] } } } } });
      const a = param(decl, {}, 'cfg').value as { nested: { list: number[] } };
      const b = param(decl, {}, 'cfg').value as { nested: { list: number[] } };
      expect(a).toEqual({ nested: { list: [1] } });
      expect(a).not.toBe(b);
      a.nested.list.push(2);
      expect(b.nested.list).toEqual([1]);
      expect((decl.inputSchema.properties as Record<string, { default: unknown }>).cfg.default).toEqual({
        nested: { list: [1] },
      });
    });
    it('reads a default from the $ref target', () => {
      const decl = tool({
        $defs: { Mode: { type: 'string', default: 'fast' } },
        properties: { mode: { $ref: '#/$defs/Mode' } },
      });
      expect(param(decl, {}, 'mode')).toMatchObject({ type: 'str', value: 'fast', origin: 'default' });
    });
    it('prefers a default written beside the $ref', () => {
      const decl = tool({
        $defs: { Mode: { type: 'string', default: 'fast' } },
        properties: { mode: { $ref: '#/$defs/Mode', default: 'slow' } },
      });
      expect(param(decl, {}, 'mode').value).toBe('slow');
    });
  });

  describe('rule 4: the zero value', () => {
    it.each([
      [{ type: 'string' }, 'str', ''],
      [{ type: 'integer' }, 'int', 0],
      [{ type: 'number' }, 'float', 0],
      [{ type: 'boolean' }, 'bool', false],
      [{ type: 'array', items: { type: 'string' } }, 'list', []],
      [{ type: 'object' }, 'dict', {}],
      [{}, 'any', null],
    ])('fills %j with the %s zero value', (schema, type, value) => {
      const decl = tool({ properties: { p: schema } });
      expect(param(decl, {}, 'p')).toEqual({
        name: 'p',
        type,
        value,
        origin: 'zero',
        required: false,
        description: undefined,
      });
    });
    it('lists a zero-filled optional parameter in missing_tool_args', () => {
      const decl = tool({
        properties: { a: { type: 'string' }, b: { type: 'string', default: '' }, c: { type: 'integer' } },
      });
      expect(buildNodeParameters(decl, {}, { connectedInputs: none }).missing_tool_args).toEqual(['a', 'c']);
    });
  });

  describe('types', () => {
    it('resolves $ref through #/definitions', () => {
      const decl = tool({
        definitions: { N: { type: 'number' } },
        properties: { n: { $ref: '#/definitions/N' } },
      });
      expect(param(decl, {}, 'n')).toMatchObject({ type: 'float', value: 0 });
    });
    it('takes the first non-null type of a type array', () => {
      expect(param(tool({ properties: { p: { type: ['null', 'boolean'] } } }), {}, 'p').type).toBe('bool');
    });
    it('takes the non-null branch of anyOf', () => {
      const decl = tool({
        properties: { p: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null } },
      });
      expect(param(decl, {}, 'p')).toMatchObject({ type: 'int', value: null, origin: 'default' });
    });
    it('types an enum without a type by its first value', () => {
      expect(param(tool({ properties: { p: { enum: ['a', 'b'] } } }), {}, 'p')).toMatchObject({
        type: 'str',
        value: '',
      });
    });
    it('types a const without a type by its value', () => {
      expect(param(tool({ properties: { p: { const: 3 } } }), {}, 'p').type).toBe('int');
    });
  });

  describe('system parameters', () => {
    const decl = tool({
      properties: { a: { type: 'string' }, executor: { type: 'object' }, storage: { type: 'object' } },
    });
    it('skips executor and storage by default', () => {
      expect(
        buildNodeParameters(decl, {}, { connectedInputs: none }).input_parameters.map((p) => p.name),
      ).toEqual(['a']);
    });
    it('skips the configured list instead when given', () => {
      const built = buildNodeParameters(decl, {}, { connectedInputs: none, systemParams: ['a'] });
      expect(built.input_parameters.map((p) => p.name)).toEqual(['executor', 'storage']);
    });
    it('does not report a system parameter the model sent as unknown', () => {
      const built = buildNodeParameters(
        decl,
        { a: 'x', executor: { type: 'local' } },
        { connectedInputs: none },
      );
      expect(built.unknown_args).toEqual([]);
      expect(built.input_parameters.map((p) => p.name)).toEqual(['a']);
    });
    it('reports a system parameter sent to a tool that does not declare it as an unknown arg', () => {
      const plain = tool({ properties: { a: { type: 'string' } } });
      const built = buildNodeParameters(plain, { storage: 's3://b', a: 'x' }, { connectedInputs: none });
      expect(built.unknown_args).toEqual(['storage']);
      expect(built.problems).toEqual([expect.objectContaining({ code: 'unknown_arg', param: 'storage' })]);
    });
    it('skips a system parameter the tool declares, without a word', () => {
      const declares = tool({ properties: { a: { type: 'string' }, storage: { type: 'string' } } });
      const built = buildNodeParameters(declares, { storage: 's3://b' }, { connectedInputs: none });
      expect(built.input_parameters.map((p) => p.name)).toEqual(['a']);
      expect(built.unknown_args).toEqual([]);
      expect(built.problems).toEqual([]);
    });
    it('never reports a required system parameter as missing', () => {
      const req = tool({ properties: { executor: { type: 'object' } }, required: ['executor'] });
      const built = buildNodeParameters(req, {}, { connectedInputs: none });
      expect(built.missing_tool_args).toEqual([]);
      expect(built.problems).toEqual([]);
    });
  });

  describe('unknown args', () => {
    it('lists args the declaration lacks in the order sent, as warnings', () => {
      const decl = tool({ properties: { a: { type: 'string' } } });
      const built = buildNodeParameters(decl, { zeta: 1, a: 'x', alpha: 2 }, { connectedInputs: none });
      expect(built.unknown_args).toEqual(['zeta', 'alpha']);
      expect(built.input_parameters.map((p) => p.name)).toEqual(['a']);
      expect(built.problems).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'unknown_arg', param: 'zeta' }),
        expect.objectContaining({ severity: 'warning', code: 'unknown_arg', param: 'alpha' }),
      ]);
    });
  });

  describe('required parameters', () => {
    it('records required and description on each parameter', () => {
      const decl = tool({ properties: { a: { type: 'string', description: 'the a' } }, required: ['a'] });
      expect(param(decl, { a: 'x' }, 'a')).toMatchObject({ required: true, description: 'the a' });
    });
    it('reports a required parameter left zero-filled as an error on it', () => {
      const decl = tool({ properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'] });
      const built = buildNodeParameters(decl, {}, { connectedInputs: none });
      expect(built.problems).toEqual([
        expect.objectContaining({ severity: 'error', code: 'missing_required', param: 'a' }),
      ]);
      expect(built.problems[0].message).toMatch(/"a".*set it or connect an edge/);
    });
  });

  describe('schema validation', () => {
    it('maps a draft-07 type error to its parameter', () => {
      const decl = tool({ properties: { n: { type: 'integer' } } });
      const built = buildNodeParameters(decl, { n: 'ten' }, { connectedInputs: none });
      expect(built.problems).toEqual([
        expect.objectContaining({
          severity: 'error',
          code: 'invalid_value',
          param: 'n',
          message: expect.stringMatching(/"n".*must be integer/),
        }),
      ]);
    });
    it('maps a nested error to the top-level parameter and names the path', () => {
      const decl = tool({
        properties: { cfg: { type: 'object', properties: { threads: { type: 'integer', minimum: 1 } } } },
      });
      const built = buildNodeParameters(decl, { cfg: { threads: 0 } }, { connectedInputs: none });
      expect(built.problems).toEqual([
        expect.objectContaining({
          param: 'cfg',
          message: expect.stringContaining('at /cfg/threads must be >= 1'),
        }),
      ]);
    });
    it('lists the allowed values of an enum', () => {
      const decl = tool({ properties: { mode: { enum: ['fast', 'slow'] } } });
      const [problem] = buildNodeParameters(decl, { mode: 'medium' }, { connectedInputs: none }).problems;
      expect(problem.message).toContain('"fast", "slow"');
    });
    it('validates 2020-12 schemas with 2020-12 rules', () => {
      // prefixItems is a 2020-12 keyword; draft-07 Ajv would ignore it.
      const decl = tool({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } },
      });
      const built = buildNodeParameters(decl, { pair: ['a', 'b'] }, { connectedInputs: none });
      expect(built.problems).toEqual([
        expect.objectContaining({ param: 'pair', message: expect.stringContaining('/pair/1') }),
      ]);
      expect(buildNodeParameters(decl, { pair: ['a', 1] }, { connectedInputs: none }).problems).toEqual([]);
    });
    it('applies draft-07 rules to a draft-07 schema', () => {
      const decl = tool({
        $schema: 'http://json-schema.org/draft-07/schema#',
        properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } },
      });
      expect(buildNodeParameters(decl, { pair: ['a', 'b'] }, { connectedInputs: none }).problems).toEqual([
        expect.objectContaining({ param: 'pair' }),
      ]);
    });
    it('maps a dependentRequired error through missingProperty', () => {
      const decl = tool({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        properties: { user: { type: 'string' }, password: { type: 'string' } },
        dependentRequired: { user: ['password'] },
      });
      const built = buildNodeParameters(decl, { user: 'u' }, { connectedInputs: none });
      expect(built.problems).toEqual([expect.objectContaining({ code: 'invalid_value', param: 'password' })]);
    });
    it('does not check edge-fed or zero-filled values', () => {
      const decl = tool({
        properties: { n: { type: 'integer', minimum: 5 }, s: { type: 'string', minLength: 3 } },
      });
      expect(buildNodeParameters(decl, { n: 1 }, { connectedInputs: new Set(['n']) }).problems).toEqual([]);
    });
    it('reports a default that breaks its own schema as a warning', () => {
      const decl = tool({ properties: { s: { type: 'string', default: null } } });
      expect(buildNodeParameters(decl, {}, { connectedInputs: none }).problems).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'invalid_value', param: 's' }),
      ]);
    });
    it('resolves recursive $refs when validating', () => {
      const decl = tool({
        $defs: {
          Tree: {
            type: 'object',
            properties: {
              children: { type: 'array', items: { $ref: '#/$defs/Tree' } },
              v: { type: 'integer' },
            },
          },
        },
        properties: { tree: { $ref: '#/$defs/Tree' } },
      });
      const bad = buildNodeParameters(decl, { tree: { children: [{ v: 'x' }] } }, { connectedInputs: none });
      expect(bad.problems).toEqual([
        expect.objectContaining({ param: 'tree', message: expect.stringContaining('/tree/children/0/v') }),
      ]);
      // A second, identical declaration object reuses the compiled validator and still works.
      const again = tool(JSON.parse(JSON.stringify(decl.inputSchema)));
      expect(
        buildNodeParameters(again, { tree: { children: [{ v: 1 }] } }, { connectedInputs: none }).problems,
      ).toEqual([]);
    });
    it('warns once and keeps building when Ajv refuses the schema', () => {
      const decl = tool({ properties: { a: { type: 'string', pattern: '(' } } });
      const built = buildNodeParameters(decl, { a: 'x' }, { connectedInputs: none });
      expect(built.input_parameters).toHaveLength(1);
      expect(built.problems).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'schema_unusable' }),
      ]);
    });
  });

  describe('a property named ""', () => {
    it('is left out of the parameters and reported, and an arg of that name is an unknown arg', () => {
      const decl: ToolDeclaration = {
        name: 't',
        description: '',
        inputSchema: { type: 'object', properties: { '': { type: 'string' }, a: { type: 'string' } } },
      };
      const built = buildNodeParameters(decl, { '': 'x', a: 'y' }, { connectedInputs: none });
      expect(built.input_parameters.map((p) => p.name)).toEqual(['a']);
      expect(built.unknown_args).toEqual(['']);
      expect(built.problems.map((p) => p.code)).toEqual(['unknown_arg', 'unnamed_parameter']);
      expect(getParamPlan(decl).map((p) => p.name)).toEqual(['a']);
    });
    it('is left out of the output ports, falling back to result when it was the only one', () => {
      const only = tool({}, { outputSchema: { type: 'object', properties: { '': { type: 'string' } } } });
      const built = buildNodeParameters(only, {}, { connectedInputs: none });
      expect(built.output_parameters).toEqual([{ name: 'result', type: 'any' }]);
      expect(built.problems).toEqual([
        expect.objectContaining({ code: 'unnamed_parameter', message: expect.stringContaining('an output') }),
      ]);
      const two = tool(
        {},
        { outputSchema: { properties: { '': { type: 'string' }, n: { type: 'integer' } } } },
      );
      expect(buildNodeParameters(two, {}, { connectedInputs: none }).output_parameters).toEqual([
        { name: 'n', type: 'int' },
      ]);
    });
    it('is not a parameter of an undeclared tool either', () => {
      const built = buildNodeParameters(undefined, { '': 1, q: 2 }, { connectedInputs: new Set(['']) });
      expect(built.input_parameters.map((p) => p.name)).toEqual(['q']);
      expect(built.problems.map((p) => p.code)).toEqual(['unknown_tool', 'unnamed_parameter']);
    });
  });

  describe('values Ajv cannot check', () => {
    it('reports an object with an own "valueOf" checked against an enum of objects instead of throwing', () => {
      const decl: ToolDeclaration = {
        name: 'a',
        description: '',
        inputSchema: { type: 'object', properties: { p: { enum: [{}] } } },
      };
      const built = buildNodeParameters(decl, { p: { valueOf: null } }, { connectedInputs: new Set() });
      expect(built.input_parameters[0]).toMatchObject({ name: 'p', value: { valueOf: null }, origin: 'arg' });
      expect(built.problems).toEqual([
        {
          severity: 'warning',
          code: 'invalid_value',
          message: expect.stringMatching(
            /^Parameter "p" could not be checked against the tool's schema \(.+\)/,
          ),
          param: 'p',
        },
      ]);
    });
    it('still checks the other values when one cannot be checked', () => {
      const decl = tool({ properties: { p: { const: { k: 1 } }, n: { type: 'integer' } } });
      const built = buildNodeParameters(decl, { p: { toString: 1 }, n: 'x' }, { connectedInputs: none });
      expect(built.problems.map((q) => [q.param, q.severity, q.code])).toEqual([
        ['p', 'warning', 'invalid_value'],
        ['n', 'error', 'invalid_value'],
      ]);
    });
    it('reports a value of a schema that loops through itself instead of overflowing the stack', () => {
      const decl = tool({
        properties: { a: { allOf: [{ $ref: '#/properties/a' }] }, b: { type: 'string' } },
      });
      const built = buildNodeParameters(decl, { a: 1, b: 'x' }, { connectedInputs: none });
      expect(built.problems).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'invalid_value', param: 'a' }),
      ]);
    });
  });

  describe('edges into inputs that do not exist', () => {
    it('reports an edge into an undeclared or system input as an error', () => {
      const decl = tool({ properties: { a: { type: 'string' }, executor: { type: 'object' } } });
      const built = buildNodeParameters(decl, {}, { connectedInputs: new Set(['a', 'nope', 'executor']) });
      expect(built.problems.map((p) => [p.code, p.param])).toEqual([
        ['unknown_input', 'nope'],
        ['unknown_input', 'executor'],
      ]);
    });
  });

  describe('output ports', () => {
    it('gives one result port of type any without an outputSchema', () => {
      expect(buildNodeParameters(tool({}), {}, { connectedInputs: none }).output_parameters).toEqual([
        { name: 'result', type: 'any' },
      ]);
    });
    it('gives one port per outputSchema property, typed', () => {
      const decl = tool(
        {},
        {
          outputSchema: {
            type: 'object',
            properties: { path: { type: 'string' }, energy: { type: 'number' } },
          },
        },
      );
      expect(buildNodeParameters(decl, {}, { connectedInputs: none }).output_parameters).toEqual([
        { name: 'path', type: 'str' },
        { name: 'energy', type: 'float' },
      ]);
    });
  });

  describe('an undeclared tool', () => {
    it('keeps the args, blanks edge-fed inputs and reports the tool as unknown', () => {
      const built = buildNodeParameters(
        undefined,
        { a: 1, b: 'x' },
        { connectedInputs: new Set(['b', 'c']) },
      );
      expect(
        built.input_parameters.map(({ name, value, origin, type }) => ({ name, value, origin, type })),
      ).toEqual([
        { name: 'a', value: 1, origin: 'arg', type: 'int' },
        { name: 'b', value: '', origin: 'edge', type: 'str' },
        { name: 'c', value: '', origin: 'edge', type: 'any' },
      ]);
      expect(built.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'unknown_tool' })]);
    });
  });

  describe('properties (fast-check)', () => {
    const names = fc.constantFrom(
      'a',
      'b',
      'c',
      'executor',
      'storage',
      'x/y',
      'constructor',
      'n~1',
      '__proto__',
    );
    const propSchema = fc.oneof(
      fc.record({
        type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'array', 'object', 'null'),
      }),
      fc.record({ type: fc.constantFrom('string', 'integer'), default: fc.jsonValue() }),
      fc.record({ anyOf: fc.constant([{ type: 'null' }, { type: 'integer' }]), default: fc.constant(null) }),
      fc.record({ enum: fc.array(fc.jsonValue(), { minLength: 1, maxLength: 3 }) }),
      fc.record({ $ref: fc.constantFrom('#/$defs/S', '#/definitions/N', '#/$defs/Missing') }),
      fc.constant({}),
    );
    const declArb = fc
      .record({
        props: fc.dictionary(names, propSchema, { maxKeys: 6 }),
        required: fc.subarray(['a', 'b', 'c', 'executor']),
      })
      .map(({ props, required }) =>
        tool({
          properties: props,
          required,
          $defs: { S: { type: 'string', default: 's' } },
          definitions: { N: { type: 'number' } },
        }),
      );

    it('never throws, emits the declared non-system properties in order and applies the four rules in priority', () => {
      fc.assert(
        fc.property(
          declArb,
          fc.dictionary(fc.oneof(names, fc.string()), fc.jsonValue(), { maxKeys: 6 }),
          fc.subarray(['a', 'b', 'c', 'x/y', 'storage']),
          (decl, args, connectedList) => {
            const connected = new Set(connectedList);
            const built = buildNodeParameters(decl, args, { connectedInputs: connected });
            const declared = Object.keys(decl.inputSchema.properties as object);
            const expectedNames = declared.filter((n) => n !== 'executor' && n !== 'storage');
            expect(built.input_parameters.map((p) => p.name)).toEqual(expectedNames);
            const props = decl.inputSchema.properties as Record<string, JsonSchema>;
            for (const p of built.input_parameters) {
              const schema = props[p.name].$ref === '#/$defs/S' ? { default: 's' } : props[p.name];
              if (connected.has(p.name)) {
                expect(p).toMatchObject({ origin: 'edge', value: '' });
              } else if (Object.prototype.hasOwnProperty.call(args, p.name)) {
                expect(p.origin).toBe('arg');
                expect(p.value).toBe(args[p.name]);
              } else if ('default' in schema) {
                expect(p.origin).toBe('default');
                expect(p.value).toEqual(schema.default);
              } else {
                expect(p.origin).toBe('zero');
                expect(built.missing_tool_args).toContain(p.name);
              }
            }
            // A system parameter's name is skipped only where the tool declares it (docs/design.md §2.2).
            expect(built.unknown_args).toEqual(Object.keys(args).filter((k) => !declared.includes(k)));
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});

describe('getParamPlan', () => {
  it('computes the plan once per declaration object', () => {
    const decl = tool({ properties: { a: { type: 'string' } } });
    expect(getParamPlan(decl)).toBe(getParamPlan(decl));
    expect(getParamPlan(decl, ['a'])).toEqual([]);
  });
});

describe('cloneJson', () => {
  it('copies nested arrays and objects', () => {
    const value = { a: [{ b: 1 }], c: null };
    const copy = cloneJson(value);
    expect(copy).toEqual(value);
    expect(copy.a[0]).not.toBe(value.a[0]);
  });
});
