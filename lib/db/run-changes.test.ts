/**
 * A run's changes reach whoever follows it as they are stored: at once in the process that
 * stored them, and on Postgres in another process too (a second database client stands for it:
 * it hears the first one's notices, never its own twice).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { getTestBackends, type TestDatabase } from '@/tests/db';
import { createPrisma, type Db } from './client';
import { onRunChange, stopRunChanges, type RunChangeKind } from './run-changes';
import { claimRun, createRun, finishRun, requestCancel, saveNodeRecord } from './runs';
import { createWorkflow } from './workflows';

const backends = await getTestBackends();

/** A running run of one step, stored directly. */
async function createRunningRun(db: Db): Promise<string> {
  const workflow = await createWorkflow(db, { name: 'w', ownerId: 'own_changes' });
  const run = await createRun(db, {
    workflowId: workflow.id,
    ownerId: 'own_changes',
    version: 1,
    exportText: '{}',
    exportHash: 'sha256:0',
    limits: DEFAULT_RUN_LIMITS,
    plan: {
      nodes: [{ nodeId: 'a', stepIndex: 1, toolName: 't', server: null, readOnly: true, sources: [] }],
      servers: [],
      order: ['a'],
    },
  });
  await claimRun(db, run.id, 'test-worker');
  return run.id;
}

/** Collects what a subscriber hears, with a way to wait for the next one. */
function listen(db: Db, runId: string) {
  const heard: RunChangeKind[] = [];
  let waiting: (() => void) | undefined;
  const stop = onRunChange(db, runId, (kind) => {
    heard.push(kind);
    waiting?.();
  });
  const next = (ms = 3_000) =>
    new Promise<RunChangeKind>((resolve, reject) => {
      const count = heard.length;
      const timer = setTimeout(() => reject(new Error(`nothing heard in ${ms} ms`)), ms);
      waiting = () => {
        if (heard.length > count) {
          clearTimeout(timer);
          resolve(heard[count]);
        }
      };
    });
  return { heard, next, stop };
}

const record = { nodeId: 'a', stepIndex: 1, toolName: 't', server: null, status: 'running' as const };

describe.each(backends)('run changes on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await stopRunChanges(database.db);
    await database?.close();
  });

  it('tells this process’s subscribers of each stored change as soon as it commits', async () => {
    const { db } = database;
    const runId = await createRunningRun(db);
    const other = await createRunningRun(db);
    const follower = listen(db, runId);
    const bystander = listen(db, other);
    try {
      // On Postgres the listening connection says once that it is ready (look again).
      if (backend.name === 'postgres') await follower.next();
      const before = follower.heard.length;
      await saveNodeRecord(db, runId, record);
      // Heard before the write's promise settled: nothing to wait for.
      expect(follower.heard.slice(before)).toEqual(['progress']);
      await requestCancel(db, runId);
      expect(follower.heard.slice(before + 1)).toEqual(['cancel']);
      await finishRun(db, runId, 'cancelled');
      expect(follower.heard.slice(before + 2)).toEqual(['progress']);
      // Nothing about another run, but the listening connection's one "look again" on Postgres.
      expect(bystander.heard).toEqual(backend.name === 'postgres' ? ['progress'] : []);
    } finally {
      follower.stop();
      bystander.stop();
    }
  });

  it.runIf(backend.name === 'postgres')(
    'tells another process’s subscribers through LISTEN/NOTIFY, within moments',
    async () => {
      const elsewhere = await createPrisma({ kind: 'postgres', url: database.url! });
      try {
        const runId = await createRunningRun(database.db);
        const follower = listen(elsewhere, runId);
        await follower.next(); // listening
        const started = performance.now();
        const heard = follower.next();
        await saveNodeRecord(database.db, runId, record);
        expect(await heard).toBe('progress');
        expect(performance.now() - started).toBeLessThan(1_000);
        const cancel = follower.next();
        await requestCancel(database.db, runId);
        expect(await cancel).toBe('cancel');
        follower.stop();
      } finally {
        await stopRunChanges(elsewhere);
        await elsewhere.$disconnect();
      }
    },
  );
});
