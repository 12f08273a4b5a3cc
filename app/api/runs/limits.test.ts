/**
 * Run limits per workspace (docs/design.md §13.6), through the API with the in-process worker,
 * on PGlite and Postgres: workspace A floods the run route with long runs until it is refused
 * 429 with Retry-After at its cap of queued and running runs; workspace B's run is then accepted
 * and starts at once, in the worker slot A cannot take, while A's runs are still waiting.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getRun } from '@/lib/db/runs';
import { runServerConfig } from '@/lib/mcp/__fixtures__/servers';
import { stopAppQueue } from '@/lib/queue/app';
import type { ToolDeclaration } from '@/lib/tools/types';
import { createDocumentFromPlan } from '@/lib/workflow/plan';
import type { Plan } from '@/lib/workflow/types';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { POST as createWorkflow } from '../workflows/route';
import { POST as startRun } from '../workflows/[id]/runs/route';
import { POST as cancel } from './[runId]/cancel/route';

const backends = await getTestBackends();
const tools: ToolDeclaration[] = [
  ['sleep', { ms: { type: 'integer' } }],
  ['echo', { text: { type: 'string' } }],
].map(([name, properties]) => ({
  name: name as string,
  description: name as string,
  inputSchema: { type: 'object', properties, required: Object.keys(properties) },
  source: { kind: 'mcp-stdio', server: 'faulty' },
}));
const CAP = 3;

async function workflowOf(client: OwnerClient, plan: Plan): Promise<string> {
  const doc = createDocumentFromPlan(plan, tools);
  if (!doc.ok) throw new Error(JSON.stringify(doc.error));
  const res = await client.send(createWorkflow, 'POST', '/api/workflows', {
    name: 'Run',
    document: doc.value,
  });
  expect(res.status).toBe(201);
  return (await res.json()).workflow.id;
}

function run(client: OwnerClient, workflowId: string): Promise<Response> {
  return client.send(startRun, 'POST', '', { version: 1 }, { id: workflowId });
}

describe.each(backends)('run limits per workspace on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    vi.stubEnv('TOOLFLOW_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'toolflow-run-limits-')));
    vi.stubEnv('TOOLFLOW_MCP_SERVERS', runServerConfig('faulty'));
    vi.stubEnv('TOOLFLOW_WORKSPACE_ACTIVE_RUNS', String(CAP));
    vi.stubEnv('TOOLFLOW_WORKER_CONCURRENCY', '2');
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    if (database) await stopAppQueue(database.db);
    await database?.close();
    vi.unstubAllEnvs();
  });

  it("caps a flooding workspace at its own runs, and another workspace's run starts at once", async () => {
    const a = createOwnerClient();
    const b = createOwnerClient();
    const slow = await workflowOf(a, { steps: [{ id: 'nap', tool: 'sleep', args: { ms: 60_000 } }] });
    const quick = await workflowOf(b, { steps: [{ id: 'say', tool: 'echo', args: { text: 'hi' } }] });

    const flood = [];
    for (let i = 0; i < CAP + 3; i++) flood.push(await run(a, slow));
    expect(flood.map((r) => r.status)).toEqual([201, 201, 201, 429, 429, 429]);
    const refused = await flood[CAP].json();
    expect(refused.code).toBe('rate_limited:active_runs');
    expect(refused.message).toContain(`the most one workspace may have at once (${CAP})`);
    expect(flood[CAP].headers.get('retry-after')).toBe('10');
    const aRuns = await Promise.all(flood.slice(0, CAP).map(async (r) => (await r.json()).run.id as string));

    // Wait until A holds the one slot it may have; its other runs stay queued.
    const deadline = Date.now() + 20_000;
    let statuses: (string | undefined)[] = [];
    while (Date.now() < deadline) {
      statuses = await Promise.all(aRuns.map(async (id) => (await getRun(database.db, id))?.status));
      if (statuses.includes('running')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(statuses.filter((s) => s === 'running')).toHaveLength(1);

    const asked = performance.now();
    const started = await run(b, quick);
    expect(started.status).toBe(201);
    const bRun = (await started.json()).run.id as string;
    let done;
    while (performance.now() - asked < 20_000) {
      done = await getRun(database.db, bRun);
      if (done?.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const waited = performance.now() - asked;
    expect(done?.status).toBe('succeeded');
    // B's run ran while A's flood was still waiting: A's queued runs did not go first.
    const aNow = await Promise.all(aRuns.map(async (id) => (await getRun(database.db, id))?.status));
    expect(aNow.filter((s) => s === 'queued')).toHaveLength(CAP - 1);
    console.log(`workspace B's run, asked during A's flood, succeeded in ${Math.round(waited)} ms`);
    expect(waited).toBeLessThan(10_000);

    // Ending A's runs frees its cap.
    for (const id of aRuns) expect((await a.send(cancel, 'POST', '', {}, { runId: id })).status).toBe(200);
    const again = await run(a, slow);
    expect(again.status).toBe(201);
    await a.send(cancel, 'POST', '', {}, { runId: (await again.json()).run.id });
  }, 90_000);
});
