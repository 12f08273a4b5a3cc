import { getFixturePath } from '../../tests/fixtures/index';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Issue } from '../result';
import { importDeclarations, parseDeclarationsText } from './import';

const SEED_TOOLS = getFixturePath('seed-optimize-structure/tools.json');

const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
  },
  required: ['city'],
};

function expectOk(result: ReturnType<typeof importDeclarations>) {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error, null, 2)}`);
  return result.value;
}

function expectErr(result: ReturnType<typeof importDeclarations>): Issue[] {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('importDeclarations', () => {
  describe('reads each shape of docs/design.md §3.2', () => {
    it('reads an MCP tools/list result with title, outputSchema and annotations', () => {
      const value = expectOk(
        importDeclarations({
          tools: [
            {
              name: 'get_weather',
              title: 'Weather',
              description: 'Current weather',
              inputSchema: weatherSchema,
              outputSchema: { type: 'object', properties: { temp: { type: 'number' } } },
              annotations: { readOnlyHint: true },
            },
          ],
        }),
      );
      expect(value.format).toBe('mcp');
      expect(value.tools).toEqual([
        {
          name: 'get_weather',
          title: 'Weather',
          description: 'Current weather',
          inputSchema: weatherSchema,
          outputSchema: { type: 'object', properties: { temp: { type: 'number' } } },
          annotations: { readOnlyHint: true },
        },
      ]);
    });

    it('reads a full JSON-RPC tools/list response', () => {
      const value = expectOk(
        importDeclarations({
          jsonrpc: '2.0',
          id: 1,
          result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] },
        }),
      );
      expect(value.format).toBe('mcp');
      expect(value.tools[0]).toEqual({ name: 'echo', description: '', inputSchema: { type: 'object' } });
    });

    it('reads an empty MCP tool list as no tools', () => {
      expect(expectOk(importDeclarations({ tools: [] }))).toEqual({ format: 'mcp', tools: [] });
    });

    it('reads OpenAI Chat Completions tools, as a list or under "tools"', () => {
      const chat = [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather', parameters: weatherSchema, strict: false },
        },
      ];
      for (const input of [chat, { tools: chat }]) {
        const value = expectOk(importDeclarations(input));
        expect(value.format).toBe('openai-chat');
        expect(value.tools).toEqual([
          { name: 'get_weather', description: 'Weather', inputSchema: weatherSchema },
        ]);
      }
    });

    it('reads OpenAI Responses tools (flat), with null description and parameters', () => {
      const value = expectOk(
        importDeclarations([
          {
            type: 'function',
            name: 'get_weather',
            description: 'Weather',
            parameters: weatherSchema,
            strict: true,
          },
          { type: 'function', name: 'ping', description: null, parameters: null, strict: null },
        ]),
      );
      expect(value.format).toBe('openai-responses');
      expect(value.tools).toEqual([
        { name: 'get_weather', description: 'Weather', inputSchema: weatherSchema },
        { name: 'ping', description: '', inputSchema: { type: 'object', properties: {} } },
      ]);
    });

    it('reads Gemini functionDeclarations and normalises the OpenAPI subset into JSON Schema', () => {
      const value = expectOk(
        importDeclarations({
          functionDeclarations: [
            {
              name: 'set_light',
              description: 'Set a light',
              parameters: {
                type: 'OBJECT',
                properties: {
                  brightness: { type: 'INTEGER', description: 'Percent', minimum: 0, maximum: 100 },
                  color: { type: 'STRING', enum: ['warm', 'cool'], nullable: true },
                  level: { type: 'INTEGER', format: 'enum', enum: ['1', '2', '3'] },
                  tags: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: '5' },
                },
                required: ['brightness'],
                propertyOrdering: ['tags', 'brightness'],
              },
            },
          ],
        }),
      );
      expect(value.format).toBe('gemini');
      const schema = value.tools[0].inputSchema;
      expect(schema).toEqual({
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
          brightness: { type: 'integer', description: 'Percent', minimum: 0, maximum: 100 },
          color: { type: ['string', 'null'], enum: ['warm', 'cool', null] },
          level: { type: 'integer', enum: [1, 2, 3] },
        },
        required: ['brightness'],
      });
      expect(Object.keys(schema.properties as object)).toEqual(['tags', 'brightness', 'color', 'level']);
    });

    it('reads Gemini function_declarations with parametersJsonSchema as JSON Schema unchanged', () => {
      const value = expectOk(
        importDeclarations({
          function_declarations: [{ name: 'get_weather', parameters_json_schema: weatherSchema }],
        }),
      );
      expect(value).toEqual({
        format: 'gemini',
        tools: [{ name: 'get_weather', description: '', inputSchema: weatherSchema }],
      });
    });

    it('reads a Gemini request "tools" list, skipping tools that declare no functions', () => {
      const value = expectOk(
        importDeclarations({
          tools: [
            { googleSearch: {} },
            { functionDeclarations: [{ name: 'a' }] },
            { functionDeclarations: [{ name: 'b', parametersJsonSchema: weatherSchema }] },
          ],
        }),
      );
      expect(value.format).toBe('gemini');
      expect(value.tools.map((t) => t.name)).toEqual(['a', 'b']);
      expect(value.tools[0].inputSchema).toEqual({ type: 'object', properties: {} });
    });

    it('reads Gemini response schemas as the output schema', () => {
      const value = expectOk(
        importDeclarations({
          functionDeclarations: [
            { name: 'a', response: { type: 'OBJECT', properties: { ok: { type: 'BOOLEAN' } } } },
          ],
        }),
      );
      expect(value.tools[0].outputSchema).toEqual({
        type: 'object',
        properties: { ok: { type: 'boolean' } },
      });
    });

    it('reads Anthropic tools', () => {
      const value = expectOk(
        importDeclarations([{ name: 'get_weather', description: 'Weather', input_schema: weatherSchema }]),
      );
      expect(value).toEqual({
        format: 'anthropic',
        tools: [{ name: 'get_weather', description: 'Weather', inputSchema: weatherSchema }],
      });
    });

    it('reads the bare seed fixture ({name, description, parameters}) in declaration order', () => {
      const value = expectOk(parseDeclarationsText(readFileSync(SEED_TOOLS, 'utf8')));
      expect(value.format).toBe('bare');
      expect(value.tools).toHaveLength(1);
      expect(value.tools[0].name).toBe('optimize_structure');
      expect(Object.keys(value.tools[0].inputSchema.properties as object)).toEqual([
        'input_structure',
        'model_path',
        'head',
        'force_tolerance',
        'max_iterations',
        'relax_cell',
        'executor',
        'storage',
      ]);
    });

    it('reads a single tool object as a list of one', () => {
      const value = expectOk(
        importDeclarations({ type: 'function', function: { name: 'solo', parameters: weatherSchema } }),
      );
      expect(value.format).toBe('openai-chat');
      expect(value.tools.map((t) => t.name)).toEqual(['solo']);
    });

    it('reads an empty list as no tools', () => {
      expect(expectOk(importDeclarations([]))).toEqual({ format: 'bare', tools: [] });
    });
  });

  describe('normalises declarations', () => {
    it('gives a declaration without parameters an empty object schema', () => {
      const value = expectOk(
        importDeclarations([
          { name: 'now', description: 'Time', parameters: undefined },
          { name: 'later', parameters: {} },
        ]),
      );
      expect(value.tools[0].inputSchema).toEqual({ type: 'object', properties: {} });
      expect(value.tools[1].inputSchema).toEqual({ type: 'object' });
    });

    it('adds the missing object type first, keeping the rest in order', () => {
      const value = expectOk(
        importDeclarations([{ name: 'a', parameters: { properties: { x: { type: 'string' } } } }]),
      );
      expect(value.tools[0].inputSchema).toEqual({ type: 'object', properties: { x: { type: 'string' } } });
      expect(Object.keys(value.tools[0].inputSchema)).toEqual(['type', 'properties']);
    });

    it('sets the given source on every tool', () => {
      const source = { kind: 'mcp-stdio' as const, server: 'everything' };
      const value = expectOk(
        importDeclarations({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] }, { source }),
      );
      expect(value.tools[0].source).toEqual(source);
    });

    it('copies schemas so later edits of the input do not leak in', () => {
      const input = [{ name: 'a', parameters: { type: 'object', properties: { x: { type: 'string' } } } }];
      const value = expectOk(importDeclarations(input));
      (input[0].parameters.properties.x as { type: string }).type = 'number';
      expect(value.tools[0].inputSchema.properties).toEqual({ x: { type: 'string' } });
    });
  });

  describe('reports bad content with paths', () => {
    it('reports a duplicate name at the second occurrence, naming the first', () => {
      const issues = expectErr(
        importDeclarations([
          { name: 'a', parameters: {} },
          { name: 'b', parameters: {} },
          { name: 'a', parameters: {} },
        ]),
      );
      expect(issues).toEqual([expect.objectContaining({ path: '/2/name', code: 'duplicate_name' })]);
      expect(issues[0].message).toMatch(/"a" is already used at \/0\/name.*Rename or remove/);
    });

    it('reports an empty and a non-string name', () => {
      const issues = expectErr(
        importDeclarations({
          tools: [
            { name: '', inputSchema: { type: 'object' } },
            { name: 7, inputSchema: { type: 'object' } },
          ],
        }),
      );
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/tools/0/name', 'empty_name'],
        ['/tools/1/name', 'bad_name'],
      ]);
    });

    it('reports a missing MCP name', () => {
      const issues = expectErr(importDeclarations({ tools: [{ inputSchema: { type: 'object' } }] }));
      expect(issues).toEqual([expect.objectContaining({ path: '/tools/0/name', code: 'missing_name' })]);
    });

    it('reports a non-object parameters schema', () => {
      const issues = expectErr(
        importDeclarations([
          { type: 'function', function: { name: 'a', parameters: { type: 'string' } } },
          { type: 'function', function: { name: 'b', parameters: 'x' } },
          {
            type: 'function',
            function: { name: 'c', parameters: { type: 'object', properties: { p: 'string' } } },
          },
        ]),
      );
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/0/function/parameters/type', 'non_object_schema'],
        ['/1/function/parameters', 'bad_schema'],
        ['/2/function/parameters/properties/p', 'bad_schema'],
      ]);
      expect(issues[0].message).toContain('found type "string"');
    });

    it('reports a non-object output schema, bad required, bad annotations and description', () => {
      const issues = expectErr(
        importDeclarations({
          tools: [
            {
              name: 'a',
              description: 5,
              inputSchema: { type: 'object', required: 'x' },
              outputSchema: { type: 'array' },
              annotations: 'ro',
            },
          ],
        }),
      );
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/tools/0/description', 'bad_description'],
        ['/tools/0/inputSchema/required', 'bad_schema'],
        ['/tools/0/outputSchema/type', 'non_object_schema'],
        ['/tools/0/annotations', 'bad_annotations'],
      ]);
    });

    it('reports every malformed tool of a list whose first tool fixes the shape', () => {
      const issues = expectErr(
        importDeclarations([
          { type: 'function', function: { name: 'ok', parameters: {} } },
          { type: 'function', name: 'flat' },
          { type: 'function', function: 'x' },
        ]),
      );
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/1/function', 'bad_declaration'],
        ['/2/function', 'bad_declaration'],
      ]);
      expect(issues[0].message).toMatch(/^missing; the file reads as OpenAI Chat Completions tools/);
      expect(issues[1].message).toMatch(/^expected an object, found the string "x"/);
    });

    it('refuses a parameter or output named "" where it is written (fuzz counterexample)', () => {
      // Workflow files require parameter names of at least one character: a tool with a ""
      // parameter made workflows whose export the import then refused.
      const issues = expectErr(
        importDeclarations({
          tools: [
            {
              name: 't',
              description: '',
              inputSchema: { type: 'object', properties: { '': { type: 'string' } } },
            },
            {
              name: 'u',
              inputSchema: {
                type: 'object',
                allOf: [{ properties: { a: {} } }, { $ref: '#/$defs/More' }],
                $defs: { More: { properties: { '': {} } } },
              },
              outputSchema: { type: 'object', properties: { '': { type: 'number' } } },
            },
          ],
        }),
      );
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/tools/0/inputSchema/properties/', 'empty_property_name'],
        ['/tools/1/inputSchema/$defs/More/properties/', 'empty_property_name'],
        ['/tools/1/outputSchema/properties/', 'empty_property_name'],
      ]);
      expect(issues[0].message).toMatch(/^A parameter has an empty name/);
      expect(issues[2].message).toMatch(/^An output has an empty name/);
    });

    it('accepts "" as the name of a nested field, which is no parameter', () => {
      const schema = { type: 'object', properties: { a: { type: 'object', properties: { '': {} } } } };
      expect(expectOk(importDeclarations([{ name: 'n', parameters: schema }])).tools[0].inputSchema).toEqual(
        schema,
      );
    });

    it('reports a tool entry that is not an object at the entry, saying what it is', () => {
      // Fuzz counterexample: this was "/1/input_schema: missing", a member a number cannot have.
      const issues = expectErr(importDeclarations([{ name: 'a', input_schema: {} }, 5]));
      expect(issues).toEqual([expect.objectContaining({ path: '/1', code: 'bad_declaration' })]);
      expect(issues[0].message).toMatch(
        /^expected a tool object, found number 5; the file reads as Anthropic/,
      );
    });
  });

  describe('explains an unrecognised file shape by shape', () => {
    it('lists each shape tried with the path that failed', () => {
      const issues = expectErr(importDeclarations([{ type: 'function', description: 'no function object' }]));
      expect(issues[0]).toMatchObject({ path: '', code: 'unrecognised_format' });
      expect(issues[0].message).toMatch(/Tried 6 shapes/);
      const perShape = issues.slice(1);
      expect(perShape).toHaveLength(6);
      expect(perShape.every((i) => i.code === 'unrecognised_format')).toBe(true);
      expect(perShape.map((i) => i.path)).toEqual([
        '/0/inputSchema',
        '/0/function',
        '/0/name',
        '/0/functionDeclarations',
        '/0/input_schema',
        '/0/name',
      ]);
      expect(perShape[1].message).toBe(
        'Not OpenAI Chat Completions tools ([{"type":"function","function":{"name","description","parameters"}}]): /0/function: missing.',
      );
    });

    it('says what was found when the input is not a list at all', () => {
      const issues = expectErr(importDeclarations('tools'));
      expect(issues[1].message).toContain('found the string "tools"');
      const objectIssues = expectErr(importDeclarations({ foo: 1 }));
      expect(objectIssues[1].message).toContain('expected a list of tools');
    });

    it('recognises a JSON-RPC error response', () => {
      const issues = expectErr(
        importDeclarations({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }),
      );
      expect(issues[1]).toMatchObject({ path: '/error' });
      expect(issues[1].message).toContain('JSON-RPC error response');
    });

    it('explains a list of non-objects at each entry, for every shape (fuzz counterexample [[]])', () => {
      for (const input of [[[]], [null], { tools: ['x'] }]) {
        const perShape = expectErr(importDeclarations(input)).slice(1);
        const at = Array.isArray(input) ? '/0' : '/tools/0';
        expect(perShape.map((i) => i.path)).toEqual(Array(6).fill(at));
        for (const issue of perShape) expect(issue.message).toMatch(/: expected a (Gemini )?tool object/);
      }
    });

    it('explains a wrong type on every item', () => {
      const issues = expectErr(importDeclarations([{ type: 'web_search' }]));
      expect(issues.find((i) => i.message.startsWith('Not OpenAI Responses'))?.message).toContain(
        '/0/type: expected "function", found the string "web_search"',
      );
    });
  });
});

describe('parseDeclarationsText', () => {
  it('reports a JSON syntax error with line and column', () => {
    const result = parseDeclarationsText('[\n  {"name": "a",\n   "parameters": {,}\n  }\n]');
    expect(result).toEqual({
      ok: false,
      error: [
        {
          path: '',
          code: 'bad_json',
          message:
            'Invalid JSON at line 3, column 19: unexpected ","; expected a property name in double quotes. Fix the file so it is valid JSON.',
        },
      ],
    });
  });

  it('imports valid text with a byte-order mark', () => {
    const result = parseDeclarationsText('\uFEFF[{"name":"a","parameters":{"type":"object"}}]');
    expect(result.ok && result.value.tools[0].name).toBe('a');
  });

  it('passes the source through', () => {
    const result = parseDeclarationsText('[{"name":"a","parameters":{}}]', {
      source: { kind: 'file', toolkit: 'demo' },
    });
    expect(result.ok && result.value.tools[0].source).toEqual({ kind: 'file', toolkit: 'demo' });
  });
});

describe('importDeclarations on hostile input', () => {
  it('refuses a value nested deeper than the limit with the depth, instead of exhausting the stack', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1000; i++) schema = { type: 'object', properties: { a: schema } };
    const result = importDeclarations({
      tools: [{ name: 't', inputSchema: { type: 'object', properties: { x: schema } } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toHaveLength(1);
    expect(result.error[0].code).toBe('too_deep');
    expect(result.error[0].message).toContain('nested 2006 levels deep');
  });
});
