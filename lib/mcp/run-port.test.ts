/**
 * Test-runs against real MCP servers from npm: the memory chain, a filesystem chain
 * with a wired path, server-everything's structured content, image and error results over
 * Streamable HTTP, and the faults a server can cause (exit mid-run, a call that outlasts its
 * timeout). Every run ends in a final state with every node accounted for.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_NODE_STATUSES, type NodeRunRecord, type RunLimits } from '../run/types';
import { buildExport } from '../run/__fixtures__/exports';
import type { WorkflowExportV1 } from '../workflow/types';
import { BUILTIN_TOOLKITS } from '../toolkits/builtin';
import type { ToolDeclaration } from '../tools/types';
import { listMcpTools } from './client';
import { getConfiguredStdioTarget } from './config';
import { planRunHere, runExportHere } from './run-port';
import { startChangingHttpServer, type ChangingHttpServer } from './__fixtures__/http-server';
import { getSampleSpace, getSampleSpaceDir } from './sample-spaces';
import {
  LOCAL_OPTIONS,
  runServerConfig,
  startEverythingHttp,
  type RunningServer,
} from './__fixtures__/servers';

const LIMITS: RunLimits = {
  concurrency: 4,
  nodeTimeoutMs: 15_000,
  serverStartTimeoutMs: 15_000,
  runTimeoutMs: 60_000,
  maxResultBytes: 262_144,
};
const sampleTools = (key: string) => BUILTIN_TOOLKITS.find((k) => k.key === key)!.tools;
const statuses = (nodes: NodeRunRecord[]) => Object.fromEntries(nodes.map((n) => [n.nodeId, n.status]));

/** Plans `file` here, then runs it as planned (what the API and `toolflow run` do, in one). */
async function runHere(file: WorkflowExportV1, options: Parameters<typeof runExportHere>[2]) {
  return runExportHere(file, await planRunHere(file, options), options);
}

function sampleEnv() {
  return { TOOLFLOW_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'toolflow-run-')) };
}
const space = getSampleSpace('own_runner');

describe('the runnable samples', () => {
  it('carry exactly the tools their servers list today', async () => {
    const env = sampleEnv();
    for (const [key, server] of [
      ['memory', 'memory'],
      ['files', 'filesystem'],
    ]) {
      const target = await getConfiguredStdioTarget(server, { env, space });
      if (!target.ok) throw new Error(target.error[0].message);
      const listed = await listMcpTools(target.value, LOCAL_OPTIONS);
      if (!listed.ok) throw new Error(listed.error.message);
      const strip = (tools: ToolDeclaration[]) => tools.map(({ source: _source, ...rest }) => rest);
      // A newer server package changed its tools: refresh lib/toolkits/builtin/mcp-*.json from it.
      expect(JSON.stringify(strip(sampleTools(key)))).toBe(JSON.stringify(strip(listed.value.tools)));
    }
  });
});

describe('a memory chain: create_entities → create_relations → read_graph', () => {
  it('runs green and the last node holds the graph', async () => {
    const env = sampleEnv();
    const file = buildExport(
      {
        steps: [
          {
            id: 'create',
            tool: 'create_entities',
            args: {
              entities: [
                { name: 'Alice', entityType: 'person', observations: [] },
                { name: 'Bob', entityType: 'person', observations: [] },
              ],
            },
          },
          {
            id: 'relate',
            tool: 'create_relations',
            args: { relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }] },
          },
          { id: 'read', tool: 'read_graph', args: {} },
        ],
      },
      sampleTools('memory'),
    );
    const outcome = await runHere(file, { client: LOCAL_OPTIONS, config: { env, space }, limits: LIMITS });
    expect(statuses(outcome.nodes)).toEqual({ create: 'succeeded', relate: 'succeeded', read: 'succeeded' });
    expect(outcome.nodes[2].result?.structuredContent).toEqual({
      entities: [
        { name: 'Alice', entityType: 'person', observations: [] },
        { name: 'Bob', entityType: 'person', observations: [] },
      ],
      relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }],
    });
    // Sent exactly as exported: the configured value of the one parameter.
    expect(JSON.stringify(outcome.nodes[0].arguments)).toBe(
      JSON.stringify({ entities: file.nodes[0].input_parameters[0].value }),
    );
    const home = getSampleSpaceDir(env.TOOLFLOW_DATA_DIR, space);
    expect(readFileSync(path.join(home, 'memory', 'memory.jsonl'), 'utf8')).toContain('"knows"');
  });
});

describe('a filesystem chain: write, then read through a wired path', () => {
  it('reads back what it wrote, inside the sample folder only', async () => {
    const env = sampleEnv();
    const root = path.join(getSampleSpaceDir(env.TOOLFLOW_DATA_DIR, space), 'files');
    // A relative path resolves inside the space's folder, the server's only allowed directory.
    const flat = buildExport(
      {
        steps: [
          { id: 'write', tool: 'write_file', args: { path: 'hello.txt', content: 'hello from a run' } },
          { id: 'find', tool: 'search_files', args: { path: '.', pattern: 'hello.txt' } },
          { id: 'read', tool: 'read_text_file', args: { path: '{{find.content}}' } },
          { id: 'escape', tool: 'read_text_file', args: { path: '/etc/hostname' } },
        ],
      },
      sampleTools('files'),
    );
    const run = await runHere(flat, { client: LOCAL_OPTIONS, config: { env, space }, limits: LIMITS });
    expect(statuses(run.nodes)).toEqual({
      write: 'succeeded',
      find: 'succeeded',
      read: 'succeeded',
      escape: 'failed',
    });
    expect(run.nodes[2].arguments).toEqual({ path: path.join(root, 'hello.txt') });
    expect(run.nodes[2].result?.structuredContent).toEqual({ content: 'hello from a run' });
    expect(run.nodes[3].error?.message).toBe(
      '/etc/hostname is outside the folder this server may use; give a path inside it.',
    );
    expect(run.nodes[3].error?.detail).toMatch(/outside allowed directories|Access denied/i);
  });
});

describe('server-everything over Streamable HTTP', () => {
  let server: RunningServer;
  let tools: ToolDeclaration[];
  beforeAll(async () => {
    server = await startEverythingHttp('streamableHttp');
    const listed = await listMcpTools({ kind: 'http', url: server.url }, LOCAL_OPTIONS);
    if (!listed.ok) throw new Error(listed.error.message);
    tools = listed.value.tools;
  }, 30_000);
  afterAll(() => server?.close());

  it('passes structuredContent along an edge, shows an image, and fails a tool error without stopping the rest', async () => {
    const file = buildExport(
      {
        steps: [
          { id: 'weather', tool: 'get-structured-content', args: { location: 'Chicago' } },
          { id: 'echo', tool: 'echo', args: { message: '{{weather.conditions}}' } },
          { id: 'image', tool: 'get-tiny-image', args: {} },
          {
            id: 'broken',
            tool: 'gzip-file-as-resource',
            args: { name: 'x.gz', data: 'file:///etc/hostname' },
          },
          { id: 'after', tool: 'echo', args: { message: '{{broken.result}}' } },
        ],
      },
      tools,
    );
    const outcome = await runHere(file, { client: LOCAL_OPTIONS, limits: LIMITS });
    expect(statuses(outcome.nodes)).toEqual({
      weather: 'succeeded',
      echo: 'succeeded',
      image: 'succeeded',
      broken: 'failed',
      after: 'skipped',
    });
    expect(outcome.nodes[0].result?.structuredContent).toMatchObject({ conditions: 'Light rain / drizzle' });
    expect(outcome.nodes[1].arguments).toEqual({ message: 'Light rain / drizzle' });
    const image = outcome.nodes[2].result?.content.find((b) => b.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(String(image?.data).length).toBeGreaterThan(100);
    expect(outcome.nodes[3].error).toMatchObject({ code: 'tool_error' });
    expect(outcome.nodes[3].error?.message).toContain('Unsupported URL protocol');
  });

  it('refuses a private URL unless private addresses are allowed, before calling anything', async () => {
    const file = buildExport({ steps: [{ id: 'e', tool: 'echo', args: { message: 'hi' } }] }, tools);
    const plan = await planRunHere(file, { client: { ...LOCAL_OPTIONS, allowPrivate: false } });
    expect(plan.nodes[0].blocked).toMatchObject({ code: 'server_unavailable' });
  });
});

describe('faults', () => {
  const faultTools: ToolDeclaration[] = ['echo', 'sleep', 'exit'].map((name) => ({
    name,
    description: name,
    inputSchema:
      name === 'echo'
        ? { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }
        : name === 'sleep'
          ? { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] }
          : { type: 'object', properties: {} },
    source: { kind: 'mcp-stdio', server: 'faulty' },
  }));

  it('a server that exits mid-run fails that node, skips its dependants and restarts for the next', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'toolflow-log-')), 'calls.jsonl');
    writeFileSync(log, '');
    const env = { TOOLFLOW_MCP_SERVERS: runServerConfig('faulty', log), TOOLFLOW_SAMPLE_SERVERS: '0' };
    const file = buildExport(
      {
        steps: [
          { id: 'before', tool: 'echo', args: { text: 'one' } },
          { id: 'crash', tool: 'exit', args: {} },
          { id: 'fed', tool: 'echo', args: { text: '{{crash.result}}' } },
          { id: 'later', tool: 'echo', args: { text: 'two' } },
        ],
      },
      faultTools,
    );
    const outcome = await runHere(file, { client: LOCAL_OPTIONS, config: { env, space }, limits: LIMITS });
    expect(statuses(outcome.nodes)).toEqual({
      before: 'succeeded',
      crash: 'failed',
      fed: 'skipped',
      later: 'succeeded',
    });
    expect(outcome.nodes[1].error?.code).toBe('server_exited');
    expect(outcome.nodes.every((n) => FINAL_NODE_STATUSES.has(n.status))).toBe(true);
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).name);
    expect(calls).toEqual(['echo', 'exit', 'echo']);
  });

  it('a call that outlasts the per-node timeout fails that node only', async () => {
    const env = { TOOLFLOW_MCP_SERVERS: runServerConfig(), TOOLFLOW_SAMPLE_SERVERS: '0' };
    const file = buildExport(
      {
        steps: [
          { id: 'slow', tool: 'sleep', args: { ms: 5_000 } },
          { id: 'quick', tool: 'sleep', args: { ms: 10 } },
        ],
      },
      faultTools,
    );
    const started = Date.now();
    const outcome = await runHere(file, {
      client: LOCAL_OPTIONS,
      config: { env },
      limits: { ...LIMITS, nodeTimeoutMs: 300 },
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(statuses(outcome.nodes)).toEqual({ slow: 'failed', quick: 'succeeded' });
    expect(outcome.nodes[0].error?.code).toBe('timeout');
  });

  it("gives a server's start-up its own limit: a slow start does not count against the step", async () => {
    const env = {
      TOOLFLOW_MCP_SERVERS: runServerConfig('faulty', undefined, { RUN_SERVER_START_DELAY_MS: '800' }),
      TOOLFLOW_SAMPLE_SERVERS: '0',
    };
    const file = buildExport({ steps: [{ id: 'e', tool: 'echo', args: { text: 'x' } }] }, faultTools);
    const outcome = await runHere(file, {
      client: LOCAL_OPTIONS,
      config: { env },
      limits: { ...LIMITS, nodeTimeoutMs: 300, serverStartTimeoutMs: 10_000 },
    });
    expect(statuses(outcome.nodes)).toEqual({ e: 'succeeded' });
  });

  it('fails a step whose server does not start within the start-up limit, and calls nothing', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'toolflow-log-')), 'calls.jsonl');
    writeFileSync(log, '');
    const env = {
      TOOLFLOW_MCP_SERVERS: runServerConfig('faulty', log, { RUN_SERVER_START_DELAY_MS: '5000' }),
      TOOLFLOW_SAMPLE_SERVERS: '0',
    };
    const file = buildExport({ steps: [{ id: 'e', tool: 'echo', args: { text: 'x' } }] }, faultTools);
    const started = Date.now();
    const outcome = await runHere(file, {
      client: LOCAL_OPTIONS,
      config: { env },
      limits: { ...LIMITS, serverStartTimeoutMs: 300 },
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(outcome.nodes[0]).toMatchObject({ status: 'failed', error: { code: 'server_start_timeout' } });
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('says which server is not configured here and calls nothing', async () => {
    const env = { TOOLFLOW_MCP_SERVERS: '{}', TOOLFLOW_SAMPLE_SERVERS: '0' };
    const file = buildExport({ steps: [{ id: 'e', tool: 'echo', args: { text: 'x' } }] }, faultTools);
    const outcome = await runHere(file, { client: LOCAL_OPTIONS, config: { env, space }, limits: LIMITS });
    expect(outcome.nodes[0]).toMatchObject({ status: 'failed', error: { code: 'server_unavailable' } });
    expect(outcome.nodes[0].error?.message).toContain('No MCP server named "faulty"');
  });
});

describe('the URL guard in a run', () => {
  let server: ChangingHttpServer;
  beforeAll(async () => {
    const tool = (name: string) => ({ name, description: name, inputSchema: { type: 'object' as const } });
    server = await startChangingHttpServer([tool('one'), tool('two')]);
  });
  afterAll(() => server?.close());

  it('resolves and checks a server once when the run is planned and once when the run connects', async () => {
    // A host name the test resolves itself, to 127.0.0.1: each resolution is one run of the guard's
    // DNS check; every request of a connection is still checked and pinned to those addresses.
    const url = `http://mcp.test:${new URL(server.url).port}/mcp`;
    const lookups: string[] = [];
    const client = {
      ...LOCAL_OPTIONS,
      allowPrivate: false,
      allowHosts: ['mcp.test'],
      resolve: async (hostname: string) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    };
    const source = { kind: 'mcp-http' as const, server: url, toolkit: 'Test' };
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'one', args: {} },
          { id: 'b', tool: 'two', args: {} },
        ],
      },
      [
        { name: 'one', description: 'one', inputSchema: { type: 'object' }, source },
        { name: 'two', description: 'two', inputSchema: { type: 'object' }, source },
      ],
    );
    const plan = await planRunHere(file, { client });
    expect(lookups).toEqual(['mcp.test']);
    const outcome = await runExportHere(file, plan, { client, limits: { ...LIMITS, concurrency: 1 } });
    // The test server has no tools/call handler: each call reaches it and is answered with an error.
    expect(outcome.nodes.map((n) => n.error?.detail)).toEqual([
      expect.stringContaining('Method not found'),
      expect.stringContaining('Method not found'),
    ]);
    expect(lookups).toEqual(['mcp.test', 'mcp.test']);
  });

  it('still refuses, when the run connects, a host that resolves to a private address by then', async () => {
    const url = `http://rebind.test:${new URL(server.url).port}/mcp`;
    let answer = '93.184.215.14'; // public: the pre-flight only resolves, it connects to nothing
    const client = {
      ...LOCAL_OPTIONS,
      allowPrivate: false,
      resolve: async () => [{ address: answer, family: 4 }],
    };
    const source = { kind: 'mcp-http' as const, server: url, toolkit: 'Test' };
    const file = buildExport({ steps: [{ id: 'a', tool: 'one', args: {} }] }, [
      { name: 'one', description: 'one', inputSchema: { type: 'object' }, source },
    ]);
    const plan = await planRunHere(file, { client });
    expect(plan.nodes[0].blocked).toBeUndefined();
    answer = '127.0.0.1';
    const outcome = await runExportHere(file, plan, { client, limits: LIMITS });
    expect(outcome.nodes[0]).toMatchObject({ status: 'failed' });
    expect(outcome.nodes[0].error?.detail).toContain('127.0.0.1');
  });
});
