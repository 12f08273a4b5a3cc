/**
 * The runnable samples keep each person's data apart, tested where runs execute: workflows
 * created and run through the API, executed by the in-process queue worker against the real
 * memory and filesystem servers from npm, on PGlite and Postgres.
 *
 * Alice writes a private file and creates a private entity. Bob, with another cookie, lists ".",
 * reads her file by name, by `..` and by absolute path, reads the graph, writes over her file's
 * name and deletes her entity: he sees nothing of hers, and her data is unchanged afterwards. Two
 * runs at once get a server each, in their owner's folder. A step that would pass a cap fails with
 * a message that says so.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getNodeRun } from '@/lib/db/runs';
import { getSampleSpace, getSampleSpaceDir, SAMPLE_CAPS } from '@/lib/mcp/sample-spaces';
import { stopAppQueue } from '@/lib/queue/app';
import { BUILTIN_TOOLKITS } from '@/lib/toolkits/builtin';
import { createDocumentFromPlan } from '@/lib/workflow/plan';
import type { Plan } from '@/lib/workflow/types';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as listWorkflows, POST as createWorkflow } from '@/app/api/workflows/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { GET as preflight } from '@/app/api/workflows/[id]/runs/preflight/route';
import { GET as readRun } from '@/app/api/runs/[runId]/route';
import { GET as readNode } from '@/app/api/runs/[runId]/nodes/[nodeId]/route';

const backends = await getTestBackends();
const tools = ['memory', 'files'].flatMap((key) => BUILTIN_TOOLKITS.find((k) => k.key === key)!.tools);
const SECRET = 'alice-key-7f3a';

/** The owner id in a client's cookie (`toolflow_owner=v1.<id>.<signature>`). */
const ownerOf = (client: OwnerClient) => client.cookie!.split('=')[1].split('.')[1];

/** A caller that already has its owner cookie (as a browser has after its first page). */
async function createOwner(): Promise<OwnerClient> {
  const client = createOwnerClient();
  await client.send(listWorkflows, 'GET', '/api/workflows');
  return client;
}

async function run(client: OwnerClient, plan: Plan) {
  const doc = createDocumentFromPlan(plan, tools);
  if (!doc.ok) throw new Error(JSON.stringify(doc.error));
  const created = await client.send(createWorkflow, 'POST', '/api/workflows', {
    name: 'w',
    document: doc.value,
  });
  expect(created.status).toBe(201);
  const { workflow } = await created.json();
  const started = await client.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id });
  expect(started.status, await started.clone().text()).toBe(201);
  return (await started.json()).run.id as string;
}

async function finished(client: OwnerClient, runId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { run } = await (await client.send(readRun, 'GET', '', undefined, { runId })).json();
    if (!['queued', 'running'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not finish: ${run.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A node's status, error and result text (text blocks joined, then structured content). */
async function node(client: OwnerClient, runId: string, nodeId: string) {
  const { node } = await (await client.send(readNode, 'GET', '', undefined, { runId, nodeId })).json();
  const text = [
    ...(node.result?.content ?? []).map((b: { text?: string }) => b.text ?? ''),
    JSON.stringify(node.result?.structuredContent ?? null),
  ].join('\n');
  return {
    status: node.status as string,
    error: [node.error?.message, node.error?.detail].filter(Boolean).join(' — '),
    text,
  };
}

describe.each(backends)('the runnable samples on $name', (backend) => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'toolflow-spaces-'));
    vi.stubEnv('TOOLFLOW_DATA_DIR', dataDir);
    vi.stubEnv('TOOLFLOW_MCP_SERVERS', '');
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    if (database) await stopAppQueue(database.db);
    await database?.close();
    vi.unstubAllEnvs();
  });

  it("keep one person's files and graph from another's runs", async () => {
    const alice = await createOwner();
    const bob = await createOwner();
    const wrote = await run(alice, {
      steps: [
        { id: 'write', tool: 'write_file', args: { path: 'alice-private.txt', content: SECRET } },
        {
          id: 'remember',
          tool: 'create_entities',
          args: { entities: [{ name: 'Alice', entityType: 'person', observations: [SECRET] }] },
        },
      ],
    });
    expect((await finished(alice, wrote)).status).toBe('succeeded');

    const aliceFile = path.join(
      getSampleSpaceDir(dataDir, getSampleSpace(ownerOf(alice))),
      'files',
      'alice-private.txt',
    );
    const probed = await run(bob, {
      steps: [
        { id: 'list', tool: 'list_directory', args: { path: '.' } },
        { id: 'read', tool: 'read_text_file', args: { path: 'alice-private.txt' } },
        { id: 'up', tool: 'list_directory', args: { path: '..' } },
        {
          id: 'dotdot',
          tool: 'read_text_file',
          args: {
            path: path.relative(
              path.join(getSampleSpaceDir(dataDir, getSampleSpace(ownerOf(bob))), 'files'),
              aliceFile,
            ),
          },
        },
        { id: 'absolute', tool: 'read_text_file', args: { path: aliceFile } },
        { id: 'graph', tool: 'read_graph', args: {} },
        { id: 'search', tool: 'search_nodes', args: { query: 'Alice' } },
        { id: 'overwrite', tool: 'write_file', args: { path: 'alice-private.txt', content: 'bob was here' } },
        { id: 'forget', tool: 'delete_entities', args: { entityNames: ['Alice'] } },
      ],
    });
    await finished(bob, probed);
    const list = await node(bob, probed, 'list');
    expect(list.status).toBe('succeeded');
    expect(list.text).not.toContain('alice');
    expect(await node(bob, probed, 'read')).toMatchObject({ status: 'failed' });
    for (const escape of ['up', 'dotdot', 'absolute']) {
      const result = await node(bob, probed, escape);
      expect(result.status, escape).toBe('failed');
      expect(result.error, escape).toMatch(/Access denied/);
    }
    for (const read of ['graph', 'search']) {
      const result = await node(bob, probed, read);
      expect(result.status, read).toBe('succeeded');
      expect(result.text, read).not.toContain(SECRET);
      expect(result.text, read).not.toContain('Alice');
    }
    // Bob's write lands in his own folder; his delete finds nothing of hers.
    expect((await node(bob, probed, 'overwrite')).status).toBe('succeeded');

    const checked = await run(alice, {
      steps: [
        { id: 'read', tool: 'read_text_file', args: { path: 'alice-private.txt' } },
        { id: 'graph', tool: 'read_graph', args: {} },
      ],
    });
    expect((await finished(alice, checked)).status).toBe('succeeded');
    expect((await node(alice, checked, 'read')).text).toContain(SECRET);
    expect((await node(alice, checked, 'graph')).text).toContain(SECRET);
    expect((await node(alice, checked, 'read')).text).not.toContain('bob was here');
  });

  it("give two runs at once a server each, in its own owner's folder", async () => {
    const owners = [await createOwner(), await createOwner()];
    const plan: Plan = { steps: [{ id: 'where', tool: 'list_allowed_directories', args: {} }] };
    const runs = await Promise.all(owners.map((owner) => run(owner, plan)));
    for (const [i, owner] of owners.entries()) {
      expect((await finished(owner, runs[i])).status).toBe('succeeded');
      const own = path.join(getSampleSpaceDir(dataDir, getSampleSpace(ownerOf(owner))), 'files');
      const other = path.join(getSampleSpaceDir(dataDir, getSampleSpace(ownerOf(owners[1 - i]))), 'files');
      // The stored record holds the server's own words; the API shows the folder as ".".
      const stored = await getNodeRun(database.db, runs[i], 'where');
      const text = JSON.stringify(stored?.result);
      expect(text).toContain(own);
      expect(text).not.toContain(other);
      expect((await node(owner, runs[i], 'where')).text).toContain('Allowed directories:\n.\n');
    }
  });

  it('say in the pre-flight where each sample keeps the data', async () => {
    const alice = createOwnerClient();
    const doc = createDocumentFromPlan(
      {
        steps: [
          { id: 'graph', tool: 'read_graph', args: {} },
          { id: 'list', tool: 'list_directory', args: { path: '.' } },
        ],
      },
      tools,
    );
    if (!doc.ok) throw new Error('no document');
    const { workflow } = await (
      await alice.send(createWorkflow, 'POST', '/api/workflows', { name: 'w', document: doc.value })
    ).json();
    const res = await alice.send(preflight, 'GET', '/?version=1', undefined, { id: workflow.id });
    const { servers } = (await res.json()).preflight;
    expect(servers).toMatchObject([
      {
        label: 'memory',
        dataNote: expect.stringMatching(
          /^Your own Memory graph, kept by this Toolflow server; only your runs see it/,
        ),
      },
      {
        label: 'filesystem',
        dataNote: expect.stringMatching(/^Every path is inside your own Files folder.*Only your runs see it/),
      },
    ]);
  });

  it('fail a step that would take the Memory graph past its cap, saying so', async () => {
    const alice = createOwnerClient();
    const big = 'o'.repeat(SAMPLE_CAPS.memory.maxBytes + 1);
    const ran = await run(alice, {
      steps: [
        {
          id: 'huge',
          tool: 'create_entities',
          args: { entities: [{ name: 'Big', entityType: 'note', observations: [big] }] },
        },
        { id: 'graph', tool: 'read_graph', args: {} },
      ],
    });
    await finished(alice, ran);
    const huge = await node(alice, ran, 'huge');
    expect(huge.status).toBe('failed');
    expect(huge.error).toMatch(/Your Memory graph is full: it may hold 1\.0 MB/);
    expect((await node(alice, ran, 'graph')).text).not.toContain('Big');
  });
});
