import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToolkit, deleteToolkit, fetchToolkits, refreshToolkit } from './toolkits-client';

const tool = { name: 'git_status', description: 'Status', inputSchema: { type: 'object', properties: {} } };

function answer(status: number, body: unknown) {
  const mock = vi.fn(async () =>
    body === null ? new Response(null, { status }) : Response.json(body, { status }),
  );
  vi.stubGlobal('fetch', mock);
  return mock;
}

afterEach(() => vi.unstubAllGlobals());

describe('fetchToolkits', () => {
  it('reads toolkits with their tools and the configured MCP servers', async () => {
    answer(200, {
      toolkits: [
        {
          id: 'tk_1',
          name: 'Git',
          sourceKind: 'builtin',
          builtin: true,
          contentHash: 'h',
          tools: [tool, { bad: 1 }],
        },
      ],
      mcpServers: [{ name: 'memory', description: 'Knowledge graph' }, { nope: true }],
    });
    const result = await fetchToolkits();
    expect(result).toEqual({
      ok: true,
      value: {
        toolkits: [
          {
            id: 'tk_1',
            name: 'Git',
            sourceKind: 'builtin',
            sourceRef: null,
            format: null,
            contentHash: 'h',
            fetchedAt: null,
            builtin: true,
            tools: [tool],
          },
        ],
        mcpServers: [{ name: 'memory', description: 'Knowledge graph' }],
      },
    });
  });

  it('says what failed and what to do when the server does not answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const result = await fetchToolkits();
    expect(result).toEqual({
      ok: false,
      message:
        'Loading toolkits failed: the server did not answer (Failed to fetch). Check your connection and try again.',
    });
  });
});

describe('createToolkit', () => {
  it('posts pasted text with its name and returns the new toolkit', async () => {
    const mock = answer(201, { toolkit: { id: 'tk_2', name: 'Mine', sourceKind: 'file', tools: [tool] } });
    const result = await createToolkit({ kind: 'file', name: 'Mine', text: '{"functionDeclarations": []}' });
    expect(result.ok && result.value.id).toBe('tk_2');
    const [url, init] = mock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/toolkits');
    expect(JSON.parse(init.body as string)).toEqual({ name: 'Mine', text: '{"functionDeclarations": []}' });
  });

  it('lists every declaration issue after the message, without repeating the first', async () => {
    answer(422, {
      code: 'unprocessable:declarations',
      message:
        'The tool declarations could not be read. /0/name: a tool needs a name (1 more problem listed in "issues")',
      issues: [
        { path: '/0/name', message: 'a tool needs a name' },
        { path: '/1/parameters', message: 'parameters must be an object' },
      ],
    });
    const result = await createToolkit({ kind: 'file', name: 'Bad', text: '[]' });
    expect(result).toEqual({
      ok: false,
      message:
        'The tool declarations could not be read. /0/name: a tool needs a name (1 more problem listed in "issues")\n/1/parameters: parameters must be an object',
    });
  });

  it('sends an MCP URL as mcpUrl', async () => {
    const mock = answer(201, { toolkit: { id: 'tk_3', name: 'Everything', tools: [] } });
    await createToolkit({ kind: 'mcp-http', name: 'Everything', url: 'http://127.0.0.1:3001/mcp' });
    const [, init] = mock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({
      name: 'Everything',
      mcpUrl: 'http://127.0.0.1:3001/mcp',
    });
  });
});

describe('refreshToolkit and deleteToolkit', () => {
  it('refreshes with the new file text and deletes by id', async () => {
    const mock = answer(200, { toolkit: { id: 'tk_2', name: 'Mine', tools: [] } });
    expect((await refreshToolkit('tk_2', '[]')).ok).toBe(true);
    expect((mock.mock.calls[0] as unknown as [string])[0]).toBe('/api/toolkits/tk_2/refresh');
    answer(204, null);
    expect(await deleteToolkit('tk_2')).toEqual({ ok: true, value: null });
  });
});
