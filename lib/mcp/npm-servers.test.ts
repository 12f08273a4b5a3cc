/**
 * Real MCP servers from npm, started locally with no network —
 * server-filesystem and server-memory over stdio, server-everything over Streamable HTTP (and its
 * legacy SSE mode) bound to 127.0.0.1. Their tools are imported, counted, named, compiled with
 * the Ajv of their dialect, and turned into nodes that validate.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../result';
import type { ToolDeclaration } from '../tools/types';
import { buildNodeParameters } from '../workflow/params';
import { compileSchema, getSchemaDialect } from '../tools/schema-validator';
import { listMcpTools, openMcpSession, type McpProblem, type McpToolList } from './client';
import {
  filesystemServer,
  LOCAL_OPTIONS,
  memoryServer,
  startEverythingHttp,
  type RunningServer,
} from './__fixtures__/servers';

function unwrap(result: Result<McpToolList, McpProblem>): McpToolList {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Every input schema compiles with its dialect's Ajv, and a node with no args reports only missing required inputs. */
function expectUsableTools(tools: ToolDeclaration[]) {
  for (const tool of tools) {
    expect(getSchemaDialect(tool.inputSchema), tool.name).toBe('draft-07');
    expect(compileSchema(tool.inputSchema), tool.name).toMatchObject({ ok: true });
    if (tool.outputSchema) expect(compileSchema(tool.outputSchema), tool.name).toMatchObject({ ok: true });
    const node = buildNodeParameters(tool, {}, { connectedInputs: new Set() });
    const required = node.input_parameters.filter((p) => p.required).map((p) => p.name);
    expect(
      node.problems.filter((p) => p.code !== 'missing_required'),
      tool.name,
    ).toEqual([]);
    expect(node.problems.map((p) => p.param).sort(), tool.name).toEqual([...required].sort());
  }
}

const FILESYSTEM_TOOLS = [
  'read_file',
  'read_text_file',
  'read_media_file',
  'read_multiple_files',
  'write_file',
  'edit_file',
  'create_directory',
  'list_directory',
  'list_directory_with_sizes',
  'directory_tree',
  'move_file',
  'search_files',
  'get_file_info',
  'list_allowed_directories',
];

const MEMORY_TOOLS = [
  'create_entities',
  'create_relations',
  'add_observations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'read_graph',
  'search_nodes',
  'open_nodes',
];

// What server-everything offers a client that declares no capabilities (Toolflow declares none).
const EVERYTHING_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
  'simulate-research-query',
];

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  it('lists its 14 tools, all usable as nodes', async () => {
    const { target } = filesystemServer();
    const list = unwrap(await listMcpTools(target, LOCAL_OPTIONS));
    expect(list.transport).toBe('stdio');
    expect(list.tools.map((t) => t.name)).toEqual(FILESYSTEM_TOOLS);
    expect(list.warnings).toEqual([]);
    expect(list.tools.every((t) => t.source?.kind === 'mcp-stdio' && t.source.server === 'filesystem')).toBe(
      true,
    );
    expectUsableTools(list.tools);
  });

  it('builds a node for read_text_file that validates, and the call it describes works', async () => {
    const { target, root } = filesystemServer();
    const file = path.join(root, 'notes.txt');
    writeFileSync(file, 'hello from toolflow');
    const session = await openMcpSession(target, LOCAL_OPTIONS);
    if (!session.ok) throw new Error(session.error.message);
    try {
      const tool = unwrap(await session.value.listTools()).tools.find((t) => t.name === 'read_text_file')!;
      const node = buildNodeParameters(tool, { path: file }, { connectedInputs: new Set() });
      expect(node.problems).toEqual([]);
      expect(node.input_parameters.find((p) => p.name === 'path')).toMatchObject({
        value: file,
        origin: 'arg',
        required: true,
      });

      const args = Object.fromEntries(
        node.input_parameters.filter((p) => p.origin !== 'zero').map((p) => [p.name, p.value]),
      );
      const called = await session.value.callTool('read_text_file', args);
      if (!called.ok) throw new Error(called.error.message);
      expect(JSON.stringify(called.value.content)).toContain('hello from toolflow');
    } finally {
      await session.value.close();
    }
  });
});

describe('@modelcontextprotocol/server-memory over stdio', () => {
  it('lists its 9 tools, all usable as nodes', async () => {
    const list = unwrap(await listMcpTools(memoryServer(), LOCAL_OPTIONS));
    expect(list.tools.map((t) => t.name)).toEqual(MEMORY_TOOLS);
    expect(list.warnings).toEqual([]);
    expectUsableTools(list.tools);
  });

  it('builds a create_entities node whose nested array argument validates', async () => {
    const list = unwrap(await listMcpTools(memoryServer(), LOCAL_OPTIONS));
    const tool = list.tools.find((t) => t.name === 'create_entities')!;
    const good = buildNodeParameters(
      tool,
      { entities: [{ name: 'Cu', entityType: 'element', observations: ['fcc'] }] },
      { connectedInputs: new Set() },
    );
    expect(good.problems).toEqual([]);
    const bad = buildNodeParameters(tool, { entities: [{ name: 'Cu' }] }, { connectedInputs: new Set() });
    expect(bad.problems.map((p) => [p.code, p.param])).toContainEqual(['invalid_value', 'entities']);
  });
});

describe('@modelcontextprotocol/server-everything over HTTP on 127.0.0.1', () => {
  let http: RunningServer;
  let sse: RunningServer;
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
  });
  afterAll(async () => {
    await Promise.all([http?.close(), sse?.close()]);
  });

  it('lists its 13 tools over Streamable HTTP, all usable as nodes', async () => {
    const list = unwrap(await listMcpTools({ kind: 'http', url: http.url }, LOCAL_OPTIONS));
    expect(list.transport).toBe('streamable-http');
    expect(list.tools.map((t) => t.name)).toEqual(EVERYTHING_TOOLS);
    expect(list.tools[0].source).toEqual({ kind: 'mcp-http', server: http.url });
    expect(list.serverInfo?.name).toBeTruthy();
    expectUsableTools(list.tools);
  });

  it('refuses the same server when private addresses are not allowed', async () => {
    const result = await listMcpTools(
      { kind: 'http', url: http.url },
      { ...LOCAL_OPTIONS, allowPrivate: false },
    );
    expect(result).toMatchObject({
      ok: false,
      error: { step: 'connect', code: 'url_refused', server: http.url },
    });
    if (!result.ok) expect(result.error.message).toContain('loopback');
  });

  it('calls a tool and checks its structured output against its output schema', async () => {
    const session = await openMcpSession({ kind: 'http', url: http.url }, LOCAL_OPTIONS);
    if (!session.ok) throw new Error(session.error.message);
    try {
      await session.value.listTools();
      const sum = await session.value.callTool('get-sum', { a: 2, b: 3 });
      expect(sum.ok && JSON.stringify(sum.value.content)).toContain('5');
      const structured = await session.value.callTool('get-structured-content', { location: 'New York' });
      expect(structured).toMatchObject({ ok: true, value: { isError: false } });
      if (structured.ok) expect(structured.value.structuredContent).toHaveProperty('temperature');
    } finally {
      await session.value.close();
    }
  });

  it('falls back to the SSE transport for a server that only speaks it', async () => {
    const list = unwrap(await listMcpTools({ kind: 'http', url: sse.url }, LOCAL_OPTIONS));
    expect(list.transport).toBe('sse');
    expect(list.tools.map((t) => t.name)).toEqual(EVERYTHING_TOOLS);
  });

  it('says which step failed when nothing listens at the URL', async () => {
    const result = await listMcpTools(
      { kind: 'http', url: `http://127.0.0.1:${http.port}/nope` },
      LOCAL_OPTIONS,
    );
    expect(result).toMatchObject({ ok: false, error: { step: 'initialize', code: 'http_status' } });
  });
});
