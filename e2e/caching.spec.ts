/**
 * Cache-Control on every route of the production server, for a visitor with the owner cookie and
 * for one without (who is issued one). The routes are found by walking app/ (every route.ts and
 * page.tsx), so a new one is checked without anyone adding it here:
 *
 * - every API answer is `private, no-store`: most belong to one owner, many issue the cookie;
 * - no answer that issues the cookie may be kept by a shared cache (a cache that kept it would
 *   hand every later visitor the same identity);
 * - pages that show an owner's data are `private` and `no-store` for everyone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { hashDeclaration } from '../lib/tools/canonical-json';
import type { ToolDeclaration } from '../lib/tools/types';

const APP = path.resolve(import.meta.dirname, '../app');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

interface Route {
  /** `/api/workflows/[id]` or `/w/[id]`, as the folders name it. */
  path: string;
  kind: 'api' | 'page';
  methods: string[];
}

function findRoutes(dir = APP): Route[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry): Route[] => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findRoutes(full);
    const at = '/' + path.relative(APP, dir).split(path.sep).join('/');
    const routePath = at === '/' ? '/' : at.replace(/\/$/, '');
    if (/^route\.(ts|tsx|js)$/.test(entry.name)) {
      const source = fs.readFileSync(full, 'utf8');
      const methods = METHODS.filter((m) =>
        new RegExp(`export (const|async function|function) ${m}\\b`).test(source),
      );
      return [{ path: routePath, kind: 'api', methods }];
    }
    if (/^page\.(tsx|ts|js)$/.test(entry.name)) return [{ path: routePath, kind: 'page', methods: ['GET'] }];
    return [];
  });
}

/** Pages that show one owner's data: never kept by any cache but the owner's own browser's memory. */
const OWNER_PAGES = ['/', '/w/[id]', '/w/[id]/runs/[runId]', '/workspaces/[id]'];

const cacheControl = (res: APIResponse) => res.headers()['cache-control'] ?? '';
const issuesCookie = (res: APIResponse) => /toolflow_owner=/.test(res.headers()['set-cookie'] ?? '');

/** True when no cache but the visitor's own may keep the answer. */
function isPrivate(value: string): boolean {
  const directives = value.split(',').map((d) => d.trim().toLowerCase());
  return (
    directives.includes('no-store') &&
    directives.includes('private') &&
    !directives.some((d) => d === 'public' || d.startsWith('s-maxage'))
  );
}

test('every route answers with the Cache-Control its answer needs, with and without the owner cookie', async ({
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await playwright.request.newContext({ baseURL });
  await owner.get('/');

  // Records of the owner's for every path parameter: a workflow of the Memory sample, run once.
  const { toolkits } = await (await owner.get('/api/toolkits')).json();
  const readGraph = toolkits
    .find((t: { id: string }) => t.id === 'tk_builtin_memory')
    .tools.find((t: ToolDeclaration) => t.name === 'read_graph') as ToolDeclaration;
  const doc = {
    task: 'read the graph',
    nodes: [{ id: 'step_1', tool: 'read_graph', position: { x: 0, y: 0 }, args: {} }],
    edges: [],
    tools: { read_graph: { declaration: readGraph, hash: hashDeclaration(readGraph) } },
  };
  const created = await owner.post('/api/workflows', { data: { name: 'Cached?', document: doc } });
  expect(created.status()).toBe(201);
  const workflowId = (await created.json()).workflow.id as string;
  const run = await owner.post(`/api/workflows/${workflowId}/runs`, { data: { version: 1 } });
  expect(run.status(), await run.text()).toBe(201);
  const runId = (await run.json()).run.id as string;
  const share = await (await owner.post(`/api/workflows/${workflowId}/shares`, { data: {} })).json();
  const mine = await owner.post('/api/toolkits', {
    data: {
      name: 'Mine',
      text: JSON.stringify({ tools: [{ name: 'x', description: 'x', inputSchema: { type: 'object' } }] }),
    },
  });
  const toolkitId = (await mine.json()).toolkit.id as string;

  const values: Record<string, (route: Route) => string> = {
    id: (route) => (route.path.startsWith('/api/toolkits') ? toolkitId : workflowId),
    runId: () => runId,
    nodeId: () => 'step_1',
    version: () => '1',
    shareId: () => share.share.id,
    token: () => share.token,
    index: () => '0',
    hash: () => '0'.repeat(64),
    // The members routes answer a visitor without a session 401 before they look at it.
    userId: () => 'user_unknown',
  };
  const urlOf = (route: Route) =>
    route.path.replace(/\[(\w+)\]/g, (_, name: string) => {
      const value = values[name];
      if (!value)
        throw new Error(`${route.path}: give the path parameter [${name}] a value in e2e/caching.spec.ts`);
      return encodeURIComponent(value(route));
    });

  const routes = findRoutes();
  expect(routes.filter((r) => r.kind === 'api').length).toBeGreaterThanOrEqual(25);
  expect(routes.map((r) => r.path)).toEqual(
    expect.arrayContaining(['/', '/toolkits', '/w/[id]', '/api/toolkits']),
  );

  const send = (client: APIRequestContext, method: string, url: string) =>
    // Writes carry a body the routes that read one refuse; those that take none (cancel, fork)
    // act, which changes nothing the rest of the walk reads.
    client.fetch(url, {
      method,
      ...(method === 'GET' ? {} : { data: { unexpected: true } }),
      maxRedirects: 0,
    });

  const seen: string[] = [];
  for (const route of routes) {
    const url = urlOf(route);
    for (const method of route.methods) {
      // A DELETE by the owner would remove the records the walk uses: it is sent by a stranger.
      for (const visitor of method === 'DELETE' ? ['stranger'] : ['owner', 'stranger']) {
        const client = visitor === 'owner' ? owner : await playwright.request.newContext({ baseURL });
        const res = await send(client, method, url);
        const what = `${method} ${url} as ${visitor === 'owner' ? 'the owner' : 'a visitor without a cookie'}: ${res.status()}, Cache-Control "${cacheControl(res)}"`;
        seen.push(what);
        expect(res.status(), what).toBeLessThan(500);
        if (route.kind === 'api') expect(cacheControl(res), what).toBe('private, no-store');
        if (issuesCookie(res)) expect(isPrivate(cacheControl(res)), what).toBe(true);
        if (OWNER_PAGES.includes(route.path)) expect(isPrivate(cacheControl(res)), what).toBe(true);
        if (visitor === 'stranger') await client.dispose();
      }
    }
  }
  // The case that was wrong: a prerendered page (`s-maxage=31536000` otherwise) for a visitor
  // without a cookie; and a page that is not there.
  for (const url of ['/toolkits', '/no-such-page']) {
    const fresh = await playwright.request.newContext({ baseURL });
    const res = await fresh.get(url);
    expect(issuesCookie(res), url).toBe(true);
    expect(isPrivate(cacheControl(res)), `${url}: ${cacheControl(res)}`).toBe(true);
    await fresh.dispose();
  }
  console.log(seen.join('\n'));
});
