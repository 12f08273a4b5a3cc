import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { startChangingHttpServer, type ChangingHttpServer } from '@/lib/mcp/__fixtures__/http-server';
import { FAKE_SERVER } from '@/lib/mcp/__fixtures__/servers';
import { hashDeclaration } from '@/lib/tools/canonical-json';
import type { ToolDeclaration } from '@/lib/tools/types';
import { buildNodeParameters } from '@/lib/workflow/params';
import { asNodeId, type WorkflowDocument } from '@/lib/workflow/types';
import { GET as list, POST as create } from './route';
import { DELETE as remove, GET as read } from './[id]/route';
import { POST as refresh } from './[id]/refresh/route';

const backends = await getTestBackends();

const geminiText = JSON.stringify({
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: {
        type: 'OBJECT',
        properties: {
          city: { type: 'STRING', description: 'City name' },
          units: { type: 'STRING', enum: ['metric', 'imperial'] },
        },
        required: ['city'],
      },
    },
  ],
});

const tool = (name: string, properties: Record<string, object> = { q: { type: 'string' } }) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object' as const, properties },
});

interface ToolkitJson {
  id: string;
  name: string;
  builtin: boolean;
  sourceKind: string;
  sourceRef: string | null;
  format: string | null;
  toolCount: number;
  contentHash: string;
  tools: ToolDeclaration[];
  runnable: boolean;
  runnableNote: string;
}

async function addToolkit(client: OwnerClient, body: unknown): Promise<ToolkitJson> {
  // A cookie first: additions are then counted for this owner, not for the one address that every
  // cookieless test client shares (the rate limit keys those by address).
  if (!client.cookie) await client.send(list, 'GET', '/api/toolkits');
  const res = await client.send(create, 'POST', '/api/toolkits', body);
  const json = await res.json();
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(json)}`);
  return json.toolkit;
}

describe.each(backends)('/api/toolkits on $name', (backend) => {
  let database: TestDatabase;
  let server: ChangingHttpServer;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
    server = await startChangingHttpServer([tool('search')]);
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  describe('GET', () => {
    it('gives a new browser the built-in toolkits with their tools, and the configured MCP server names only', async () => {
      vi.stubEnv(
        'TOOLFLOW_MCP_SERVERS',
        JSON.stringify({
          memory: { command: 'secret-binary', args: ['--token', 'x'], description: 'Knowledge graph' },
        }),
      );
      const res = await createOwnerClient().send(list, 'GET', '/api/toolkits');
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/^toolflow_owner=/);
      const body = await res.json();
      expect(body.toolkits.map((t: ToolkitJson) => [t.name, t.builtin])).toEqual([
        ['Materials science', true],
        ['Spreadsheet', true],
        ['Git', true],
        ['Memory (runnable sample)', true],
        ['Files (runnable sample)', true],
      ]);
      expect(body.toolkits[0].tools.map((t: ToolDeclaration) => t.name)).toContain('optimize_structure');
      // The operator's "memory" replaces the sample of that name; the filesystem sample stays.
      expect(body.mcpServers).toEqual([
        { name: 'memory', description: 'Knowledge graph' },
        { name: 'filesystem', description: expect.stringMatching(/^Sample: the MCP filesystem server/) },
      ]);
      expect(JSON.stringify(body)).not.toContain('secret-binary');
    });

    it('says which toolkits a test-run can call: the runnable samples, not the declarations', async () => {
      const res = await createOwnerClient().send(list, 'GET', '/api/toolkits');
      const body = await res.json();
      expect(body.toolkits.map((t: ToolkitJson) => [t.name, t.runnable])).toEqual([
        ['Materials science', false],
        ['Spreadsheet', false],
        ['Git', false],
        ['Memory (runnable sample)', true],
        ['Files (runnable sample)', true],
      ]);
      expect(body.toolkits[0].runnableNote).toBe('A sample to plan with; no server runs its tools.');
      // With the samples turned off, nothing here can run.
      vi.stubEnv('TOOLFLOW_SAMPLE_SERVERS', '0');
      const off = await (await createOwnerClient().send(list, 'GET', '/api/toolkits')).json();
      expect(off.toolkits.filter((t: ToolkitJson) => t.runnable)).toEqual([]);
    });
  });

  describe('POST from a declarations file', () => {
    it('adds a pasted Gemini file for its owner only', async () => {
      const alice = createOwnerClient();
      const toolkit = await addToolkit(alice, {
        name: 'Weather',
        text: geminiText,
        fileName: 'weather.json',
      });
      expect(toolkit).toMatchObject({
        name: 'Weather',
        builtin: false,
        sourceKind: 'file',
        sourceRef: 'weather.json',
        format: 'gemini',
        toolCount: 1,
      });
      expect(toolkit.tools[0]).toMatchObject({
        name: 'get_weather',
        source: { kind: 'file', toolkit: 'Weather' },
      });
      expect(toolkit.tools[0].inputSchema).toMatchObject({
        type: 'object',
        required: ['city'],
        properties: { city: { type: 'string' } },
      });

      const mine = await (await alice.send(list, 'GET', '/api/toolkits')).json();
      expect(mine.toolkits.map((t: ToolkitJson) => t.name)).toEqual([
        'Materials science',
        'Spreadsheet',
        'Git',
        'Memory (runnable sample)',
        'Files (runnable sample)',
        'Weather',
      ]);
      const bob = createOwnerClient();
      const theirs = await (await bob.send(list, 'GET', '/api/toolkits')).json();
      expect(theirs.toolkits.map((t: ToolkitJson) => t.name)).not.toContain('Weather');
      expect(
        (await bob.send(read, 'GET', `/api/toolkits/${toolkit.id}`, undefined, { id: toolkit.id })).status,
      ).toBe(403);
      expect(
        (await alice.send(read, 'GET', `/api/toolkits/${toolkit.id}`, undefined, { id: toolkit.id })).status,
      ).toBe(200);
    });

    it('adds parsed OpenAI Chat declarations', async () => {
      const declarations = [
        {
          type: 'function',
          function: {
            name: 'lookup',
            description: 'Look up',
            parameters: { type: 'object', properties: {} },
          },
        },
      ];
      const toolkit = await addToolkit(createOwnerClient(), { name: 'Lookup', declarations });
      expect(toolkit).toMatchObject({ format: 'openai-chat', toolCount: 1 });
    });

    it('refuses declarations it cannot read with 422 and every issue located', async () => {
      const res = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'Bad',
        declarations: {
          tools: [
            { name: 'ok', inputSchema: { type: 'object' } },
            { name: '', inputSchema: 'x' },
          ],
        },
      });
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.code).toBe('unprocessable:declarations');
      expect(body.issues.map((i: { path: string }) => i.path)).toEqual([
        '/tools/1/name',
        '/tools/1/inputSchema',
      ]);
      expect(body.message).toContain('/tools/1/name');
    });

    it('says on which line pasted JSON is broken', async () => {
      const res = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'Bad',
        text: '{"tools": [\n  {"name": "a",}\n]}',
      });
      expect(res.status).toBe(422);
      expect((await res.json()).message).toMatch(/line 2/);
    });

    it('asks for exactly one source', async () => {
      const none = await createOwnerClient().send(create, 'POST', '/api/toolkits', { name: 'Nothing' });
      expect(none.status).toBe(400);
      expect((await none.json()).code).toBe('bad_request:source');
      const two = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'Two',
        text: geminiText,
        mcpUrl: 'https://mcp.example.com/mcp',
      });
      expect((await two.json()).message).toContain('"text" and "mcpUrl"');
    });

    it('never takes a command from a request', async () => {
      const res = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'Shell',
        command: 'rm',
        args: ['-rf', '/'],
      });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain('command: is not a known field');
    });

    it('refuses a cross-site request', async () => {
      const res = await create(
        jsonRequest(
          '/api/toolkits',
          'POST',
          { name: 'X', text: geminiText },
          { origin: 'https://evil.example' },
        ),
      );
      expect(res.status).toBe(403);
    });
  });

  describe('POST from an MCP server URL', () => {
    it('refuses a loopback URL unless private addresses are allowed', async () => {
      const res = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'Local',
        mcpUrl: server.url,
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({
        code: 'bad_request:mcpUrl',
        mcp: { step: 'connect', code: 'url_refused', server: server.url },
      });
      expect(body.message).toContain('loopback');
    });

    it('refuses localhost by name', async () => {
      const res = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'Local',
        mcpUrl: 'http://localhost:3000/mcp',
      });
      expect(res.status).toBe(400);
    });

    it('lists the server’s tools when private addresses are allowed, and a refresh reports the change', async () => {
      vi.stubEnv('TOOLFLOW_MCP_ALLOW_PRIVATE', '1');
      const alice = createOwnerClient();
      await server.setTools([tool('search')]);
      const toolkit = await addToolkit(alice, { name: 'Search', mcpUrl: server.url });
      expect(toolkit).toMatchObject({
        sourceKind: 'mcp-http',
        sourceRef: server.url,
        format: 'mcp',
        toolCount: 1,
        runnable: true,
      });
      expect(toolkit.tools[0].source).toEqual({ kind: 'mcp-http', server: server.url, toolkit: 'Search' });

      // A workflow node built from the tool as it was…
      const before = toolkit.tools[0];
      const doc: WorkflowDocument = {
        task: 'search',
        nodes: [
          {
            id: asNodeId('n1'),
            tool: 'search',
            position: { x: 0, y: 0 },
            args: { q: 'copper' },
            toolHash: hashDeclaration(before),
          },
        ],
        edges: [],
        tools: { search: { declaration: before, hash: hashDeclaration(before) } },
      };

      // …then the server changes the tool's schema and adds another.
      await server.setTools([
        tool('search', { q: { type: 'string' }, limit: { type: 'integer', default: 10 } }),
        tool('fetch'),
      ]);
      const res = await alice.send(refresh, 'POST', `/api/toolkits/${toolkit.id}/refresh`, undefined, {
        id: toolkit.id,
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.toolkit.tools.map((t: ToolDeclaration) => t.name)).toEqual(['search', 'fetch']);
      expect(body.changes.added).toEqual(['fetch']);
      expect(body.changes.changed).toMatchObject([
        { name: 'search', diff: { added: [{ name: 'limit', type: 'int', required: false }] } },
      ]);

      const rebuilt = buildNodeParameters(body.toolkit.tools[0], doc.nodes[0].args, {
        connectedInputs: new Set(),
      });
      expect(rebuilt.input_parameters.map((p) => [p.name, p.value, p.origin])).toEqual([
        ['q', 'copper', 'arg'],
        ['limit', 10, 'default'],
      ]);
    });
  });

  describe('POST from a configured stdio MCP server', () => {
    it('lists the configured server by name', async () => {
      vi.stubEnv(
        'TOOLFLOW_MCP_SERVERS',
        JSON.stringify({ paged: { command: process.execPath, args: [FAKE_SERVER, 'paginate'] } }),
      );
      const toolkit = await addToolkit(createOwnerClient(), { name: 'Paged', mcpServer: 'paged' });
      expect(toolkit).toMatchObject({ sourceKind: 'mcp-stdio', sourceRef: 'paged', toolCount: 5 });
    });

    it('names the configured servers when the name is unknown', async () => {
      vi.stubEnv(
        'TOOLFLOW_MCP_SERVERS',
        JSON.stringify({ paged: { command: process.execPath, args: [FAKE_SERVER, 'paginate'] } }),
      );
      const res = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'X',
        mcpServer: 'nothing',
      });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain('configured servers: memory, filesystem, paged');
    });

    it('says which step failed for a server that does not start', async () => {
      vi.stubEnv(
        'TOOLFLOW_MCP_SERVERS',
        JSON.stringify({ broken: { command: process.execPath, args: [FAKE_SERVER, 'crash'] } }),
      );
      const res = await createOwnerClient().send(create, 'POST', '/api/toolkits', {
        name: 'X',
        mcpServer: 'broken',
      });
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body).toMatchObject({
        code: 'unprocessable:mcp_connect',
        mcp: { server: 'broken', step: 'connect', code: 'server_exited' },
      });
    });
  });

  describe('refresh', () => {
    it('takes the new file for a file toolkit, and asks for it when missing', async () => {
      const alice = createOwnerClient();
      const toolkit = await addToolkit(alice, { name: 'Weather', text: geminiText });
      const missing = await alice.send(refresh, 'POST', `/api/toolkits/${toolkit.id}/refresh`, undefined, {
        id: toolkit.id,
      });
      expect(missing.status).toBe(400);
      expect((await missing.json()).message).toContain('send the new file');

      const next = JSON.parse(geminiText);
      next.functionDeclarations[0].parameters.properties.days = { type: 'INTEGER' };
      const res = await alice.send(
        refresh,
        'POST',
        `/api/toolkits/${toolkit.id}/refresh`,
        { text: JSON.stringify(next) },
        { id: toolkit.id },
      );
      expect(res.status).toBe(200);
      expect((await res.json()).changes.changed).toMatchObject([
        { name: 'get_weather', diff: { added: [{ name: 'days', type: 'int' }] } },
      ]);
    });

    it('re-syncs a built-in toolkit with nothing to report', async () => {
      const res = await createOwnerClient().send(
        refresh,
        'POST',
        '/api/toolkits/tk_builtin_git/refresh',
        undefined,
        { id: 'tk_builtin_git' },
      );
      expect(res.status).toBe(200);
      expect((await res.json()).changes).toEqual({ added: [], removed: [], changed: [] });
    });

    it('refuses someone else’s toolkit', async () => {
      const toolkit = await addToolkit(createOwnerClient(), { name: 'Mine', text: geminiText });
      const res = await createOwnerClient().send(
        refresh,
        'POST',
        `/api/toolkits/${toolkit.id}/refresh`,
        { text: geminiText },
        { id: toolkit.id },
      );
      expect(res.status).toBe(403);
    });
  });

  describe('DELETE', () => {
    it('removes my toolkit, then 404', async () => {
      const alice = createOwnerClient();
      const toolkit = await addToolkit(alice, { name: 'Temp', text: geminiText });
      expect(
        (
          await createOwnerClient().send(remove, 'DELETE', `/api/toolkits/${toolkit.id}`, undefined, {
            id: toolkit.id,
          })
        ).status,
      ).toBe(403);
      expect(
        (await alice.send(remove, 'DELETE', `/api/toolkits/${toolkit.id}`, undefined, { id: toolkit.id }))
          .status,
      ).toBe(204);
      const gone = await alice.send(read, 'GET', `/api/toolkits/${toolkit.id}`, undefined, {
        id: toolkit.id,
      });
      expect(gone.status).toBe(404);
      expect((await gone.json()).code).toBe('not_found:toolkit');
    });

    it('refuses to delete a built-in toolkit', async () => {
      const res = await createOwnerClient().send(
        remove,
        'DELETE',
        '/api/toolkits/tk_builtin_materials',
        undefined,
        { id: 'tk_builtin_materials' },
      );
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('forbidden:builtin_toolkit');
    });
  });
});
