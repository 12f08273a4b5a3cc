/**
 * CSRF: every state-changing route under app/api (found by walking the folder) refuses a request
 * another site's page could make — with the victim's owner cookie attached — with 403 before it
 * writes anything, and lets the same request from Toolflow's own pages through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as listWorkflows, POST as createWorkflow } from '@/app/api/workflows/route';
import { POST as createShare } from '@/app/api/workflows/[id]/shares/route';
import { POST as createToolkit } from '@/app/api/toolkits/route';
import {
  createOwnedRecords,
  getParams,
  getStateChangingRoutes,
  getUrl,
  getValidBody,
  ORIGIN,
  rawRequest,
  snapshotDatabase,
  type ApiRoute,
} from './api-routes';

const backends = await getTestBackends();
const routes = await getStateChangingRoutes();

/** Headers a browser sends on a request another site's page started. */
const CROSS_SITE: [string, Record<string, string>][] = [
  ['another origin', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
  ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
  ['Origin: null (sandboxed frame, data: URL)', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
  [
    'a sibling subdomain (same-site)',
    { origin: 'http://other.127.0.0.1.example', 'sec-fetch-site': 'same-site' },
  ],
  ['the same host on another port', { origin: 'http://127.0.0.1:4000' }],
  ['a look-alike host', { origin: 'https://127.0.0.1.evil.example' }],
];

const label = (r: ApiRoute) => `${r.method} ${r.path}`;

describe('route discovery', () => {
  it('finds the state-changing routes of app/api (a new route joins the tables by itself)', () => {
    const found = routes.map(label);
    // A floor, not the list: these must be among them.
    for (const known of [
      'POST /api/workflows',
      'PUT /api/workflows/[id]',
      'DELETE /api/workflows/[id]',
      'POST /api/workflows/import',
      'POST /api/workflows/[id]/shares',
      'POST /api/shares/[token]/fork',
      'POST /api/toolkits',
      'POST /api/plan',
    ])
      expect(found).toContain(known);
    expect(found.length).toBeGreaterThanOrEqual(13);
  });

  it('has no state-changing handler on the share paths but fork and taking up an edit link', () => {
    // Neither changes the shared workflow: fork copies it, accept records who may edit it.
    const shareWrites = routes.filter((r) => r.path.startsWith('/api/shares/')).map(label);
    expect(shareWrites).toEqual(['POST /api/shares/[token]/accept', 'POST /api/shares/[token]/fork']);
  });
});

describe.each(backends)('CSRF on $name', (backend) => {
  let database: TestDatabase;
  const handlers = { listWorkflows, createWorkflow, createShare, createToolkit };
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A fresh owner with a workflow, share link and toolkit of its own. */
  async function setUp(route: ApiRoute) {
    const client: OwnerClient = createOwnerClient();
    const records = await createOwnedRecords(client, handlers);
    const params = getParams(route, records);
    return { client, params, url: getUrl(route, params), ...getValidBody(route) };
  }

  const send = (
    route: ApiRoute,
    url: string,
    params: Record<string, string>,
    body: unknown,
    headers: Record<string, string>,
  ) =>
    route.handler(
      rawRequest(url, route.method, body === undefined ? undefined : JSON.stringify(body), {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      }),
      { params: Promise.resolve(params) },
    );

  describe.each(routes)('$method $path', (route) => {
    it.each(CROSS_SITE)('refuses %s with 403 and writes nothing', async (_, headers) => {
      const { client, params, url, body } = await setUp(route);
      const before = await snapshotDatabase(database.db);
      // The victim's cookie rides along: SameSite=Lax aside, the check alone must refuse it.
      const res = await send(route, url, params, body, { ...headers, cookie: client.cookie! });
      expect(res.status).toBe(403);
      const json = await res.json();
      expect(json.code).toBe('forbidden:cross_origin');
      expect(json.message).toMatch(/Refused a cross-site request/);
      expect(await snapshotDatabase(database.db)).toBe(before);
    });

    it('lets the same request from our own page through', async () => {
      const { client, params, url, body, known } = await setUp(route);
      const res = await send(route, url, params, body, {
        origin: ORIGIN,
        'sec-fetch-site': 'same-origin',
        cookie: client.cookie!,
      });
      const text = await res.text();
      expect(text).not.toContain('forbidden:cross_origin');
      // With a body the route is known to accept, it does the work.
      if (known) expect(res.status, text).toBeLessThan(300);
    });

    it('lets a client that sends neither Origin nor Sec-Fetch-Site through (curl, scripts)', async () => {
      const { client, params, url, body } = await setUp(route);
      const res = await send(route, url, params, body, { cookie: client.cookie! });
      expect(await res.text()).not.toContain('forbidden:cross_origin');
    });
  });
});
