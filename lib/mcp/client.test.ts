import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../result';
import { listMcpTools, openMcpSession, type McpProblem } from './client';
import { startChangingHttpServer } from './__fixtures__/http-server';
import { fakeServer, LOCAL_OPTIONS } from './__fixtures__/servers';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function expectProblem<T>(result: Result<T, McpProblem>): McpProblem {
  if (result.ok) throw new Error('expected a failure, got ' + JSON.stringify(result.value).slice(0, 200));
  return result.error;
}

describe('listMcpTools over stdio', () => {
  it('follows nextCursor through every page, in order', async () => {
    const result = await listMcpTools(fakeServer('paginate'), LOCAL_OPTIONS);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.pages).toBe(3);
    expect(result.value.tools.map((t) => t.name)).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    expect(result.value.tools[0].source).toEqual({ kind: 'mcp-stdio', server: 'fake-paginate' });
    expect(result.value.serverInfo).toEqual({ name: 'fake-paginate', version: '0.0.1' });
  });

  it('stops at the page limit', async () => {
    const problem = expectProblem(
      await listMcpTools(fakeServer('paginate'), { ...LOCAL_OPTIONS, maxPages: 2 }),
    );
    expect(problem).toMatchObject({ step: 'list', code: 'too_many_pages', server: 'fake-paginate' });
  });

  it('refuses a cursor that repeats, which would never end', async () => {
    const problem = expectProblem(await listMcpTools(fakeServer('cursor-loop'), LOCAL_OPTIONS));
    expect(problem).toMatchObject({ step: 'list', code: 'cursor_loop' });
    expect(problem.message).toContain('"again"');
  });

  it('reports a malformed list tool by tool, with paths, importing nothing', async () => {
    const problem = expectProblem(await listMcpTools(fakeServer('malformed'), LOCAL_OPTIONS));
    expect(problem).toMatchObject({ server: 'fake-malformed', step: 'list', code: 'malformed_list' });
    expect(problem.issues?.map((i) => i.path)).toEqual(['/tools/1/name', '/tools/2/inputSchema']);
    expect(problem.message).toMatch(/^MCP server fake-malformed: list failed: .*\/tools\/1\/name/);
  });

  it('reports an answer without a tools array', async () => {
    const problem = expectProblem(await listMcpTools(fakeServer('no-tools'), LOCAL_OPTIONS));
    expect(problem).toMatchObject({
      step: 'list',
      code: 'malformed_list',
      issues: [{ path: '/pages/0/tools' }],
    });
  });

  it('names the step and the stderr of a server that fails to start', async () => {
    const problem = expectProblem(await listMcpTools(fakeServer('crash'), LOCAL_OPTIONS));
    expect(problem).toMatchObject({ server: 'fake-crash', step: 'connect', code: 'server_exited' });
    expect(problem.message).toContain('cannot open /nonexistent/db.sqlite');
  });

  it('says when the command does not exist', async () => {
    const target = { kind: 'stdio' as const, name: 'ghost', command: '/nonexistent/mcp-server', args: [] };
    const problem = expectProblem(await listMcpTools(target, LOCAL_OPTIONS));
    expect(problem).toMatchObject({ server: 'ghost', step: 'connect', code: 'spawn_failed' });
    expect(problem.message).toContain('/nonexistent/mcp-server');
  });

  it('times out a server that never answers initialize', async () => {
    const started = Date.now();
    const problem = expectProblem(
      await listMcpTools(fakeServer('silent'), { ...LOCAL_OPTIONS, timeoutMs: 500 }),
    );
    expect(problem).toMatchObject({ step: 'initialize', code: 'timeout' });
    expect(problem.message).toContain('within 500 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('times out a server that never answers tools/list', async () => {
    const problem = expectProblem(
      await listMcpTools(fakeServer('slow-list'), { ...LOCAL_OPTIONS, timeoutMs: 500 }),
    );
    expect(problem).toMatchObject({ step: 'list', code: 'timeout' });
  });
});

describe('dialects', () => {
  it('compiles each schema with the Ajv of its own $schema', async () => {
    const result = await listMcpTools(fakeServer('dialects'), LOCAL_OPTIONS);
    if (!result.ok) throw new Error(result.error.message);
    // Draft-07 Ajv would throw on the 2020-12 meta-schema; 2020-12 Ajv on array-form items.
    expect(result.value.warnings).toEqual([]);
    expect(result.value.tools.map((t) => t.name)).toEqual(['pair_2020', 'tuple_07']);
  });

  it('checks structured output against a 2020-12 output schema by 2020-12 rules', async () => {
    const session = await openMcpSession(fakeServer('dialects'), LOCAL_OPTIONS);
    if (!session.ok) throw new Error(session.error.message);
    closers.push(session.value.close);
    await session.value.listTools();

    const good = await session.value.callTool('pair_2020', { reply: { pair: ['a', 1] } });
    expect(good).toMatchObject({
      ok: true,
      value: { structuredContent: { pair: ['a', 1] }, isError: false },
    });

    // prefixItems is ignored by draft-07 rules; 2020-12 rejects a number in the string slot.
    const bad = expectProblem(await session.value.callTool('pair_2020', { reply: { pair: [1, 1] } }));
    expect(bad).toMatchObject({
      step: 'call',
      code: 'bad_output',
      issues: [{ path: '/structuredContent/pair/0' }],
    });
  });
});

describe('listMcpTools over Streamable HTTP', () => {
  it('ends its session on the server when done', async () => {
    const server = await startChangingHttpServer([{ name: 'one', inputSchema: { type: 'object' } }]);
    closers.push(server.close);
    const result = await listMcpTools({ kind: 'http', url: server.url }, LOCAL_OPTIONS);
    expect(result.ok && result.value.tools.map((t) => t.name)).toEqual(['one']);
    await expect.poll(() => server.getSessionCount()).toBe(0);
  });
});
