/**
 * A worker stops a run as soon as someone asks, from whichever process asked: on Postgres the
 * cancel request's notice reaches the worker's process at once, long before its next heartbeat
 * (set here to a minute) would have found it. A second database client stands for the web
 * process that took the request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, getDatabaseBacking, type Db } from '@/lib/db/client';
import { stopRunChanges } from '@/lib/db/run-changes';
import { createRun, getRun, getRunNodes, requestCancel } from '@/lib/db/runs';
import { createWorkflow } from '@/lib/db/workflows';
import { LOCAL_OPTIONS, runServerConfig } from '@/lib/mcp/__fixtures__/servers';
import { buildExport, tool } from '@/lib/run/__fixtures__/exports';
import { planRun } from '@/lib/run/preflight';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { formatExportFile, getExportHash } from '@/lib/workflow/export';
import { getTestBackends, type TestDatabase } from '@/tests/db';
import { RUN_QUEUE, startBoss } from './boss';
import { startRunWorker, type RunWorker } from './run-worker';

const postgres = (await getTestBackends()).find((b) => b.name === 'postgres');

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.runIf(postgres)('a worker on Postgres', () => {
  let database: TestDatabase;
  let web: Db;
  let worker: RunWorker;
  let boss: Awaited<ReturnType<typeof startBoss>>;
  beforeAll(async () => {
    database = await postgres!.open();
    web = await createPrisma({ kind: 'postgres', url: database.url! });
    boss = await startBoss(getDatabaseBacking(database.db));
    worker = await startRunWorker({
      db: database.db,
      boss,
      client: LOCAL_OPTIONS,
      config: { env: { TOOLFLOW_MCP_SERVERS: runServerConfig('faulty') } },
      heartbeatMs: 60_000,
      pollingIntervalSeconds: 0.5,
    });
  });
  afterAll(async () => {
    await worker?.stop(0);
    await boss?.stop({ graceful: false, wait: true, close: true });
    await stopRunChanges(database.db);
    await web?.$disconnect();
    await database?.close();
  });

  it('stops a run at once when another process asks it to', async () => {
    const sleep = tool('sleep', { ms: { type: 'integer' } }, { server: 'faulty' });
    const file = buildExport({ steps: [{ id: 'nap', tool: 'sleep', args: { ms: 30_000 } }] }, [sleep]);
    const workflow = await createWorkflow(database.db, { name: 'Nap', ownerId: 'own_worker' });
    const text = formatExportFile(file);
    const run = await createRun(database.db, {
      workflowId: workflow.id,
      ownerId: 'own_worker',
      version: 1,
      exportText: text,
      exportHash: getExportHash(text),
      limits: DEFAULT_RUN_LIMITS,
      plan: planRun(file),
    });
    await boss.send(RUN_QUEUE, { runId: run.id });
    worker.notify();
    await until(
      () => getRunNodes(database.db, run.id),
      (nodes) => nodes[0].status === 'running',
    );
    const asked = performance.now();
    await requestCancel(web, run.id);
    const ended = await until(
      () => getRun(database.db, run.id),
      (r) => r?.status === 'cancelled',
    );
    expect(ended?.status).toBe('cancelled');
    // Well before the next heartbeat (a minute away) would have seen the request.
    expect(performance.now() - asked).toBeLessThan(5_000);
    expect((await getRunNodes(database.db, run.id))[0].status).toBe('cancelled');
  });
});
