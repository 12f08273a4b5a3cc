/**
 * Rate limits on the routes that cost the most or create in bulk: planning (a paid model may run
 * several times per request), share links, toolkit additions and refreshes. Past the budget the
 * answer is 429 with Retry-After and a message saying what was limited and how long to wait; a
 * script that drops its owner cookie is counted by its address instead, so it cannot reset the
 * count that way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { GET as listWorkflows, POST as createWorkflow } from '@/app/api/workflows/route';
import { POST as createShare } from '@/app/api/workflows/[id]/shares/route';
import { POST as createToolkit } from '@/app/api/toolkits/route';
import { POST as refreshToolkit } from '@/app/api/toolkits/[id]/refresh/route';
import { POST as plan } from '@/app/api/plan/route';
import { createOwnedRecords } from './api-routes';

const backends = await getTestBackends();

/** Limits are per process and per key; each case counts against an address of its own. */
let nextAddress = 1;
const freshAddress = () => `198.51.100.${nextAddress++}`;

interface LimitedRoute {
  what: string;
  limit: number;
  message: RegExp;
  /** A cheap request that still counts (the limit is taken before the work). */
  call(headers: Record<string, string>): Promise<Response>;
}

const LIMITED: LimitedRoute[] = [
  {
    what: 'POST /api/plan',
    limit: 30,
    message: /^Too many planning runs in a short time\. Try again in \d+ s\.$/,
    call: (headers) =>
      plan(jsonRequest('/api/plan', 'POST', { task: 'x', toolkitIds: ['tk_missing'] }, headers)),
  },
  {
    what: 'POST /api/toolkits',
    limit: 30,
    message: /^Too many new toolkits in a short time\. Try again in \d+ s\.$/,
    call: (headers) => createToolkit(jsonRequest('/api/toolkits', 'POST', { name: 'x' }, headers)),
  },
  {
    what: 'POST /api/toolkits/[id]/refresh',
    limit: 60,
    message: /^Too many toolkit refreshes in a short time\. Try again in \d+ s\.$/,
    call: (headers) =>
      refreshToolkit(jsonRequest('/api/toolkits/tk_missing/refresh', 'POST', undefined, headers), {
        params: Promise.resolve({ id: 'tk_missing' }),
      }),
  },
];

async function expectLimited(res: Response, message: RegExp) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const body = await res.json();
  expect(body.code).toBe('rate_limited');
  expect(body.message).toMatch(message);
  expect(body.message).toContain(`Try again in ${retryAfter} s.`);
}

describe.each(backends)('rate limits on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe.each(LIMITED)('$what', (route) => {
    it('answers 429 with Retry-After past the budget of one owner, and not to another owner', async () => {
      const address = freshAddress();
      const alice = createOwnerClient();
      await alice.send(listWorkflows, 'GET', '/api/workflows');
      const as = (cookie: string | undefined) => ({
        'x-forwarded-for': address,
        ...(cookie ? { cookie } : {}),
      });
      for (let i = 0; i < route.limit; i++) expect((await route.call(as(alice.cookie))).status).not.toBe(429);
      await expectLimited(await route.call(as(alice.cookie)), route.message);

      const bob = createOwnerClient();
      await bob.send(listWorkflows, 'GET', '/api/workflows');
      expect((await route.call(as(bob.cookie))).status).not.toBe(429);
    });

    it('counts a client without cookies by its address, so dropping the cookie does not escape', async () => {
      const address = freshAddress();
      for (let i = 0; i < route.limit; i++)
        expect((await route.call({ 'x-forwarded-for': address })).status).not.toBe(429);
      const refused = await route.call({ 'x-forwarded-for': address });
      await expectLimited(refused, route.message);
      // The refusal issues no fresh identity to retry with either.
      expect(refused.headers.get('set-cookie')).toBeNull();
      // Another address has its own budget.
      expect((await route.call({ 'x-forwarded-for': freshAddress() })).status).not.toBe(429);
    });
  });

  describe('POST /api/workflows/[id]/shares', () => {
    it('answers 429 with Retry-After after 30 links a minute, and creates no link past it', async () => {
      const alice = createOwnerClient();
      const { workflowId } = await createOwnedRecords(alice, {
        listWorkflows,
        createWorkflow,
        createShare,
        createToolkit,
      });
      const headers = { 'x-forwarded-for': freshAddress() };
      // createOwnedRecords made one link already.
      for (let i = 1; i < 30; i++)
        expect((await alice.send(createShare, 'POST', '', {}, { id: workflowId }, headers)).status).toBe(201);
      const refused = await alice.send(createShare, 'POST', '', {}, { id: workflowId }, headers);
      await expectLimited(refused, /^Too many share links in a short time\. Try again in \d+ s\.$/);
      expect(await database.db.share.count({ where: { workflowId } })).toBe(30);
    });
  });
});
