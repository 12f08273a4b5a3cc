/**
 * `toolflow push` and `toolflow pull` against the real app: its route handlers behind an HTTP
 * server on PGlite and Postgres, real accounts and API tokens (docs/design.md §13.5). The CLI runs
 * in-process with TOOLFLOW_URL and TOOLFLOW_TOKEN in its environment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { POST as createToken, GET as listTokens } from '@/app/api/account/tokens/route';
import { DELETE as revokeToken } from '@/app/api/account/tokens/[id]/route';
import { POST as createWorkflow, GET as listWorkflows } from '@/app/api/workflows/route';
import { GET as readWorkflow, PUT as saveWorkflow } from '@/app/api/workflows/[id]/route';
import { GET as exportWorkflow } from '@/app/api/workflows/[id]/export/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { POST as inviteMember } from '@/app/api/workspaces/[id]/members/route';
import { startApiServer, type Handler } from '@/tests/api-server';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createMemoryIo } from '../__fixtures__/memory-io';
import { runCli } from '../cli';

const backends = await getTestBackends();

/** A browser keeping every cookie it is given (Better Auth sets several). */
function createBrowser() {
  const jar = new Map<string, string>();
  return async (
    handler: Handler,
    method: string,
    body?: unknown,
    params: Record<string, string> = {},
    url = '/api',
  ) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await handler(jsonRequest(url, method, body, cookie ? { cookie } : {}), {
      params: Promise.resolve(params),
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  };
}

const tools = JSON.stringify({
  tools: [
    {
      name: 'fetch',
      description: 'Download',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
    },
    {
      name: 'parse',
      description: 'Parse',
      inputSchema: { type: 'object', properties: { file: { type: 'string' } } },
    },
  ],
});
const plan = JSON.stringify({
  task: 'Fetch and parse',
  steps: [
    { id: 's1', tool: 'fetch', args: { url: 'https://example.org/a' } },
    { id: 's2', tool: 'parse', args: { file: '{{s1.result}}' } },
  ],
});

describe.each(backends)('toolflow push and pull against the app on $name', (backend) => {
  let database: TestDatabase;
  let server: Awaited<ReturnType<typeof startApiServer>>;
  let workflowId: string;
  const secrets = { owner: '', viewer: '', revoked: '' };

  /** Runs the CLI with the server's address and `token`; what it printed and its exit code. */
  async function cli(
    argv: string[],
    env: Record<string, string | undefined>,
    files: Record<string, string> = {},
  ) {
    const { io, out } = createMemoryIo(files);
    const code = await runCli(argv, { ...io, env });
    return { code, ...out };
  }
  const as = (token: string) => ({ TOOLFLOW_URL: server.url, TOOLFLOW_TOKEN: token });

  beforeAll(async () => {
    database = await useTestDatabase(backend);
    const owner = createBrowser();
    const viewer = createBrowser();
    for (const [browser, email] of [
      [owner, 'owner@example.com'],
      [viewer, 'viewer@example.com'],
    ] as const) {
      const res = await browser(
        authPost,
        'POST',
        { email, password: 'a long password 1', name: 'Someone' },
        {},
        '/api/auth/sign-up/email',
      );
      expect(res.status).toBe(200);
    }
    const team = (await (await owner(createWorkspace, 'POST', { name: 'Lab' })).json()).workspace.id;
    expect(
      (await owner(inviteMember, 'POST', { email: 'viewer@example.com', role: 'viewer' }, { id: team }))
        .status,
    ).toBe(201);
    const token = async (browser: typeof owner) =>
      (await (await browser(createToken, 'POST', { name: 'CLI', workspaceId: team })).json()) as {
        token: { id: string };
        secret: string;
      };
    secrets.owner = (await token(owner)).secret;
    secrets.viewer = (await token(viewer)).secret;
    const revoked = await token(owner);
    expect((await owner(revokeToken, 'DELETE', undefined, { id: revoked.token.id })).status).toBe(204);
    secrets.revoked = revoked.secret;
    server = await startApiServer([
      { path: '/api/workflows', handlers: { GET: listWorkflows, POST: createWorkflow } },
      { path: '/api/workflows/[id]', handlers: { GET: readWorkflow, PUT: saveWorkflow } },
      { path: '/api/workflows/[id]/export', handlers: { GET: exportWorkflow } },
      { path: '/api/account/tokens', handlers: { GET: listTokens } },
    ]);
    // A workflow of the shared workspace, made over HTTP with the owner's token.
    const made = await fetch(`${server.url}/api/workflows`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Pipeline', document: { task: '', nodes: [], edges: [], tools: {} } }),
    });
    expect(made.status).toBe(201);
    workflowId = (await made.json()).workflow.id;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('pushes a built file as the next version, and pulls any version back', async () => {
    const built = await cli(
      ['build', '--tools', 'tools.json', '--plan', 'plan.json'],
      {},
      { 'tools.json': tools, 'plan.json': plan },
    );
    expect(built.code).toBe(0);
    const pushed = await cli(['push', 'flow.json', '--workflow', workflowId], as(secrets.owner), {
      'flow.json': built.stdout,
    });
    expect(pushed).toMatchObject({
      code: 0,
      stdout: `pushed flow.json to ${workflowId}: version 2 (was 1)\n`,
    });

    const current = await cli(['pull', workflowId], as(secrets.owner));
    expect(current.code).toBe(0);
    expect(current.stderr).toBe(`pulled version 2 of ${workflowId}\n`);
    const file = JSON.parse(current.stdout);
    expect(file.nodes.map((n: { id: string }) => n.id)).toEqual(['s1', 's2']);
    expect(file.name).toBe(JSON.parse(built.stdout).name);

    const first = await cli(['pull', workflowId, '--version', '1'], as(secrets.owner));
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ name: 'Pipeline', nodes: [] });
    // A viewer's token reads too.
    expect((await cli(['pull', workflowId], as(secrets.viewer))).stdout).toBe(current.stdout);

    // A push on top of a version that is no longer the server's saves nothing and says why.
    const stale = await cli(
      ['push', 'flow.json', '--workflow', workflowId, '--base', '1'],
      as(secrets.owner),
      {
        'flow.json': first.stdout,
      },
    );
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(
      `workflow ${workflowId} changed on the server since version 1 (it is at version 2 now)`,
    );
    expect(stale.stderr).toContain('--base 2');
    expect((await cli(['pull', workflowId], as(secrets.owner))).stderr).toBe(
      `pulled version 2 of ${workflowId}\n`,
    );
    const onTop = await cli(
      ['push', 'flow.json', '--workflow', workflowId, '--base', '2'],
      as(secrets.owner),
      {
        'flow.json': first.stdout,
      },
    );
    expect(onTop.stdout).toBe(`pushed flow.json to ${workflowId}: version 3 (was 2)\n`);
  });

  it('says what is wrong: no address, a refused token, no access, an unknown id, a server that is down', async () => {
    const file = { 'flow.json': (await cli(['pull', workflowId], as(secrets.owner))).stdout };
    const noUrl = await cli(['pull', workflowId], { TOOLFLOW_TOKEN: secrets.owner });
    expect(noUrl).toMatchObject({ code: 1, stdout: '' });
    expect(noUrl.stderr).toContain('TOOLFLOW_URL is not set');
    const noToken = await cli(['pull', workflowId], { TOOLFLOW_URL: server.url });
    expect(noToken.stderr).toContain(
      `TOOLFLOW_TOKEN is not set. Make an API token on your account page (${server.url}/account)`,
    );

    const revoked = await cli(['pull', workflowId], as(secrets.revoked));
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain('the server refused the token (401)');
    expect(revoked.stderr).toContain('unknown, revoked or expired');

    const viewer = await cli(['push', 'flow.json', '--workflow', workflowId], as(secrets.viewer), file);
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain('no access (403)');
    expect(viewer.stderr).toContain('your role in this workspace is viewer');

    const unknown = await cli(['pull', 'wf_AAAAAAAAAAAAAAAAAAAAAA'], as(secrets.owner));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found (404)');
    expect(unknown.stderr).toContain('wf_AAAAAAAAAAAAAAAAAAAAAA');
    const pruned = await cli(['pull', workflowId, '--version', '99'], as(secrets.owner));
    expect(pruned.stderr).toContain('has no saved version 99');

    const down = await startApiServer([]);
    await down.close();
    const refused = await cli(['pull', workflowId], {
      TOOLFLOW_URL: down.url,
      TOOLFLOW_TOKEN: secrets.owner,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot reach the Toolflow server at ${down.url} (connection refused`);
  });
});
