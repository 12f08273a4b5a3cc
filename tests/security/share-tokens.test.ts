/**
 * Share links: a token cannot be guessed (256 random bits), found by probing (every dead token
 * gets the very same 404, whether it never existed, nearly matches a live one, was revoked or has
 * expired), recovered from the database (only its SHA-256 is stored), or used to change anything
 * (the read-only share routes have no write handler, and a token is no credential elsewhere).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as listWorkflows, POST as createWorkflow } from '@/app/api/workflows/route';
import {
  DELETE as deleteWorkflow,
  GET as readWorkflow,
  PUT as saveWorkflow,
} from '@/app/api/workflows/[id]/route';
import { GET as exportWorkflow } from '@/app/api/workflows/[id]/export/route';
import { POST as createShare, GET as listShares } from '@/app/api/workflows/[id]/shares/route';
import { DELETE as revokeShare } from '@/app/api/workflows/[id]/shares/[shareId]/route';
import { PATCH as labelRevision } from '@/app/api/workflows/[id]/revisions/[version]/route';
import { POST as restoreRevision } from '@/app/api/workflows/[id]/revisions/[version]/restore/route';
import * as viewModule from '@/app/api/shares/[token]/route';
import * as exportModule from '@/app/api/shares/[token]/export/route';
import * as forkModule from '@/app/api/shares/[token]/fork/route';
import { POST as createToolkit } from '@/app/api/toolkits/route';
import { createOwnedRecords, sampleDocument, snapshotDatabase, type RouteHandler } from './api-routes';

const backends = await getTestBackends();
const handlers = { listWorkflows, createWorkflow, createShare, createToolkit };

/** Flips one character of a token to a neighbour in the base64url alphabet. */
function nearMiss(token: string, at: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const next = alphabet[(alphabet.indexOf(token[at]) + 1) % alphabet.length];
  return token.slice(0, at) + next + token.slice(at + 1);
}

const randomToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

/** Status, body and header names: what a prober could compare between two answers. */
async function describeAnswer(res: Response) {
  return {
    status: res.status,
    body: await res.text(),
    headers: [...res.headers.keys()].filter((h) => h !== 'date').sort(),
  };
}

describe('share route modules', () => {
  it('the read-only share paths export no write handler (Next answers 405 to PUT, PATCH, DELETE, POST)', () => {
    for (const mod of [viewModule, exportModule] as Record<string, unknown>[]) {
      expect(Object.keys(mod).filter((k) => /^(POST|PUT|PATCH|DELETE)$/.test(k))).toEqual([]);
    }
    // Fork writes only the caller's own copy (see below); nothing else under /api/shares writes.
    expect(Object.keys(forkModule).filter((k) => /^(GET|PUT|PATCH|DELETE)$/.test(k))).toEqual([]);
  });
});

describe.each(backends)('share tokens on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function newOwner(): Promise<OwnerClient> {
    const client = createOwnerClient();
    await client.send(listWorkflows, 'GET', '/api/workflows');
    return client;
  }

  it('draws each token from 256 random bits and stores only its SHA-256', async () => {
    const alice = await newOwner();
    const { workflowId, token: first } = await createOwnedRecords(alice, handlers);
    const tokens = [first];
    for (let i = 0; i < 23; i++) {
      const res = await alice.send(createShare, 'POST', '', {}, { id: workflowId });
      tokens.push((await res.json()).token);
    }
    const bits = { ones: 0, total: 0 };
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const bytes = Buffer.from(token, 'base64url');
      expect(bytes).toHaveLength(32);
      for (const byte of bytes) {
        for (let b = 0; b < 8; b++) bits.ones += (byte >> b) & 1;
        bits.total += 8;
      }
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // 6144 bits: a fair source lands within ±3.5 % of half far beyond 5 sigma.
    expect(bits.ones / bits.total).toBeGreaterThan(0.465);
    expect(bits.ones / bits.total).toBeLessThan(0.535);

    const rows = await database.db.share.findMany({ where: { workflowId } });
    expect(rows.map((r) => r.tokenHash).sort()).toEqual(
      tokens.map((t) => createHash('sha256').update(t).digest('hex')).sort(),
    );
    // Nowhere in the database, and never again from the API.
    const everything = await snapshotDatabase(database.db);
    const listed = await (await alice.send(listShares, 'GET', '', undefined, { id: workflowId })).text();
    for (const token of tokens) {
      expect(everything).not.toContain(token);
      expect(listed).not.toContain(token);
    }
  });

  it('answers every dead token — random, near a live one, revoked, expired, junk — with the same 404', async () => {
    const alice = await newOwner();
    const { workflowId, token: live } = await createOwnedRecords(alice, handlers);
    const revoked = await (await alice.send(createShare, 'POST', '', {}, { id: workflowId })).json();
    await alice.send(revokeShare, 'DELETE', '', undefined, { id: workflowId, shareId: revoked.share.id });
    const expired = await (
      await alice.send(createShare, 'POST', '', { expiresInDays: 1 }, { id: workflowId })
    ).json();
    await database.db.share.update({
      where: { id: expired.share.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });

    const dead = [
      randomToken(),
      randomToken(),
      nearMiss(live, 0),
      nearMiss(live, 21),
      nearMiss(live, 42),
      live.slice(0, 42),
      live + 'A',
      live.toUpperCase() === live ? live.toLowerCase() : live.toUpperCase(),
      ' ' + live,
      revoked.token,
      expired.token,
      createHash('sha256').update(live).digest('hex'), // the stored hash is not a token either
      '',
      'A'.repeat(10_000),
      "' OR 1=1 --",
      '../../api/workflows',
      '%00',
      'ünïcødé-🔑',
    ];
    const bob = await newOwner();
    const view = (token: string) =>
      viewModule.GET(jsonRequest('', 'GET'), { params: Promise.resolve({ token }) });
    const download = (token: string) =>
      exportModule.GET(jsonRequest('', 'GET'), { params: Promise.resolve({ token }) });
    const fork = (token: string) =>
      bob.send(forkModule.POST as RouteHandler, 'POST', '', undefined, { token });

    for (const [name, call] of [
      ['view', view],
      ['export', download],
      ['fork', fork],
    ] as const) {
      const reference = await describeAnswer(await call(randomToken()));
      expect(reference.status, name).toBe(404);
      expect(JSON.parse(reference.body)).toEqual({
        code: 'not_found:share',
        message: 'This share link does not exist, was revoked or has expired. Ask the owner for a new link.',
      });
      for (const token of dead)
        expect(await describeAnswer(await call(token)), `${name} ${token}`).toEqual(reference);
      expect((await call(live)).status, name).toBe(name === 'fork' ? 201 : 200);
    }
  });

  it('is no credential: a stranger holding the token cannot read, change, share or delete the workflow', async () => {
    const alice = await newOwner();
    const { workflowId, token, shareId } = await createOwnedRecords(alice, handlers);
    const mallory = await newOwner();
    const before = await snapshotDatabase(database.db);

    const carriers: Record<string, string>[] = [
      { authorization: `Bearer ${token}` },
      { 'x-share-token': token },
      { cookie: `${mallory.cookie}; share=${token}; token=${token}` },
      { cookie: `toolflow_owner=${token}` },
    ];
    const attempts: [string, RouteHandler, string, unknown, Record<string, string>][] = [
      ['GET', readWorkflow, `/api/workflows/${workflowId}?token=${token}`, undefined, { id: workflowId }],
      [
        'GET',
        exportWorkflow,
        `/api/workflows/${workflowId}/export?token=${token}`,
        undefined,
        { id: workflowId },
      ],
      [
        'PUT',
        saveWorkflow,
        `/api/workflows/${workflowId}?token=${token}`,
        { version: 1, document: sampleDocument },
        { id: workflowId },
      ],
      [
        'DELETE',
        deleteWorkflow,
        `/api/workflows/${workflowId}?token=${token}`,
        undefined,
        { id: workflowId },
      ],
      ['POST', createShare, `/api/workflows/${workflowId}/shares?token=${token}`, {}, { id: workflowId }],
      [
        'GET',
        listShares,
        `/api/workflows/${workflowId}/shares?token=${token}`,
        undefined,
        { id: workflowId },
      ],
      [
        'DELETE',
        revokeShare,
        `/api/workflows/${workflowId}/shares/${shareId}`,
        undefined,
        { id: workflowId, shareId },
      ],
      [
        'PATCH',
        labelRevision,
        `/api/workflows/${workflowId}/revisions/1`,
        { label: 'x' },
        { id: workflowId, version: '1' },
      ],
      [
        'POST',
        restoreRevision,
        `/api/workflows/${workflowId}/revisions/1/restore`,
        { version: 1 },
        { id: workflowId, version: '1' },
      ],
    ];
    for (const carrier of carriers) {
      for (const [method, handler, url, body, params] of attempts) {
        const headers = { cookie: mallory.cookie!, ...carrier };
        const res = await handler(jsonRequest(url, method, body, headers), {
          params: Promise.resolve(params),
        });
        // 403 for a known owner; for the forged owner cookie, a fresh identity: 403 as well. As a
        // bearer token it is no API token (docs/design.md §13.5): 401, whatever the cookie.
        expect(res.status, `${method} ${url} with ${Object.keys(carrier)[0]}`).toBe(
          carrier.authorization ? 401 : 403,
        );
      }
    }
    // The token in place of the workflow id finds nothing to change.
    const put = await mallory.send(
      saveWorkflow,
      'PUT',
      '',
      { version: 1, document: sampleDocument },
      { id: token },
    );
    expect(put.status).toBe(404);
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it('forks into a copy the viewer owns, leaving the original and its link untouched', async () => {
    const alice = await newOwner();
    const { workflowId, token } = await createOwnedRecords(alice, handlers);
    const original = await database.db.workflow.findUniqueOrThrow({ where: { id: workflowId } });
    const bob = await newOwner();
    const res = await bob.send(forkModule.POST as RouteHandler, 'POST', '', undefined, { token });
    expect(res.status).toBe(201);
    const copy = (await res.json()).workflow;
    expect(copy.id).not.toBe(workflowId);
    expect(await database.db.workflow.findUniqueOrThrow({ where: { id: workflowId } })).toEqual(original);
    expect(await database.db.share.count({ where: { workflowId: copy.id } })).toBe(0);
    // The copy is Bob's: Alice cannot change it, and the link still shows the original.
    expect(
      (await alice.send(saveWorkflow, 'PUT', '', { version: 1, document: sampleDocument }, { id: copy.id }))
        .status,
    ).toBe(403);
    const shown = await (
      await viewModule.GET(jsonRequest('', 'GET'), { params: Promise.resolve({ token }) })
    ).json();
    expect(shown.workflow.version).toBe(original.version);
  });
});
