/**
 * Test-runs through the API, on PGlite and Postgres: pre-flight, run, the stream, the
 * stored arguments and results, the exact export and its hash, owner-only access, an image served
 * from a stored result, cancel, a server that exits mid-run, a step over its timeout, a
 * schema-failing node and the restart sweep. The in-process worker runs the jobs from pg-boss.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimRun, createRun } from '@/lib/db/runs';
import { enqueueRun, getAppQueue, stopAppQueue } from '@/lib/queue/app';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { BUILTIN_TOOLKITS } from '@/lib/toolkits/builtin';
import type { ToolDeclaration } from '@/lib/tools/types';
import { createDocumentFromPlan } from '@/lib/workflow/plan';
import type { Plan } from '@/lib/workflow/types';
import { listMcpTools, type StdioTarget } from '@/lib/mcp/client';
import { LOCAL_OPTIONS, runServerConfig, SERVER_EVERYTHING } from '@/lib/mcp/__fixtures__/servers';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { POST as createWorkflow } from '../workflows/route';
import { GET as exportWorkflow } from '../workflows/[id]/export/route';
import { POST as createShare } from '../workflows/[id]/shares/route';
import { GET as readShare } from '../shares/[token]/route';
import { GET as listRuns, POST as startRun } from '../workflows/[id]/runs/route';
import { GET as preflight } from '../workflows/[id]/runs/preflight/route';
import { GET as readRun } from './[runId]/route';
import { GET as followRun } from './[runId]/events/route';
import { GET as readNode } from './[runId]/nodes/[nodeId]/route';
import { GET as readContent } from './[runId]/nodes/[nodeId]/content/[index]/route';
import { POST as cancel } from './[runId]/cancel/route';
import { GET as downloadExport } from './[runId]/export/route';
import { getExportHash } from '@/lib/workflow/export';

const backends = await getTestBackends();
const everything: StdioTarget = {
  kind: 'stdio',
  name: 'everything',
  command: process.execPath,
  args: [SERVER_EVERYTHING, 'stdio'],
};
const everythingTools = await listMcpTools(everything, LOCAL_OPTIONS).then((listed) => {
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value.tools;
});
/** The stdio servers configured for these tests: the fault server and server-everything. */
const serverConfig = (log?: string) =>
  JSON.stringify({
    ...JSON.parse(runServerConfig('faulty', log)),
    everything: { command: everything.command, args: everything.args },
  });
const memoryTools = BUILTIN_TOOLKITS.find((k) => k.key === 'memory')!.tools;
/** The tools of lib/mcp/__fixtures__/run-server.mjs, configured as the stdio server "faulty". */
const faultTools: ToolDeclaration[] = [
  ['sleep', { ms: { type: 'integer' } }],
  ['echo', { text: { type: 'string' } }],
  ['exit', {}],
].map(([name, properties]) => ({
  name: name as string,
  description: name as string,
  inputSchema: { type: 'object', properties, required: Object.keys(properties) },
  source: { kind: 'mcp-stdio', server: 'faulty' },
}));

const MEMORY_PLAN: Plan = {
  steps: [
    {
      id: 'create',
      tool: 'create_entities',
      args: {
        entities: [
          { name: 'Alice', entityType: 'person', observations: [] },
          { name: 'Bob', entityType: 'person', observations: [] },
        ],
      },
    },
    {
      id: 'relate',
      tool: 'create_relations',
      args: { relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }] },
    },
    { id: 'read', tool: 'read_graph', args: {} },
  ],
};

async function createFrom(client: OwnerClient, plan: Plan, tools: ToolDeclaration[]) {
  const doc = createDocumentFromPlan(plan, tools);
  if (!doc.ok) throw new Error(JSON.stringify(doc.error));
  const res = await client.send(createWorkflow, 'POST', '/api/workflows', {
    name: 'Run me',
    document: doc.value,
  });
  expect(res.status).toBe(201);
  return (await res.json()).workflow as { id: string; version: number };
}

/** Reads the event stream to its end; returns every line. */
async function follow(client: OwnerClient, runId: string) {
  const res = await client.send(followRun, 'GET', `/api/runs/${runId}/events`, undefined, { runId });
  expect(res.status).toBe(200);
  const text = await res.text();
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

async function waitFor<T>(get: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(backends)('test-runs on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    vi.stubEnv('TOOLFLOW_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'toolflow-runs-')));
    vi.stubEnv('TOOLFLOW_MCP_SERVERS', serverConfig());
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    if (database) await stopAppQueue(database.db);
    await database?.close();
    vi.unstubAllEnvs();
  });

  it('lists the calls before running, runs the memory chain green and keeps every result', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(alice, MEMORY_PLAN, memoryTools);
    const pre = await alice.send(
      preflight,
      'GET',
      `/api/workflows/${workflow.id}/runs/preflight?version=1`,
      undefined,
      {
        id: workflow.id,
      },
    );
    expect(pre.status).toBe(200);
    const { preflight: plan } = await pre.json();
    expect(plan).toMatchObject({
      version: 1,
      runnable: 3,
      servers: [
        { label: 'memory', kind: 'stdio', tools: ['create_entities', 'create_relations', 'read_graph'] },
      ],
    });

    const res = await alice.send(
      startRun,
      'POST',
      `/api/workflows/${workflow.id}/runs`,
      { version: 1 },
      { id: workflow.id },
    );
    expect(res.status).toBe(201);
    const { run } = await res.json();
    expect(run).toMatchObject({ status: 'queued', version: 1, nodeCount: 3 });

    const lines = await follow(alice, run.id);
    expect(lines[0].type).toBe('state');
    expect(lines.at(-1)).toEqual({ type: 'end', status: 'succeeded' });
    const last = lines.filter((l) => l.type === 'state').at(-1);
    expect(last.nodes.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])).toEqual([
      ['create', 'succeeded'],
      ['relate', 'succeeded'],
      ['read', 'succeeded'],
    ]);
    expect(last.nodes.every((n: { durationMs: number }) => n.durationMs >= 0)).toBe(true);

    const node = await (
      await alice.send(readNode, 'GET', '', undefined, { runId: run.id, nodeId: 'read' })
    ).json();
    expect(node.node.result.structuredContent.relations).toEqual([
      { from: 'Alice', to: 'Bob', relationType: 'knows' },
    ]);
    const created = await (
      await alice.send(readNode, 'GET', '', undefined, { runId: run.id, nodeId: 'create' })
    ).json();
    expect(JSON.stringify(created.node.arguments)).toBe(
      JSON.stringify({ entities: MEMORY_PLAN.steps[0].args.entities }),
    );

    // The file that ran is the file the export gives, byte for byte, and its hash is stored.
    const ran = await alice.send(downloadExport, 'GET', '', undefined, { runId: run.id });
    const ranText = await ran.text();
    const exported = await (
      await alice.send(exportWorkflow, 'GET', '', undefined, { id: workflow.id })
    ).text();
    expect(ranText).toBe(exported);
    expect(ran.headers.get('x-toolflow-export-hash')).toBe(getExportHash(exported));
    expect(
      (await (await alice.send(readRun, 'GET', '', undefined, { runId: run.id })).json()).run.exportHash,
    ).toBe(getExportHash(exported));

    const listed = await (await alice.send(listRuns, 'GET', '', undefined, { id: workflow.id })).json();
    expect(listed.runs.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      [run.id, 'succeeded'],
    ]);
  });

  it('shows runs to their owner only, never through a share link', async () => {
    const alice = createOwnerClient();
    const bob = createOwnerClient();
    const workflow = await createFrom(alice, MEMORY_PLAN, memoryTools);
    const { run } = await (
      await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id })
    ).json();
    await follow(alice, run.id);
    await bob.send(listRuns, 'GET', '/api/workflows', undefined, { id: 'x' }); // get Bob a cookie
    for (const [handler, params] of [
      [readRun, { runId: run.id }],
      [followRun, { runId: run.id }],
      [readNode, { runId: run.id, nodeId: 'read' }],
      [downloadExport, { runId: run.id }],
    ] as const) {
      expect((await bob.send(handler, 'GET', '', undefined, params)).status).toBe(403);
    }
    expect((await bob.send(cancel, 'POST', '', undefined, { runId: run.id })).status).toBe(403);
    expect((await bob.send(listRuns, 'GET', '', undefined, { id: workflow.id })).status).toBe(403);
    expect((await bob.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id })).status).toBe(403);
    const { token } = await (await alice.send(createShare, 'POST', '', {}, { id: workflow.id })).json();
    const shared = await (await bob.send(readShare, 'GET', '', undefined, { token })).text();
    expect(shared).not.toContain(run.id);
    expect(shared).not.toContain('"runs"');
  });

  it('keeps an image a step returned and serves it to the owner only, as the image it is', async () => {
    const alice = createOwnerClient();
    const bob = createOwnerClient();
    const workflow = await createFrom(
      alice,
      { steps: [{ id: 'image', tool: 'get-tiny-image', args: {} }] },
      everythingTools,
    );
    const { run } = await (
      await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id })
    ).json();
    expect((await follow(alice, run.id)).at(-1)).toEqual({ type: 'end', status: 'succeeded' });
    const { node } = await (
      await alice.send(readNode, 'GET', '', undefined, { runId: run.id, nodeId: 'image' })
    ).json();
    const blocks = node.result.content as { type: string; mimeType?: string; data?: string }[];
    const index = blocks.findIndex((b) => b.type === 'image');
    expect(blocks[index]).toMatchObject({ type: 'image', mimeType: 'image/png' });

    const params = { runId: run.id, nodeId: 'image', index: String(index) };
    const res = await alice.send(readContent, 'GET', '', undefined, params);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a'); // the PNG signature
    expect(bytes.equals(Buffer.from(blocks[index].data!, 'base64'))).toBe(true);

    await bob.send(listRuns, 'GET', '/api/workflows', undefined, { id: 'x' }); // get Bob a cookie
    expect((await bob.send(readContent, 'GET', '', undefined, params)).status).toBe(403);
    const text = blocks.findIndex((b) => b.type === 'text');
    expect(
      (await alice.send(readContent, 'GET', '', undefined, { ...params, index: String(text) })).status,
    ).toBe(415);
    expect(
      (await alice.send(readContent, 'GET', '', undefined, { ...params, index: String(blocks.length) }))
        .status,
    ).toBe(404);
  });

  it('cancels a running run: the call stops and the steps not started are cancelled', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(
      alice,
      { steps: [1, 2].map((i) => ({ id: `s${i}`, tool: 'sleep', args: { ms: 20_000 } })) },
      faultTools,
    );
    const { run } = await (
      await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id })
    ).json();
    await waitFor(
      async () => (await (await alice.send(readRun, 'GET', '', undefined, { runId: run.id })).json()).nodes,
      (nodes: { status: string }[]) => nodes[0].status === 'running',
    );
    const started = Date.now();
    const res = await alice.send(cancel, 'POST', '', undefined, { runId: run.id });
    expect(res.status).toBe(200);
    const lines = await follow(alice, run.id);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(lines.at(-1)).toEqual({ type: 'end', status: 'cancelled' });
    expect(lines.at(-2).nodes.map((n: { status: string }) => n.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('a server that exits mid-run and a step over its timeout fail those steps; the run ends and every step is stored', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'toolflow-calls-')), 'calls.jsonl');
    writeFileSync(log, '');
    vi.stubEnv('TOOLFLOW_MCP_SERVERS', serverConfig(log));
    // Long enough for the server to start (the first call of a step on it starts it), short for the test.
    vi.stubEnv('TOOLFLOW_RUN_NODE_TIMEOUT_MS', '2500');
    try {
      const alice = createOwnerClient();
      const workflow = await createFrom(
        alice,
        {
          steps: [
            { id: 'before', tool: 'echo', args: { text: 'one' } },
            { id: 'crash', tool: 'exit', args: {} },
            { id: 'fed', tool: 'echo', args: { text: '{{crash.result}}' } },
            { id: 'slow', tool: 'sleep', args: { ms: 20_000 } },
            { id: 'later', tool: 'echo', args: { text: 'two' } },
          ],
        },
        faultTools,
      );
      const { run } = await (
        await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id })
      ).json();
      const lines = await follow(alice, run.id);
      expect(lines.at(-1)).toEqual({ type: 'end', status: 'failed' });

      // What is stored, read back after the run: a final state everywhere, nothing missing.
      const stored = await (await alice.send(readRun, 'GET', '', undefined, { runId: run.id })).json();
      expect(stored.run.status).toBe('failed');
      expect(stored.run.finishedAt).not.toBeNull();
      expect(
        stored.nodes.map((n: { nodeId: string; status: string; error: { code: string } | null }) => [
          n.nodeId,
          n.status,
          n.error?.code ?? null,
        ]),
      ).toEqual([
        ['before', 'succeeded', null],
        ['crash', 'failed', 'server_exited'],
        ['fed', 'skipped', 'upstream_failed'],
        ['slow', 'failed', 'timeout'],
        ['later', 'succeeded', null],
      ]);
      const details = await Promise.all(
        ['before', 'crash', 'fed', 'slow', 'later'].map(
          async (nodeId) =>
            (await (await alice.send(readNode, 'GET', '', undefined, { runId: run.id, nodeId })).json()).node,
        ),
      );
      // Every call the server received is stored with exactly the arguments it got, in order;
      // the skipped step was never called and has no arguments.
      const received = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const called = details.filter((n) => n.arguments !== null);
      expect(JSON.stringify(called.map((n) => ({ name: n.toolName, args: n.arguments })))).toBe(
        JSON.stringify(received),
      );
      expect(called.map((n) => n.nodeId)).toEqual(['before', 'crash', 'slow', 'later']);
      for (const node of called) {
        expect(node.startedAt).not.toBeNull();
        expect(node.finishedAt).not.toBeNull();
      }
      expect(details[4].result.structuredContent).toEqual({ text: 'two' });
    } finally {
      vi.stubEnv('TOOLFLOW_MCP_SERVERS', serverConfig());
      vi.stubEnv('TOOLFLOW_RUN_NODE_TIMEOUT_MS', undefined);
    }
  });

  it('refuses to start while a step is invalid, naming the step and the value, and stores nothing', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(
      alice,
      {
        steps: [
          {
            id: 'bad',
            tool: 'create_entities',
            args: { entities: [{ name: 7, entityType: 'x', observations: [] }] },
          },
          { id: 'read', tool: 'read_graph', args: {} },
        ],
      },
      memoryTools,
    );
    const { preflight: plan } = await (
      await alice.send(preflight, 'GET', '/x', undefined, { id: workflow.id })
    ).json();
    expect(plan.nodes[0].blocked).toMatchObject({ code: 'invalid_arguments', path: '/entities/0/name' });
    expect(plan.nodes[0].blocked.message).toContain('"entities/0/name" (value 7) must be string');
    expect([plan.runnable, plan.invalid]).toEqual([1, 1]);
    const why = 'Fix 1 invalid step first (1. create_entities): a run starts only when every step is valid.';
    expect(plan.refusal).toEqual({ code: 'invalid_steps', message: why });
    const res = await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect([body.code, body.message]).toEqual(['unprocessable:invalid_steps', why]);
    expect(body.preflight.refusal.code).toBe('invalid_steps');
    expect(await database.db.run.count({ where: { workflowId: workflow.id } })).toBe(0);
  });

  it('runs the rest when a step only lacks a server here: that step fails without a call', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(
      alice,
      {
        steps: [
          { id: 'declared', tool: 'read_graph', args: {} },
          { id: 'read', tool: 'search_nodes', args: { query: 'x' } },
        ],
      },
      [{ ...memoryTools[6], source: { kind: 'file', toolkit: 'Mine' } }, ...memoryTools.slice(7)],
    );
    const { run } = await (
      await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id })
    ).json();
    const lines = await follow(alice, run.id);
    const nodes = lines.at(-2).nodes;
    expect(nodes.map((n: { status: string }) => n.status)).toEqual(['failed', 'succeeded']);
    expect(nodes[0].error.code).toBe('no_server');
  });

  it('refuses a version where no step can run, and a version that does not exist', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(alice, { steps: [{ id: 'x', tool: 'read_graph', args: {} }] }, [
      { ...memoryTools[6], source: { kind: 'file', toolkit: 'Mine' } },
    ]);
    const res = await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id });
    expect(res.status).toBe(422);
    expect((await res.json()).preflight.nodes[0].blocked.code).toBe('no_server');
    expect((await alice.send(startRun, 'POST', '', { version: 9 }, { id: workflow.id })).status).toBe(404);
  });

  it('needs the version to run: {} is a 400 naming it, and nothing is stored', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(alice, MEMORY_PLAN, memoryTools);
    const res = await alice.send(startRun, 'POST', '', {}, { id: workflow.id });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('bad_request:version');
    expect(body.message).toContain('version');
    expect(await database.db.run.count({ where: { workflowId: workflow.id } })).toBe(0);
  });

  it('stores the plan it answered with, and the worker executes that plan without planning again', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(alice, MEMORY_PLAN, memoryTools);
    const res = await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id });
    const { run, preflight: answered } = await res.json();
    const stored = await database.db.run.findUnique({ where: { id: run.id }, select: { plan: true } });
    expect((stored?.plan as { nodes: { nodeId: string }[] }).nodes.map((n) => n.nodeId)).toEqual(
      answered.nodes.map((n: { nodeId: string }) => n.nodeId),
    );
    await follow(alice, run.id);

    // A plan that blocks a step the export alone would let run: the worker keeps to it.
    const owner = (await database.db.workflow.findUnique({ where: { id: workflow.id } }))!.ownerId!;
    const exportText = await (
      await alice.send(exportWorkflow, 'GET', '', undefined, { id: workflow.id })
    ).text();
    const plan = JSON.parse(JSON.stringify(stored!.plan));
    plan.nodes[2].blocked = { code: 'held_back', message: 'Held back by the plan this run was stored with.' };
    const held = await createRun(database.db, {
      workflowId: workflow.id,
      ownerId: owner,
      version: 1,
      exportText,
      exportHash: getExportHash(exportText),
      limits: DEFAULT_RUN_LIMITS,
      plan,
    });
    await enqueueRun(database.db, held.id);
    const done = await waitFor(
      async () => (await alice.send(readRun, 'GET', '', undefined, { runId: held.id })).json(),
      (body) => body.run.status !== 'queued' && body.run.status !== 'running',
    );
    expect(done.nodes.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])).toEqual([
      ['create', 'succeeded'],
      ['relate', 'succeeded'],
      ['read', 'failed'],
    ]);
    expect(done.nodes[2].error.code).toBe('held_back');
  });

  it('marks a run whose worker stopped as interrupted when a worker starts, never leaving it running', async () => {
    const alice = createOwnerClient();
    const workflow = await createFrom(alice, MEMORY_PLAN, memoryTools);
    const owner = (await database.db.workflow.findUnique({ where: { id: workflow.id } }))!.ownerId!;
    const run = await createRun(database.db, {
      workflowId: workflow.id,
      ownerId: owner,
      version: 1,
      exportText: '{}\n',
      exportHash: 'sha256:0',
      limits: DEFAULT_RUN_LIMITS,
      plan: {
        nodes: [
          {
            nodeId: 'create',
            stepIndex: 1,
            toolName: 'create_entities',
            server: null,
            readOnly: false,
            sources: [],
          },
        ],
        servers: [],
        order: ['create'],
      },
    });
    // A worker took it and died: running, with a heartbeat long past.
    await claimRun(database.db, run.id, 'gone:1:abc');
    await database.db.nodeRun.updateMany({ where: { runId: run.id }, data: { status: 'running' } });
    await database.db.run.update({
      where: { id: run.id },
      data: { heartbeatAt: new Date(Date.now() - 120_000) },
    });
    await stopAppQueue(database.db);
    await getAppQueue(database.db);
    const after = await (await alice.send(readRun, 'GET', '', undefined, { runId: run.id })).json();
    expect(after.run).toMatchObject({ status: 'interrupted', error: { code: 'interrupted' } });
    expect(after.nodes[0].status).toBe('interrupted');
  });
});
