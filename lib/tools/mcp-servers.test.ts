/**
 * The real MCP servers' tool lists (server-everything, server-memory, server-filesystem over
 * stdio) imported as tools/list results and rendered to every target: Chat and Responses output
 * must validate against the official OpenAI schemas, Gemini output must hold nothing outside
 * Gemini's schema subset, and everything must import back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGeminiViolations } from './__fixtures__/gemini-subset';
import { readFixtureJson } from '../../tests/fixtures/index';
import { compileSpecSchema, describeErrors } from './__fixtures__/openai-spec';
import { decodePointer } from '../result';
import { createToolAliases, getToolNamePattern, OPENAI_TOOL_NAME_PATTERN } from './aliases';
import { importDeclarations } from './import';
import { convertTools, renderTools } from './render';
import { findStrictViolations } from './__fixtures__/openai-strict';
import { toStrictSchema } from './strict-schema';
import type { ToolDeclaration } from './types';

const chatToolSpec = readFixtureJson<object>('spec/openai/ChatCompletionTool.json');
const chatToolFieldsSpec = readFixtureJson<object>('spec/openai/ChatCompletionsToolFields.json');
const functionToolSpec = readFixtureJson<object>('spec/openai/FunctionTool.json');

const validateChatTool = compileSpecSchema(chatToolSpec);
const validateResponsesTool = compileSpecSchema(functionToolSpec);
const validateChatFields = compileSpecSchema(chatToolFieldsSpec);

const modules = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../node_modules/@modelcontextprotocol',
);

interface ServerSpec {
  name: string;
  args: string[];
  env?: Record<string, string>;
  /** server-everything lists more tools to a client that declares these capabilities. */
  capabilities?: Record<string, object>;
  /** Tools the test relies on being there. */
  expectTools: string[];
}

const tempDirs: string[] = [];
function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Start a server over stdio, list its tools (the raw tools/list result) and stop it. */
async function listTools(spec: ServerSpec): Promise<unknown> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: spec.args,
    env: { PATH: process.env.PATH ?? '', ...spec.env },
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'toolflow-test', version: '0.0.0' },
    { capabilities: spec.capabilities ?? {} },
  );
  await client.connect(transport);
  try {
    const result = await client.listTools();
    // Only what a tools/list answer carries, as JSON (drops SDK-side undefined members).
    return JSON.parse(JSON.stringify({ tools: result.tools }));
  } finally {
    await client.close();
  }
}

const lists = new Map<string, { raw: unknown; tools: ToolDeclaration[] }>();

beforeAll(async () => {
  const memoryDir = makeTempDir('toolflow-memory-');
  const fsRoot = makeTempDir('toolflow-fs-');
  const specs: ServerSpec[] = [
    {
      name: 'everything',
      args: [path.join(modules, 'server-everything/dist/index.js'), 'stdio'],
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
      expectTools: ['echo', 'get-sum'],
    },
    {
      name: 'memory',
      args: [path.join(modules, 'server-memory/dist/index.js')],
      env: { MEMORY_FILE_PATH: path.join(memoryDir, 'memory.jsonl') },
      expectTools: ['create_entities', 'read_graph'],
    },
    {
      name: 'filesystem',
      args: [path.join(modules, 'server-filesystem/dist/index.js'), fsRoot],
      expectTools: ['read_text_file', 'write_file', 'list_directory'],
    },
  ];
  // One at a time: the machine's two cores are shared.
  for (const spec of specs) {
    const raw = await listTools(spec);
    const imported = importDeclarations(raw, { source: { kind: 'mcp-stdio', server: spec.name } });
    if (!imported.ok) throw new Error(`${spec.name}: ${JSON.stringify(imported.error)}`);
    expect(imported.value.format).toBe('mcp');
    for (const name of spec.expectTools) expect(imported.value.tools.map((t) => t.name)).toContain(name);
    lists.set(spec.name, { raw, tools: imported.value.tools });
  }
}, 120_000);

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(['everything', 'memory', 'filesystem'])('the %s server tool list', (server) => {
  const get = () => lists.get(server)!;

  it('imports every tool with an object input schema and its source', () => {
    const { raw, tools } = get();
    expect(tools.length).toBe((raw as { tools: unknown[] }).tools.length);
    expect(tools.length).toBeGreaterThan(2);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.source).toEqual({ kind: 'mcp-stdio', server });
    }
  });

  it('renders Chat tools that validate against ChatCompletionTool, plain and strict', () => {
    const { tools } = get();
    for (const strict of [false, true, 'auto' as const]) {
      const chat = renderTools(tools, 'openai-chat', { strict });
      for (const tool of chat) {
        expect(validateChatTool(tool), `${tool.function.name}: ${describeErrors(validateChatTool)}`).toBe(
          true,
        );
        expect(tool.function.name).toMatch(OPENAI_TOOL_NAME_PATTERN);
      }
      expect(validateChatFields({ tools: chat }), describeErrors(validateChatFields)).toBe(true);
    }
  });

  it('renders Responses tools that validate against FunctionTool, plain and strict', () => {
    const { tools } = get();
    for (const strict of [false, true]) {
      for (const tool of renderTools(tools, 'openai-responses', { strict })) {
        expect(validateResponsesTool(tool), `${tool.name}: ${describeErrors(validateResponsesTool)}`).toBe(
          true,
        );
        expect(tool.strict).toBe(strict);
      }
    }
  });

  it('renders Gemini declarations with no $ref and nothing outside the Gemini subset', () => {
    const { tools } = get();
    const { functionDeclarations } = renderTools(tools, 'gemini');
    expect(functionDeclarations).toHaveLength(tools.length);
    for (const decl of functionDeclarations) {
      expect(decl.name).toMatch(getToolNamePattern('gemini')!);
      if (decl.parameters) expect(findGeminiViolations(decl.parameters), decl.name).toEqual([]);
      expect(JSON.stringify(decl)).not.toMatch(
        /"\$ref"|"\$schema"|"additionalProperties"|"\$defs"|"definitions"/,
      );
    }
  });

  it('renders every target so that it imports back with the same tools', () => {
    const { tools } = get();
    const names = tools.map((t) => t.name);
    for (const target of ['openai-chat', 'openai-responses', 'anthropic', 'mcp', 'gemini'] as const) {
      const result = importDeclarations(JSON.parse(JSON.stringify(renderTools(tools, target))));
      if (!result.ok) throw new Error(`${target}: ${JSON.stringify(result.error)}`);
      const pattern = getToolNamePattern(target);
      const aliases = pattern ? createToolAliases(tools, { pattern }) : undefined;
      expect(
        result.value.tools.map((t) => (aliases ? aliases.fromAlias(t.name) : t.name)),
        target,
      ).toEqual(names);
      expect(
        result.value.tools.map((t) => t.description),
        target,
      ).toEqual(tools.map((t) => t.description || t.title || ''));
      if (target !== 'gemini')
        expect(
          result.value.tools.map((t) => t.inputSchema),
          target,
        ).toEqual(tools.map((t) => t.inputSchema));
    }
  });

  it('lists every tool and every parameter in the prompt catalogue', () => {
    const { tools } = get();
    const text = renderTools(tools, 'prompt');
    expect(text).toContain(`# Available tools (${tools.length})`);
    for (const tool of tools) {
      expect(text).toContain(`## ${tool.name}\n`);
      for (const name of Object.keys((tool.inputSchema.properties as object) ?? {}))
        expect(text).toMatch(new RegExp(`^\\s*- ${name} \\(`, 'm'));
    }
    expect(text).toContain(`Source: mcp-stdio, server "${server}"`);
  });

  it('converts to strict mode with every loss reported by path', () => {
    for (const tool of get().tools) {
      const { schema, issues } = toStrictSchema(tool.inputSchema);
      expect(schema.additionalProperties).toBe(false);
      expect(schema.required).toEqual(Object.keys((schema.properties as object) ?? {}));
      for (const issue of issues) expect(issue.path === '' || issue.path.startsWith('/')).toBe(true);
    }
  });
});

describe.each(['everything', 'memory', 'filesystem'])('converting the %s server', (server) => {
  const get = () => lists.get(server)!;
  /** The value a conversion issue's path points at in the declaration, or undefined. */
  const at = (tool: ToolDeclaration, pointer: string): unknown =>
    decodePointer(pointer).reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as never)[key] : undefined),
      tool,
    );

  it('sends strict tools that pass the strict rules, and says why the others are not strict', () => {
    const { tools } = get();
    for (const strict of ['auto', 'always'] as const) {
      const { output, issues } = convertTools(tools, 'openai-chat', { strict });
      output.forEach((rendered, i) => {
        if (rendered.function.strict)
          expect(findStrictViolations(rendered.function.parameters), tools[i].name).toEqual([]);
        else
          expect(
            issues.some((issue) => issue.tool === tools[i].name && issue.path.startsWith('/inputSchema')),
          ).toBe(true);
        expect(validateChatTool(rendered), describeErrors(validateChatTool)).toBe(true);
      });
      for (const issue of issues) {
        const tool = tools.find((t) => t.name === issue.tool)!;
        expect(at(tool, issue.path), `${issue.tool} ${issue.path}`).not.toBe(undefined);
      }
    }
  });

  it('gives Gemini parameters and responses inside its subset, every change named', () => {
    const { tools } = get();
    const { output, issues } = convertTools(tools, 'gemini');
    for (const decl of output.functionDeclarations) {
      if (decl.parameters) expect(findGeminiViolations(decl.parameters), decl.name).toEqual([]);
      if (decl.response) expect(findGeminiViolations(decl.response), decl.name).toEqual([]);
    }
    for (const issue of issues) {
      const tool = tools.find((t) => t.name === issue.tool)!;
      expect(at(tool, issue.path), `${issue.tool} ${issue.path}`).not.toBe(undefined);
    }
    const lossless = convertTools(tools, 'gemini', { geminiSchema: 'json-schema' });
    expect(lossless.issues.filter((i) => i.severity === 'loss')).toEqual([]);
  });

  it('keeps output schemas through Responses and Gemini, and says Chat and Anthropic drop them', () => {
    const { tools } = get();
    const withOutputs = tools.filter((t) => t.outputSchema !== undefined);
    for (const target of ['openai-responses', 'gemini'] as const) {
      const back = importDeclarations(
        JSON.parse(JSON.stringify(convertTools(tools, target, { geminiSchema: 'json-schema' }).output)),
      );
      if (!back.ok) throw new Error(JSON.stringify(back.error));
      for (const tool of withOutputs)
        expect(
          back.value.tools.find((t) => t.description === (tool.description || tool.title || ''))
            ?.outputSchema,
        ).toEqual(tool.outputSchema);
    }
    for (const target of ['openai-chat', 'anthropic'] as const) {
      const { issues } = convertTools(tools, target);
      for (const tool of withOutputs)
        expect(issues.some((i) => i.tool === tool.name && i.path === '/outputSchema')).toBe(true);
    }
  });

  it('goes from MCP to MCP with nothing lost, the MCP Tool fields included', () => {
    const { raw, tools } = get();
    const { output, issues } = convertTools(tools, 'mcp');
    expect(issues).toEqual([]);
    const rawTools = (raw as { tools: Record<string, unknown>[] }).tools;
    output.tools.forEach((tool, i) => {
      for (const key of ['title', 'annotations', 'icons', 'execution', '_meta', 'outputSchema'])
        expect((tool as unknown as Record<string, unknown>)[key], `${tool.name} ${key}`).toEqual(
          rawTools[i][key],
        );
    });
  });
});
