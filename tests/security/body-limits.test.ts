/**
 * Request size, JSON nesting and media type limits on every route that accepts a body (found by
 * walking app/api): over 5 MB answers 413 whether or not the client declared the length, nesting
 * deeper than the limit answers 400, a body that is not declared as JSON answers 415, and none of
 * them writes anything or takes the server down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJsonContentType, MAX_BODY_BYTES, MAX_JSON_DEPTH } from '@/lib/http/body';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { GET as listWorkflows, POST as createWorkflow } from '@/app/api/workflows/route';
import { POST as createShare } from '@/app/api/workflows/[id]/shares/route';
import { POST as createToolkit } from '@/app/api/toolkits/route';
import {
  createOwnedRecords,
  getParams,
  getStateChangingRoutes,
  getUrl,
  ORIGIN,
  rawRequest,
  readsBody,
  snapshotDatabase,
  type ApiRoute,
} from './api-routes';

const backends = await getTestBackends();
const routes = await getStateChangingRoutes();
const bodyRoutes = routes.filter((r) => r.method !== 'DELETE' && readsBody(r));

/** State-changing routes that take no body at all (they ignore one if sent). */
const BODYLESS = [
  'POST /api/shares/[token]/accept',
  'POST /api/shares/[token]/fork',
  'POST /api/workflows/[id]/duplicate',
  'POST /api/runs/[runId]/cancel',
];

const label = (r: ApiRoute) => `${r.method} ${r.path}`;

/** `{"name":"x","pad":"aaaa…"}`, just over the limit. */
function oversizedJson(): string {
  return JSON.stringify({ name: 'x', pad: 'a'.repeat(MAX_BODY_BYTES + 1024) });
}

/** `{"name":"x","deep":[[[…]]]}` nested `levels` deep in total. */
function deepJson(levels: number): string {
  return `{"name":"x","deep":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

/** The oversized body as a stream with no Content-Length, in 64 KB chunks. */
function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 65_536));
      offset += 65_536;
    },
  });
}

describe('which routes read a body', () => {
  it('every POST/PUT/PATCH reads its body through lib/http/body, or is known to take none', () => {
    for (const route of routes.filter((r) => r.method !== 'DELETE')) {
      if (!readsBody(route)) expect(BODYLESS, `${label(route)} reads no body`).toContain(label(route));
    }
    expect(bodyRoutes.length).toBeGreaterThanOrEqual(9);
  });

  it('no route handler reads the body around the limits (request.json(), .text(), .formData() …)', () => {
    for (const route of routes) {
      expect(route.source, route.file).not.toMatch(
        /\brequest\.(json|text|formData|arrayBuffer|blob|bytes)\(|\brequest\.body\b/,
      );
    }
  });
});

/**
 * Content types whose essence is not JSON although the word appears in a parameter: each is what
 * a cross-site form or a `fetch` without a CORS preflight can send.
 */
const NOT_JSON = [
  'text/plain; x=json',
  'application/x-www-form-urlencoded; charset=json',
  'multipart/form-data; boundary=json',
  'text/plain',
  'text/json-ish',
  'application/jsonp',
];

describe('isJsonContentType', () => {
  it('compares the MIME type essence, never a parameter', () => {
    for (const type of NOT_JSON) expect(isJsonContentType(type), type).toBe(false);
  });

  it('takes application/json with any parameters and case, and +json types', () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      ' application/json ;charset=UTF-8',
      'application/merge-patch+json',
    ])
      expect(isJsonContentType(type), type).toBe(true);
  });
});

describe.each(backends)('body limits on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function setUp(route: ApiRoute) {
    const client = createOwnerClient();
    const records = await createOwnedRecords(client, {
      listWorkflows,
      createWorkflow,
      createShare,
      createToolkit,
    });
    const params = getParams(route, records);
    const headers = { origin: ORIGIN, 'sec-fetch-site': 'same-origin', cookie: client.cookie! };
    return { params, url: getUrl(route, params), headers };
  }

  describe.each(bodyRoutes)('$method $path', (route) => {
    it('answers 413 to a body over 5 MB that declares its length, writing nothing', async () => {
      const { params, url, headers } = await setUp(route);
      const before = await snapshotDatabase(database.db);
      const text = oversizedJson();
      const res = await route.handler(
        rawRequest(url, route.method, text, {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
        }),
        { params: Promise.resolve(params) },
      );
      expect(res.status).toBe(413);
      const json = await res.json();
      expect(json.code).toBe('payload_too_large');
      expect(json.message).toMatch(/larger than 5 MB/);
      expect(await snapshotDatabase(database.db)).toBe(before);
    });

    it('answers 413 to a streamed body over 5 MB without Content-Length', async () => {
      const { params, url, headers } = await setUp(route);
      const before = await snapshotDatabase(database.db);
      const res = await route.handler(
        rawRequest(url, route.method, streamOf(oversizedJson()), {
          ...headers,
          'content-type': 'application/json',
        }),
        { params: Promise.resolve(params) },
      );
      expect(res.status).toBe(413);
      expect((await res.json()).code).toBe('payload_too_large');
      expect(await snapshotDatabase(database.db)).toBe(before);
    });

    it(`answers 400 to JSON nested deeper than ${MAX_JSON_DEPTH} levels, writing nothing`, async () => {
      const { params, url, headers } = await setUp(route);
      const before = await snapshotDatabase(database.db);
      const res = await route.handler(
        rawRequest(url, route.method, deepJson(MAX_JSON_DEPTH + 1), {
          ...headers,
          'content-type': 'application/json',
        }),
        { params: Promise.resolve(params) },
      );
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.code).toBe('bad_request:depth');
      expect(json.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      expect(await snapshotDatabase(database.db)).toBe(before);
    });

    it.each(NOT_JSON.slice(0, 3))(
      'answers 415 to a valid JSON body sent as %s, writing nothing',
      async (type) => {
        const { params, url, headers } = await setUp(route);
        const before = await snapshotDatabase(database.db);
        const res = await route.handler(
          rawRequest(url, route.method, JSON.stringify({ name: 'x', text: '{}', version: 1 }), {
            ...headers,
            'content-type': type,
          }),
          { params: Promise.resolve(params) },
        );
        expect(res.status).toBe(415);
        expect((await res.json()).code).toBe('unsupported_media_type');
        expect(await snapshotDatabase(database.db)).toBe(before);
      },
    );

    it('answers 400, not a crash, to nesting deep enough to exhaust a recursive parser', async () => {
      const { params, url, headers } = await setUp(route);
      const before = await snapshotDatabase(database.db);
      const res = await route.handler(
        rawRequest(url, route.method, deepJson(500_000), { ...headers, 'content-type': 'application/json' }),
        { params: Promise.resolve(params) },
      );
      expect(res.status).toBe(400);
      expect((await res.json()).code).toMatch(/^bad_request:(depth|json)$/);
      expect(await snapshotDatabase(database.db)).toBe(before);
    });
  });
});
