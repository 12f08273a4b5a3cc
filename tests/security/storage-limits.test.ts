/**
 * What the database can store, on PGlite and Postgres (lib/tools/storable.ts): declarations and
 * values nested deeper than the limit, and text with a NUL character or an unpaired surrogate, are
 * refused with 400 and the JSON path wherever they come in; a step's result that is too deep is
 * stored cut; and every step of a finished run ends in a final state even when storing fails.
 * Nothing here may answer 500.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimRun, createRun, finishRun, getNodeRun, getRunNodes, saveNodeRecord } from '@/lib/db/runs';
import { createToolkit } from '@/lib/db/toolkits';
import { createWorkflow as storeWorkflow } from '@/lib/db/workflows';
import { runServerConfig } from '@/lib/mcp/__fixtures__/servers';
import { stopAppQueue } from '@/lib/queue/app';
import { storeNodeRecord } from '@/lib/queue/run-worker';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { MAX_STORED_DEPTH } from '@/lib/run/cap';
import { FINAL_NODE_STATUSES } from '@/lib/run/types';
import { MAX_JSON_DEPTH, MAX_VALUE_DEPTH } from '@/lib/tools/storable';
import type { ToolDeclaration } from '@/lib/tools/types';
import { exportWorkflow } from '@/lib/workflow/export';
import { createDocumentFromPlan } from '@/lib/workflow/plan';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as listWorkflows, POST as createWorkflow } from '@/app/api/workflows/route';
import { PUT as saveWorkflow } from '@/app/api/workflows/[id]/route';
import { POST as importWorkflow } from '@/app/api/workflows/import/route';
import { POST as createShare } from '@/app/api/workflows/[id]/shares/route';
import { POST as createToolkitRoute } from '@/app/api/toolkits/route';
import { POST as refreshToolkit } from '@/app/api/toolkits/[id]/refresh/route';
import { POST as plan } from '@/app/api/plan/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { GET as readRun } from '@/app/api/runs/[runId]/route';
import { GET as readNode } from '@/app/api/runs/[runId]/nodes/[nodeId]/route';
import {
  createOwnedRecords,
  getApiRoutes,
  getParams,
  getStateChangingRoutes,
  getUrl,
  getValidBody,
  ORIGIN,
  rawRequest,
  readsBody,
  snapshotDatabase,
} from './api-routes';

const backends = await getTestBackends();
const handlers = { listWorkflows, createWorkflow, createShare, createToolkit: createToolkitRoute };

/** A JSON Schema nested `levels` levels deep, counted from the schema itself. */
function deepSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < levels; i += 2) schema = { type: 'object', properties: { a: schema } };
  return levels % 2 === 0 ? { type: 'array', items: [schema] } : schema;
}

/** A value nested exactly `levels` arrays and objects deep. */
function deepValue(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

/** A tool whose declaration nests `levels` deep, counted from the declaration (inputSchema is level 2). */
const deepTool = (levels: number): ToolDeclaration => ({
  name: 'deep_tool',
  description: 'deep',
  inputSchema: { type: 'object', properties: { x: deepSchema(levels - 3) } },
});

const json = (res: Response) =>
  res.json() as Promise<{ code: string; message: string; issues?: { path: string; code: string }[] }>;

describe.each(backends)('the database on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('takes declarations and step records at the limits, and refuses them well beyond (the margin)', async () => {
    const { db } = database;
    // The limits are below what Prisma takes, measured: 123 levels in a toolkit's declarations,
    // 121 in a step's JSON columns.
    const stored = await createToolkit(db, {
      ownerId: 'own_margin_0000000000',
      name: 'deep',
      sourceKind: 'file',
      sourceRef: null,
      format: null,
      tools: [deepTool(MAX_VALUE_DEPTH)],
    });
    expect(stored.tools[0].name).toBe('deep_tool');
    await expect(
      createToolkit(db, {
        ownerId: 'own_margin_0000000000',
        name: 'deeper',
        sourceKind: 'file',
        sourceRef: null,
        format: null,
        tools: [deepTool(125)],
      }),
    ).rejects.toThrow(/recursion limit exceeded/);

    const workflow = await storeWorkflow(db, { name: 'w', ownerId: 'own_margin_0000000000' });
    const run = await createRun(db, {
      workflowId: workflow.id,
      ownerId: 'own_margin_0000000000',
      version: 1,
      exportText: '{}\n',
      exportHash: 'sha256:0',
      limits: DEFAULT_RUN_LIMITS,
      plan: {
        nodes: [{ nodeId: 'n', stepIndex: 1, toolName: 't', server: null, readOnly: false, sources: [] }],
        servers: [],
        order: ['n'],
      },
    });
    await claimRun(db, run.id, 'test-worker');
    const record = {
      nodeId: 'n',
      stepIndex: 1,
      toolName: 't',
      server: null,
      status: 'succeeded' as const,
      arguments: { x: deepValue(MAX_STORED_DEPTH - 1) },
      result: { content: [], structuredContent: { x: deepValue(MAX_STORED_DEPTH - 2) }, isError: false },
    };
    await saveNodeRecord(db, run.id, record);
    expect((await getNodeRun(db, run.id, 'n'))?.status).toBe('succeeded');
    await expect(
      saveNodeRecord(db, run.id, {
        ...record,
        result: { content: [], structuredContent: { x: deepValue(125) }, isError: false },
      }),
    ).rejects.toThrow(/recursion limit exceeded/);
  });
});

describe.each(backends)('deep declarations and values on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  const owner = async () => {
    const client = createOwnerClient();
    await client.send(listWorkflows, 'GET', '/api/workflows');
    return client;
  };

  it('refuses a toolkit file nested 125 levels with 400, saying where', async () => {
    const client = await owner();
    const before = await snapshotDatabase(database.db);
    const text = JSON.stringify({ tools: [deepTool(125)] });
    const res = await client.send(createToolkitRoute, 'POST', '/api/toolkits', { name: 'Deep', text });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.code).toBe('bad_request:declarations');
    // The file itself is deeper than any file may be: refused where it is read, by line and column.
    expect(body.message).toMatch(/level 109 starts at line 1, column \d+/);
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it('refuses a declaration one level past the limit with 400 and the path where that level starts', async () => {
    const client = await owner();
    const before = await snapshotDatabase(database.db);
    const text = JSON.stringify({ tools: [deepTool(MAX_VALUE_DEPTH + 1)] });
    const res = await client.send(createToolkitRoute, 'POST', '/api/toolkits', { name: 'Deep', text });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.code).toBe('bad_request:declarations');
    expect(body.message).toContain(`Tool "deep_tool" nests deeper than ${MAX_VALUE_DEPTH} levels`);
    const [issue] = body.issues!;
    expect(issue.code).toBe('too_deep');
    expect(issue.path).toMatch(/^\/tools\/0\/inputSchema\/properties\/x\//);
    // The declaration is /tools/0: the path goes MAX_VALUE_DEPTH levels into it.
    expect(issue.path.split('/').length - 3).toBe(MAX_VALUE_DEPTH);
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it('takes a toolkit at the limit, and plans and saves a workflow with it', async () => {
    const client = await owner();
    const text = JSON.stringify({ tools: [deepTool(MAX_VALUE_DEPTH)] });
    const res = await client.send(createToolkitRoute, 'POST', '/api/toolkits', {
      name: 'At the limit',
      text,
    });
    expect(res.status).toBe(201);
    const doc = createDocumentFromPlan({ steps: [{ id: 's', tool: 'deep_tool', args: {} }] }, [
      deepTool(MAX_VALUE_DEPTH),
    ]);
    if (!doc.ok) throw new Error('no document');
    const created = await client.send(createWorkflow, 'POST', '/api/workflows', {
      name: 'w',
      document: doc.value,
    });
    expect(created.status).toBe(201);
  });

  it('refuses the same over-deep declarations in a refresh, a plan request and an imported file', async () => {
    const client = await owner();
    const { toolkit } = await (
      await client.send(createToolkitRoute, 'POST', '/api/toolkits', {
        name: 'Mine',
        text: JSON.stringify({ tools: [deepTool(10)] }),
      })
    ).json();
    const before = await snapshotDatabase(database.db);
    const tooDeep = deepTool(MAX_VALUE_DEPTH + 1);
    const refreshed = await client.send(
      refreshToolkit,
      'POST',
      '',
      { text: JSON.stringify({ tools: [tooDeep] }) },
      { id: toolkit.id },
    );
    expect(refreshed.status).toBe(400);
    expect((await json(refreshed)).issues![0].path).toMatch(/^\/tools\/0\/inputSchema\//);

    const planned = await client.send(plan, 'POST', '/api/plan', {
      task: 'go',
      tools: { tools: [tooDeep] },
      llm: 'offline',
    });
    expect(planned.status).toBe(400);
    // The request's "tools", read as an MCP list: /tools/<index> inside it.
    expect((await json(planned)).issues![0].path).toMatch(/^\/tools\/tools\/0\/inputSchema\//);

    const doc = createDocumentFromPlan({ steps: [{ id: 's', tool: 'deep_tool', args: {} }] }, [tooDeep]);
    if (!doc.ok) throw new Error('no document');
    const file = exportWorkflow(doc.value, { id: 'wf_x', name: 'deep' });
    const imported = await client.send(importWorkflow, 'POST', '/api/workflows/import', file);
    expect(imported.status).toBe(400);
    const body = await json(imported);
    expect(body.code).toBe('bad_request:depth');
    expect(body.issues![0].path).toMatch(/^\/tools\/deep_tool\/declaration\/inputSchema\//);
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it('refuses a value nested past the limit in a save, naming the argument', async () => {
    const client = await owner();
    const tool: ToolDeclaration = {
      name: 'take',
      description: 'takes anything',
      inputSchema: { type: 'object', properties: { value: {} } },
    };
    const doc = createDocumentFromPlan({ steps: [{ id: 's', tool: 'take', args: { value: 1 } }] }, [tool]);
    if (!doc.ok) throw new Error('no document');
    const { workflow } = await (
      await client.send(createWorkflow, 'POST', '/api/workflows', { name: 'w', document: doc.value })
    ).json();
    const before = await snapshotDatabase(database.db);
    const deep = structuredClone(doc.value) as WorkflowDocument;
    deep.nodes[0].args.value = deepValue(MAX_VALUE_DEPTH + 1);
    const res = await client.send(
      saveWorkflow,
      'PUT',
      '',
      { version: 1, document: deep },
      { id: workflow.id },
    );
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.issues![0]).toMatchObject({ code: 'too_deep' });
    expect(body.issues![0].path).toMatch(/^\/document\/nodes\/0\/args\/value(\/0\/a)+/);
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels, naming where`, async () => {
    const client = await owner();
    const res = await client.send(createWorkflow, 'POST', '/api/workflows', {
      name: 'w',
      deep: deepValue(MAX_JSON_DEPTH),
    });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toMatch(/level 109 starts at \/deep(\/a\/0)+\/a\)/);
  });
});

/** Every string (and object key) of `value`, each as a copy of `value` with a NUL put in it. */
function withNulEverywhere(value: unknown): { where: string; body: unknown }[] {
  const variants: { where: string; body: unknown }[] = [];
  const visit = (node: unknown, at: string[], replace: (next: unknown) => unknown) => {
    if (typeof node === 'string') {
      variants.push({ where: '/' + at.join('/'), body: replace(`${node}\u0000`) });
    } else if (Array.isArray(node)) {
      node.forEach((item, i) =>
        visit(item, [...at, String(i)], (next) => replace(node.map((x, j) => (j === i ? next : x)))),
      );
    } else if (node && typeof node === 'object') {
      const entries = Object.entries(node);
      entries.forEach(([key, child], i) => {
        const rebuild = (k: string, v: unknown) =>
          Object.fromEntries(entries.map(([kk, vv], j) => (j === i ? [k, v] : [kk, vv])));
        visit(child, [...at, key], (next) => replace(rebuild(key, next)));
        if (at.length > 0)
          variants.push({
            where: `/${[...at, key].join('/')} (key)`,
            body: replace(rebuild(`${key}\u0000`, child)),
          });
      });
    }
  };
  visit(value, [], (next) => next);
  return variants;
}

const routes = await getStateChangingRoutes();

describe.each(backends)('NUL characters on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  // Every route that takes a body with text in it.
  const bodyRoutes = routes.filter(
    (r) => readsBody(r) && getValidBody(r).known && withNulEverywhere(getValidBody(r).body).length > 0,
  );

  it('walks every route whose body has text', () => {
    expect(bodyRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/workflows',
        'PUT /api/workflows/[id]',
        'POST /api/workflows/import',
        'PATCH /api/workflows/[id]/revisions/[version]',
        'POST /api/toolkits',
        'POST /api/toolkits/[id]/refresh',
        'POST /api/plan',
      ]),
    );
  });

  it.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses a NUL in any text of its body with 400 and the field, writing nothing',
    async (_, route) => {
      const variants = withNulEverywhere(getValidBody(route).body);
      // A fresh owner for every few requests: the routes' rate limits count per owner.
      for (let first = 0; first < variants.length; first += 20) {
        const client = createOwnerClient();
        const params = getParams(route, await createOwnedRecords(client, handlers));
        const before = await snapshotDatabase(database.db);
        for (const { where, body } of variants.slice(first, first + 20)) {
          const res = await route.handler(
            rawRequest(getUrl(route, params), route.method, JSON.stringify(body), {
              'content-type': 'application/json',
              origin: ORIGIN,
              cookie: client.cookie!,
            }),
            { params: Promise.resolve(params) },
          );
          const answer = await json(res);
          expect(res.status, `${where}: ${JSON.stringify(answer)}`).toBe(400);
          expect(answer.code, where).toBe('bad_request:text');
          expect(answer.message, where).toContain('NUL character');
          // A key's problem is located at the object that holds it.
          const at = where.endsWith(' (key)') ? where.slice(0, -6).replace(/\/[^/]*$/, '') : where;
          expect(answer.issues![0].path, where).toBe(at);
        }
        expect(await snapshotDatabase(database.db)).toBe(before);
      }
    },
    120_000,
  );

  it('refuses a NUL written as \\u0000 inside a declarations file, naming the tool and field', async () => {
    const client = createOwnerClient();
    await client.send(listWorkflows, 'GET', '/api/workflows');
    const before = await snapshotDatabase(database.db);
    const text = '{"tools":[{"name":"t","description":"bad \\u0000 text","inputSchema":{"type":"object"}}]}';
    const res = await client.send(createToolkitRoute, 'POST', '/api/toolkits', { name: 'NUL', text });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.issues![0]).toMatchObject({ code: 'unstorable_text', path: '/tools/0/description' });
    expect(body.message).toContain('Tool "t" has a NUL character');
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it('refuses an unpaired surrogate as it refuses a NUL', async () => {
    const client = createOwnerClient();
    const res = await client.send(createWorkflow, 'POST', '/api/workflows', '{"name":"half \\ud800 a pair"}');
    expect(res.status).toBe(400);
    expect((await json(res)).message).toContain('unpaired UTF-16 surrogate');
  });

  it('never answers 500 for a NUL in a path parameter, on any route', async () => {
    const client = createOwnerClient();
    await createOwnedRecords(client, handlers);
    for (const route of await getApiRoutes()) {
      const params = Object.fromEntries(
        [...route.path.matchAll(/\[(\w+)\]/g)].map(([, name]) => [name, `x\u0000`]),
      );
      if (Object.keys(params).length === 0) continue;
      const body = getValidBody({
        ...route,
        method: route.method === 'GET' ? 'POST' : route.method,
      } as never);
      const res = await route.handler(
        rawRequest(
          getUrl(route, params),
          route.method,
          route.method === 'GET' || body.body === undefined ? undefined : JSON.stringify(body.body),
          { 'content-type': 'application/json', origin: ORIGIN, cookie: client.cookie! },
        ),
        { params: Promise.resolve(params) },
      );
      expect(res.status, `${route.method} ${route.path}: ${await res.clone().text()}`).toBeLessThan(500);
    }
  });
});

describe.each(backends)('deep results on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    vi.stubEnv('TOOLFLOW_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'toolflow-deep-')));
    vi.stubEnv('TOOLFLOW_MCP_SERVERS', runServerConfig('faulty'));
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    if (database) await stopAppQueue(database.db);
    await database?.close();
    vi.unstubAllEnvs();
  });

  const tools: ToolDeclaration[] = [
    {
      name: 'deep',
      description: 'Answer deeply nested',
      inputSchema: { type: 'object', properties: { levels: { type: 'integer' } }, required: ['levels'] },
      source: { kind: 'mcp-stdio', server: 'faulty' },
    },
    {
      name: 'echo',
      description: 'Echo the text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      source: { kind: 'mcp-stdio', server: 'faulty' },
    },
  ];

  async function runToEnd(client: OwnerClient, doc: WorkflowDocument) {
    const { workflow } = await (
      await client.send(createWorkflow, 'POST', '/api/workflows', { name: 'w', document: doc })
    ).json();
    const started = await client.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id });
    expect(started.status).toBe(201);
    const { run } = await started.json();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const now = (await (await client.send(readRun, 'GET', '', undefined, { runId: run.id })).json()).run;
      if (!['queued', 'running'].includes(now.status)) return now;
      if (Date.now() > deadline) throw new Error(`run did not end: ${now.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('stores a 300-level structuredContent cut, like an over-large one, and the run goes on', async () => {
    const client = createOwnerClient();
    const doc = createDocumentFromPlan(
      {
        steps: [
          { id: 'deep', tool: 'deep', args: { levels: 300 } },
          { id: 'after', tool: 'echo', args: { text: 'still running' } },
        ],
      },
      tools,
    );
    if (!doc.ok) throw new Error('no document');
    const run = await runToEnd(client, doc.value);
    expect(run.status).toBe('succeeded');
    const { node } = await (
      await client.send(readNode, 'GET', '', undefined, { runId: run.id, nodeId: 'deep' })
    ).json();
    expect(node.status).toBe('succeeded');
    const cut = (node.truncated as string[]).find((c) => c.includes('nested deeper'));
    expect(cut).toMatch(
      new RegExp(
        `^result/structuredContent(/a/0){${(MAX_STORED_DEPTH - 1) / 2}}: nested deeper than ${MAX_STORED_DEPTH} levels, not stored$`,
      ),
    );
    expect(node.truncated).toContain('result/content/0/text: unpaired UTF-16 surrogates stored as U+FFFD');
    expect(node.result.content[0].text).toBe('nested 300 levels, half a pair: \ufffd');
    const nodes = await getRunNodes(database.db, run.id);
    expect(nodes.map((n) => [n.nodeId, n.status])).toEqual([
      ['deep', 'succeeded'],
      ['after', 'succeeded'],
    ]);
  });

  it('ends every step of a run whose records could not be stored', async () => {
    const { db } = database;
    const workflow = await storeWorkflow(db, { name: 'w', ownerId: 'own_finish_00000000000' });
    const run = await createRun(db, {
      workflowId: workflow.id,
      ownerId: 'own_finish_00000000000',
      version: 1,
      exportText: '{}\n',
      exportHash: 'sha256:0',
      limits: DEFAULT_RUN_LIMITS,
      plan: {
        nodes: ['a', 'b', 'c'].map((nodeId, i) => ({
          nodeId,
          stepIndex: i + 1,
          toolName: 't',
          server: null,
          readOnly: false,
          sources: [],
        })),
        servers: [],
        order: ['a', 'b', 'c'],
      },
    });
    await claimRun(db, run.id, 'test-worker');
    const base = { stepIndex: 1, toolName: 't', server: null };
    await saveNodeRecord(db, run.id, { ...base, nodeId: 'a', status: 'succeeded' });
    await saveNodeRecord(db, run.id, { ...base, nodeId: 'b', status: 'running' });
    // A record the database refuses: stored without its result, the step still ends as it did.
    await storeNodeRecord(db, run.id, {
      ...base,
      nodeId: 'b',
      status: 'succeeded',
      result: { content: [], structuredContent: { x: deepValue(200) }, isError: false },
    });
    const b = await getNodeRun(db, run.id, 'b');
    expect(b?.status).toBe('succeeded');
    expect(b?.truncated).toEqual(['result: not stored: the database refused it']);
    expect(await finishRun(db, run.id, 'failed', { code: 'worker_error', message: 'x' })).toBe(true);
    const nodes = await getRunNodes(db, run.id);
    expect(nodes.every((n) => FINAL_NODE_STATUSES.has(n.status))).toBe(true);
    expect(nodes.map((n) => n.status)).toEqual(['succeeded', 'succeeded', 'cancelled']);
  });
});
