import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyNameDeclaration, declarationList } from './__fixtures__/arbitraries';
import { findGeminiViolations } from './__fixtures__/gemini-subset';
import { readFixtureJson } from '../../tests/fixtures/index';
import { compileSpecSchema, describeErrors } from './__fixtures__/openai-spec';
import { createToolAliases, getToolNamePattern, OPENAI_TOOL_NAME_PATTERN } from './aliases';
import {
  renderAnthropicTool,
  renderChatTool,
  renderGeminiDeclarations,
  renderMcpTool,
  renderResponsesTool,
} from './formats';
import { findStrictViolations } from './__fixtures__/openai-strict';
import { importDeclarations } from './import';
import { convertTools, renderTools } from './render';
import type { ToolDeclaration } from './types';

const chatToolSpec = readFixtureJson<object>('spec/openai/ChatCompletionTool.json');
const chatToolFieldsSpec = readFixtureJson<object>('spec/openai/ChatCompletionsToolFields.json');
const functionToolSpec = readFixtureJson<object>('spec/openai/FunctionTool.json');
const responsesToolFieldsSpec = readFixtureJson<object>('spec/openai/ResponsesToolFields.json');

const validateChatTool = compileSpecSchema(chatToolSpec);
const validateResponsesTool = compileSpecSchema(functionToolSpec);
const validateChatFields = compileSpecSchema(chatToolFieldsSpec);
const validateResponsesFields = compileSpecSchema(responsesToolFieldsSpec);

const weather: ToolDeclaration = {
  name: 'get_weather',
  title: 'Weather',
  description: 'Current weather for a city',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City' },
      unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
    },
    required: ['city'],
  },
  outputSchema: { type: 'object', properties: { temp: { type: 'number' } } },
  annotations: { readOnlyHint: true },
  source: { kind: 'mcp-stdio', server: 'weather' },
};

const mapTool: ToolDeclaration = {
  name: 'tag',
  description: '',
  inputSchema: {
    type: 'object',
    properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
    required: ['labels'],
  },
};

function expectValid(validate: typeof validateChatTool, value: unknown): void {
  expect(validate(value), describeErrors(validate)).toBe(true);
}

describe('renderChatTool', () => {
  it('nests the function under "function" and validates against ChatCompletionTool', () => {
    const tool = renderChatTool(weather);
    expect(tool).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city',
        parameters: weather.inputSchema,
      },
    });
    expectValid(validateChatTool, tool);
  });

  it('sends a strict schema with strict: true when asked', () => {
    const tool = renderChatTool(weather, { strict: true });
    expect(tool.function.strict).toBe(true);
    expect(tool.function.parameters).toMatchObject({
      required: ['city', 'unit'],
      additionalProperties: false,
    });
    expectValid(validateChatTool, tool);
  });

  it('falls back to the original schema in auto mode when strict conversion would lose meaning', () => {
    expect(renderChatTool(mapTool, { strict: 'auto' }).function).toEqual({
      name: 'tag',
      parameters: mapTool.inputSchema,
      strict: false,
    });
    expect(renderChatTool(weather, { strict: 'auto' }).function.strict).toBe(true);
  });

  it('uses the title when there is no description, and the given provider name', () => {
    const tool = renderChatTool({ ...weather, description: '' }, { name: 'alias_1' });
    expect(tool.function).toMatchObject({ name: 'alias_1', description: 'Weather' });
  });
});

describe('renderResponsesTool', () => {
  it('is flat, always states strict, carries the output schema, and validates against FunctionTool', () => {
    const tool = renderResponsesTool(weather);
    expect(JSON.stringify(tool)).toBe(
      JSON.stringify({
        type: 'function',
        name: 'get_weather',
        description: 'Current weather for a city',
        parameters: weather.inputSchema,
        output_schema: weather.outputSchema,
        strict: false,
      }),
    );
    expectValid(validateResponsesTool, tool);
    const strict = renderResponsesTool(weather, { strict: true });
    expect(strict.strict).toBe(true);
    expectValid(validateResponsesTool, strict);
  });
});

describe('renderAnthropicTool', () => {
  it('uses input_schema', () => {
    expect(renderAnthropicTool(weather)).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city',
      input_schema: weather.inputSchema,
    });
  });
});

describe('renderMcpTool', () => {
  it('keeps title, output schema and annotations, and never the source', () => {
    expect(renderMcpTool(weather)).toEqual({
      name: 'get_weather',
      title: 'Weather',
      description: 'Current weather for a city',
      inputSchema: weather.inputSchema,
      outputSchema: weather.outputSchema,
      annotations: { readOnlyHint: true },
    });
  });
});

describe('renderGeminiDeclarations', () => {
  it('converts parameters and the output schema to the Gemini subset', () => {
    expect(renderGeminiDeclarations([weather])).toEqual({
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: {
            type: 'OBJECT',
            properties: {
              city: { type: 'STRING', description: 'City' },
              unit: { type: 'STRING', enum: ['c', 'f'], default: 'c' },
            },
            required: ['city'],
          },
          response: { type: 'OBJECT', properties: { temp: { type: 'NUMBER' } } },
        },
      ],
    });
  });

  it('leaves parameters unset for a tool without parameters', () => {
    const { functionDeclarations } = renderGeminiDeclarations([
      { name: 'now', description: 'Time', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(functionDeclarations).toEqual([{ name: 'now', description: 'Time' }]);
  });

  it('renders parameters given through a root allOf or $ref (fuzz counterexample)', () => {
    const viaAllOf: ToolDeclaration = {
      name: 'x',
      description: '',
      inputSchema: { type: 'object', allOf: [{ properties: { x: { type: 'string' } } }] },
    };
    const viaRef: ToolDeclaration = {
      name: 'y',
      description: '',
      inputSchema: {
        type: 'object',
        $ref: '#/$defs/R',
        $defs: { R: { type: 'object', properties: { x: { type: 'string' } } } },
      },
    };
    const parameters = { type: 'OBJECT', properties: { x: { type: 'STRING' } } };
    expect(renderTools([viaAllOf, viaRef], 'gemini')).toEqual({
      functionDeclarations: [
        { name: 'x', parameters },
        { name: 'y', parameters },
      ],
    });
  });

  it('keeps a parameter named __proto__ (fuzz counterexample)', () => {
    const inputSchema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    const rendered = renderTools([{ name: 'a', description: '', inputSchema }], 'gemini');
    expect(JSON.stringify(rendered)).toBe(
      '{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","properties":{"__proto__":{"type":"STRING"}}}}]}',
    );
  });

  it('sends parametersJsonSchema unchanged in json-schema mode', () => {
    const { functionDeclarations } = renderGeminiDeclarations([weather], { schema: 'json-schema' });
    expect(functionDeclarations[0].parametersJsonSchema).toBe(weather.inputSchema);
    expect(functionDeclarations[0].parameters).toBeUndefined();
  });

  it('keeps dotted names (Gemini allows them) and aliases the rest', () => {
    const tools = [
      { ...weather, name: 'weather.get' },
      { ...weather, name: 'fs/read' },
    ];
    const names = renderGeminiDeclarations(tools).functionDeclarations.map((d) => d.name);
    expect(names).toEqual(['weather.get', 'fs_read']);
  });
});

describe('renderTools', () => {
  const dotted: ToolDeclaration[] = [
    { ...weather, name: 'weather.get' },
    { ...weather, name: 'weather_get' },
  ];

  it('aliases names OpenAI forbids, reversibly with the same deterministic aliases', () => {
    const rendered = renderTools(dotted, 'openai-chat');
    const sent = rendered.map((t) => t.function.name);
    expect(sent).toEqual(['weather_get_' + sent[0].slice(-8), 'weather_get']);
    expect(sent[0]).toMatch(OPENAI_TOOL_NAME_PATTERN);
    const aliases = createToolAliases(dotted, { pattern: getToolNamePattern('openai-chat') });
    expect(sent.map((name) => aliases.fromAlias(name))).toEqual(['weather.get', 'weather_get']);
  });

  it('uses aliases given by the caller', () => {
    const aliases = createToolAliases(dotted);
    expect(renderTools(dotted, 'openai-responses', { aliases }).map((t) => t.name)).toEqual(
      dotted.map((t) => aliases.toAlias(t.name)),
    );
    expect(renderTools(dotted, 'anthropic', { aliases }).map((t) => t.name)).toEqual(
      dotted.map((t) => aliases.toAlias(t.name)),
    );
  });

  it('never aliases MCP names', () => {
    expect(renderTools(dotted, 'mcp').tools.map((t) => t.name)).toEqual(['weather.get', 'weather_get']);
  });

  it('leaves out omitted parameters in every target', () => {
    const tool: ToolDeclaration = {
      name: 'run',
      description: 'Run',
      inputSchema: {
        type: 'object',
        properties: { x: { type: 'string' }, executor: { type: 'object' } },
        required: ['x', 'executor'],
      },
    };
    const opts = { omitParams: ['executor'] };
    expect(renderTools([tool], 'openai-chat', opts)[0].function.parameters).toEqual({
      type: 'object',
      properties: { x: { type: 'string' } },
      required: ['x'],
    });
    expect(renderTools([tool], 'gemini', opts).functionDeclarations[0].parameters).toEqual({
      type: 'OBJECT',
      properties: { x: { type: 'STRING' } },
      required: ['x'],
    });
    expect(renderTools([tool], 'prompt', opts)).not.toContain('executor');
    expect(tool.inputSchema.properties).toHaveProperty('executor');
  });

  it('returns the catalogue text for prompt', () => {
    expect(renderTools([weather], 'prompt')).toMatch(/^# Available tools \(1\)\n\n## get_weather\n/);
  });

  it('renders Chat and Responses tools that validate against the official schemas for many declarations', () => {
    fc.assert(
      fc.property(
        declarationList(anyNameDeclaration, 6),
        fc.constantFrom(false, true, 'auto' as const),
        (tools, strict) => {
          const chat = renderTools(tools, 'openai-chat', { strict });
          for (const tool of chat) {
            expectValid(validateChatTool, tool);
            expect(tool.function.name).toMatch(OPENAI_TOOL_NAME_PATTERN);
          }
          expectValid(validateChatFields, { tools: chat, tool_choice: 'auto', parallel_tool_calls: true });
          const responses = renderTools(tools, 'openai-responses', { strict });
          for (const tool of responses) {
            expectValid(validateResponsesTool, tool);
            expect(tool.name).toMatch(OPENAI_TOOL_NAME_PATTERN);
          }
          expectValid(validateResponsesFields, {
            tools: responses,
            tool_choice: 'auto',
            parallel_tool_calls: false,
          });
          for (const decl of renderTools(tools, 'gemini').functionDeclarations) {
            if (decl.parameters) expect(findGeminiViolations(decl.parameters)).toEqual([]);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('convertTools reports what each conversion changed', () => {
  const realWorld: ToolDeclaration = {
    name: 'search.docs',
    title: 'Search',
    description: 'Search the docs',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        tags: { type: 'array' },
        filter: { type: 'object', description: 'Any filter' },
      },
      required: ['query', 'filter'],
    },
    outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } },
    annotations: { readOnlyHint: true },
    icons: [{ src: 'https://example.com/i.png' }],
    execution: { taskSupport: 'optional' },
    _meta: { 'example.com/x': 1 },
  };
  const lines = (issues: { tool: string; path: string; code: string; severity: string }[]) =>
    issues.map((i) => `${i.severity} ${i.tool} ${i.path} ${i.code}`);

  it('keeps a tool non-strict in auto mode when strict would change it, naming tool and path', () => {
    const { output, issues } = convertTools([realWorld], 'openai-chat', { strict: 'auto' });
    expect(output[0].function.strict).toBe(false);
    // Not strict, but still accepted: the array without items gets `items: {}`.
    expect(output[0].function.parameters.properties).toMatchObject({ tags: { type: 'array', items: {} } });
    expect(lines(issues)).toEqual([
      'note search.docs /name renamed',
      'note search.docs /inputSchema/properties/tags strict_untyped_items',
      'note search.docs /inputSchema/properties/filter strict_free_form_object',
      'note search.docs /title title_dropped',
      'loss search.docs /outputSchema output_schema_dropped',
      'note search.docs /annotations annotations_dropped',
      'note search.docs /icons icons_dropped',
      'note search.docs /execution execution_dropped',
      'note search.docs /_meta meta_dropped',
    ]);
    expectValid(validateChatTool, output[0]);
  });

  it('sends strict output that passes the strict rules in always mode, each change a loss', () => {
    const { output, issues } = convertTools([realWorld], 'openai-responses', { strict: 'always' });
    expect(output[0].strict).toBe(true);
    expect(findStrictViolations(output[0].parameters)).toEqual([]);
    expect(output[0].output_schema).toEqual(realWorld.outputSchema);
    expect(lines(issues).filter((l) => l.startsWith('loss'))).toEqual([
      'loss search.docs /inputSchema/properties/tags strict_untyped_items',
      'loss search.docs /inputSchema/properties/filter strict_free_form_object',
    ]);
    expectValid(validateResponsesTool, output[0]);
  });

  it('sends Gemini a free-form object as JSON text and the output schema as response', () => {
    const { output, issues } = convertTools([realWorld], 'gemini');
    const decl = output.functionDeclarations[0];
    expect(findGeminiViolations(decl.parameters)).toEqual([]);
    expect(findGeminiViolations(decl.response)).toEqual([]);
    expect(decl.parameters?.properties).toMatchObject({ filter: { type: 'STRING' } });
    expect(lines(issues).filter((l) => l.startsWith('loss'))).toEqual([
      'loss search.docs /inputSchema/properties/tags gemini_untyped_items',
      'loss search.docs /inputSchema/properties/filter gemini_free_form_object',
    ]);
    const lossless = convertTools([realWorld], 'gemini', { geminiSchema: 'json-schema' });
    expect(lossless.output.functionDeclarations[0]).toMatchObject({
      parametersJsonSchema: realWorld.inputSchema,
      responseJsonSchema: realWorld.outputSchema,
    });
    expect(lossless.issues.filter((i) => i.severity === 'loss')).toEqual([]);
  });

  it('loses nothing from MCP to MCP: title, output schema, annotations, icons, execution, _meta', () => {
    const { output, issues } = convertTools([realWorld], 'mcp');
    expect(issues).toEqual([]);
    const { source: _source, ...declared } = realWorld;
    expect(output.tools[0]).toEqual(declared);
    const back = importDeclarations(output);
    expect(back.ok && back.value.tools[0]).toEqual(realWorld);
  });
});
