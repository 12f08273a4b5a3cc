import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi, describeApiError } from './client';
import { openPlanStream } from './plan';
import { createToolkit, deleteToolkit, listToolkits, refreshToolkit } from './toolkits';
import {
  createShare,
  createWorkflow,
  forkShared,
  importWorkflow,
  restoreRevision,
  saveWorkflow,
} from './workflows';

const tool = { name: 'git_status', description: 'Status', inputSchema: { type: 'object', properties: {} } };

/** Answers every request with `status` and `body` (null: no body), recording the calls. */
function answer(status: number, body: unknown) {
  const mock = vi.fn(async (_url: string, _init: RequestInit) =>
    body === null ? new Response(null, { status }) : Response.json(body, { status }),
  );
  vi.stubGlobal('fetch', mock);
  return mock;
}

const sent = (mock: ReturnType<typeof answer>, call = 0) => {
  const [url, init] = mock.mock.calls[call];
  return {
    url,
    method: init.method,
    headers: init.headers as Record<string, string>,
    body: init.body === undefined ? undefined : JSON.parse(init.body as string),
  };
};

afterEach(() => vi.unstubAllGlobals());

describe('callApi', () => {
  it('answers the parsed body of a 2xx', async () => {
    answer(200, { workflows: [] });
    expect(await callApi('/api/workflows', { what: 'Loading' })).toEqual({
      ok: true,
      value: { workflows: [] },
    });
  });

  it('answers null for a 204', async () => {
    answer(204, null);
    expect(await callApi('/api/x', { method: 'DELETE', what: 'Deleting' })).toEqual({
      ok: true,
      value: null,
    });
  });

  it("keeps the server's code, message and located issues", async () => {
    answer(422, {
      code: 'unprocessable:import',
      message: 'The file is not a valid workflow export.',
      issues: [{ path: '/nodes/0/id', message: 'must be a string', code: 'type' }, { bad: true }],
    });
    const result = await callApi('/api/workflows/import', { method: 'POST', what: 'Importing' });
    expect(result).toEqual({
      ok: false,
      error: {
        status: 422,
        code: 'unprocessable:import',
        message: 'The file is not a valid workflow export.',
        issues: [{ path: '/nodes/0/id', message: 'must be a string', code: 'type' }],
        body: expect.objectContaining({ code: 'unprocessable:import' }),
      },
    });
  });

  it('keeps route details in the body, such as the current copy of a 409', async () => {
    const current = { id: 'w', version: 3, name: 'W', document: { nodes: [], edges: [] } };
    answer(409, { code: 'conflict:version', message: 'Changed elsewhere.', current });
    const result = await saveWorkflow('w', {
      version: 2,
      document: { task: '', nodes: [], edges: [], tools: {} },
    });
    expect(!result.ok && result.error.code).toBe('conflict:version');
    expect(!result.ok && result.error.body?.current).toEqual(current);
  });

  it('says what failed and what to do when the answer is not JSON', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    const result = await callApi('/api/workflows', { what: 'Loading workflows' });
    expect(result).toEqual({
      ok: false,
      error: {
        status: 502,
        code: 'bad_response',
        message:
          'Loading workflows failed (HTTP 502). Check that the Toolflow server is running and try again.',
        issues: [],
        body: null,
      },
    });
  });

  it('says so when a 2xx answer is cut off', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"workflow": {', { status: 200 }));
    const result = await callApi('/api/workflows/w', { what: 'Opening' });
    expect(!result.ok && result.error).toMatchObject({ status: 200, code: 'bad_response' });
    expect(!result.ok && result.error.message).toContain('Opening failed');
  });

  it('answers status 0 and code network when the server does not answer', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await callApi('/api/workflows', { what: 'Loading workflows' });
    expect(result).toEqual({
      ok: false,
      error: {
        status: 0,
        code: 'network',
        message:
          'Loading workflows failed: the server did not answer (Failed to fetch). Check your connection and try again.',
        issues: [],
        body: null,
      },
    });
  });

  it('rethrows an abort the caller asked for', async () => {
    const controller = new AbortController();
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      expect(init.signal).toBe(controller.signal);
      controller.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    await expect(listToolkits({ signal: controller.signal })).rejects.toThrow('aborted');
  });

  it('uses an injected fetch instead of the global one', async () => {
    const global = answer(500, {});
    const injected = vi.fn(async () => Response.json({ workflow: { id: 'w' } }, { status: 201 }));
    const result = await createWorkflow({ name: 'N' }, { fetch: injected });
    expect(result.ok && result.value.workflow.id).toBe('w');
    expect(injected).toHaveBeenCalledOnce();
    expect(global).not.toHaveBeenCalled();
  });
});

describe('describeApiError', () => {
  it('lists every issue after the message, without repeating one the message holds', () => {
    expect(
      describeApiError({
        status: 422,
        code: 'unprocessable:declarations',
        message: 'The tool declarations could not be read. /0/name: a tool needs a name',
        issues: [
          { path: '/0/name', message: 'a tool needs a name' },
          { path: '', message: 'no tools found' },
        ],
        body: null,
      }),
    ).toBe('The tool declarations could not be read. /0/name: a tool needs a name\nno tools found');
  });
});

describe('the workflow, revision and share calls', () => {
  it('create a workflow with a JSON body', async () => {
    const mock = answer(201, { workflow: { id: 'w1' } });
    await createWorkflow({ name: 'Plan', task: 'do it' });
    expect(sent(mock)).toEqual({
      url: '/api/workflows',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { name: 'Plan', task: 'do it' },
    });
  });

  it('save with the version the document is based on, escaping the id', async () => {
    const mock = answer(200, { workflow: { id: 'a/b', version: 4 } });
    const document = { task: '', nodes: [], edges: [], tools: {} };
    await saveWorkflow('a/b', { version: 3, document });
    expect(sent(mock)).toMatchObject({
      url: '/api/workflows/a%2Fb',
      method: 'PUT',
      body: { version: 3, document },
    });
  });

  it('send an import file as it is', async () => {
    const mock = answer(201, { workflow: { id: 'w2' }, placeholders: [] });
    await importWorkflow('{"format": "toolflow.workflow"}');
    expect(mock.mock.calls[0][1].body).toBe('{"format": "toolflow.workflow"}');
    expect(sent(mock).headers).toEqual({ 'content-type': 'application/json' });
  });

  it('restore on top of the version held', async () => {
    const mock = answer(200, { workflow: { id: 'w', version: 6 }, restoredFrom: 2 });
    await restoreRevision('w', 2, 5);
    expect(sent(mock)).toMatchObject({
      url: '/api/workflows/w/revisions/2/restore',
      method: 'POST',
      body: { version: 5 },
    });
  });

  it('give the secrets of a refused share link to the caller', async () => {
    const secrets = [{ nodeId: 'n', param: 'token', kind: 'API key' }];
    answer(422, { code: 'unprocessable:secrets', message: 'Looks like secrets.', secrets });
    const result = await createShare('w', { acknowledgeSecrets: false });
    expect(!result.ok && result.error.body?.secrets).toEqual(secrets);
  });

  it('fork a shared workflow by its escaped token', async () => {
    const mock = answer(201, { workflow: { id: 'w3' } });
    await forkShared('t k');
    expect(sent(mock)).toMatchObject({ url: '/api/shares/t%20k/fork', method: 'POST' });
  });
});

describe('listToolkits', () => {
  it('reads toolkits with their tools and the configured MCP servers', async () => {
    const body = {
      toolkits: [
        { id: 'tk_1', name: 'Git', sourceKind: 'builtin', builtin: true, contentHash: 'h', tools: [tool] },
      ],
      mcpServers: [{ name: 'memory', description: 'Knowledge graph' }],
    };
    const mock = answer(200, body);
    expect(await listToolkits()).toEqual({ ok: true, value: body });
    expect(sent(mock)).toMatchObject({ url: '/api/toolkits', method: 'GET' });
  });

  it('says what failed and what to do when the server does not answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const result = await listToolkits();
    expect(!result.ok && result.error.message).toBe(
      'Loading toolkits failed: the server did not answer (Failed to fetch). Check your connection and try again.',
    );
  });
});

describe('createToolkit', () => {
  it('posts pasted text with its name and returns the new toolkit', async () => {
    const mock = answer(201, { toolkit: { id: 'tk_2', name: 'Mine', sourceKind: 'file', tools: [tool] } });
    const result = await createToolkit({ name: 'Mine', text: '{"functionDeclarations": []}' });
    expect(result.ok && result.value.toolkit.id).toBe('tk_2');
    expect(sent(mock)).toMatchObject({
      url: '/api/toolkits',
      body: { name: 'Mine', text: '{"functionDeclarations": []}' },
    });
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
    const result = await createToolkit({ name: 'Bad', text: '[]' });
    expect(!result.ok && describeApiError(result.error)).toBe(
      'The tool declarations could not be read. /0/name: a tool needs a name (1 more problem listed in "issues")\n/1/parameters: parameters must be an object',
    );
  });

  it("lists an MCP server's problems too", async () => {
    answer(422, {
      code: 'unprocessable:mcp_list',
      message: 'The MCP server "x" listed tools that could not be read.',
      mcp: {
        server: 'x',
        step: 'list',
        code: 'bad_tools',
        issues: [{ path: '/tools/0', message: 'no name' }],
      },
    });
    const result = await createToolkit({ name: 'X', mcpUrl: 'http://127.0.0.1:3001/mcp' });
    expect(!result.ok && result.error.issues).toEqual([{ path: '/tools/0', message: 'no name' }]);
    expect(!result.ok && describeApiError(result.error)).toBe(
      'The MCP server "x" listed tools that could not be read.\n/tools/0: no name',
    );
  });
});

describe('refreshToolkit and deleteToolkit', () => {
  it('refreshes with the new file text and deletes by id', async () => {
    const mock = answer(200, { toolkit: { id: 'tk_2', name: 'Mine', tools: [] }, changes: {} });
    expect((await refreshToolkit('tk_2', '[]')).ok).toBe(true);
    expect(sent(mock)).toMatchObject({
      url: '/api/toolkits/tk_2/refresh',
      method: 'POST',
      body: { text: '[]' },
    });
    answer(204, null);
    expect(await deleteToolkit('tk_2')).toEqual({ ok: true, value: null });
  });

  it('refreshes an MCP toolkit with no body', async () => {
    const mock = answer(200, { toolkit: { id: 'tk_3', name: 'M', tools: [] }, changes: {} });
    await refreshToolkit('tk_3');
    expect(sent(mock)).toEqual({
      url: '/api/toolkits/tk_3/refresh',
      method: 'POST',
      headers: {},
      body: undefined,
    });
  });
});

describe('openPlanStream', () => {
  it('asks for NDJSON and answers the stream', async () => {
    const mock = vi.fn(async () => new Response('{"type":"start"}\n', { status: 200 }));
    vi.stubGlobal('fetch', mock);
    const result = await openPlanStream({ task: 't', llm: 'offline' });
    expect(result.ok && (await new Response(result.value).text())).toBe('{"type":"start"}\n');
    expect(sent(mock as never)).toMatchObject({
      url: '/api/plan',
      headers: { accept: 'application/x-ndjson', 'content-type': 'application/json' },
      body: { task: 't', llm: 'offline' },
    });
  });

  it("answers the server's error for a refused request", async () => {
    answer(400, { code: 'bad_request:task', message: '"task" must not be empty.' });
    const result = await openPlanStream({ task: ' ' });
    expect(!result.ok && result.error).toMatchObject({ status: 400, code: 'bad_request:task' });
  });
});

describe('lib/api/types.ts', () => {
  it('holds types only, so nothing of the server reaches the browser through it', async () => {
    expect(Object.keys(await import('./types'))).toEqual([]);
  });
});
