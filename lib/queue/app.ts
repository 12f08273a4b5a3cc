import 'server-only';
/**
 * The queue as the web app uses it: pg-boss on the app's database, and the in-process worker.
 * On the embedded database (PGlite, one process) the app always runs the worker itself; on a
 * real Postgres server it does too unless `TOOLFLOW_APP_WORKER=0`, and `npm run worker` adds
 * more worker processes (on this machine or others). Started on first use and by
 * instrumentation.ts when the server starts, so interrupted runs are marked at once.
 */
import type PgBoss from 'pg-boss';
import { getDatabaseBacking, getPrisma, type Db } from '../db/client';
import { stopRunChanges } from '../db/run-changes';
import { requestCancel } from '../db/runs';
import { getMcpClientOptions } from '../mcp/config';
import type { RunStatus } from '../run/types';
import { RUN_QUEUE, startBoss } from './boss';
import { startRunWorker, type RunJobData, type RunWorker } from './run-worker';

interface AppQueue {
  boss: PgBoss;
  worker: RunWorker | null;
}

const globalKey = Symbol.for('toolflow.queue');
// Survives Next's dev-mode module reloads: one queue (and one worker) per database per process.
const queues: WeakMap<Db, Promise<AppQueue>> = ((globalThis as Record<symbol, unknown>)[globalKey] ??=
  new WeakMap()) as WeakMap<Db, Promise<AppQueue>>;

/** Whether this app process runs a worker too. */
export function isAppWorkerEnabled(db: Db, env: Record<string, string | undefined> = process.env): boolean {
  return getDatabaseBacking(db).kind === 'pglite' || env.TOOLFLOW_APP_WORKER !== '0';
}

async function start(db: Db): Promise<AppQueue> {
  const backing = getDatabaseBacking(db);
  const boss = await startBoss(backing);
  const worker = isAppWorkerEnabled(db)
    ? await startRunWorker({
        db,
        boss,
        client: getMcpClientOptions(),
        concurrency: Number(process.env.TOOLFLOW_WORKER_CONCURRENCY) || 2,
        onlyProcess: backing.kind === 'pglite',
      })
    : null;
  return { boss, worker };
}

/** The app's queue on `db` (the app database by default), started once. */
export function getAppQueue(db?: Db): Promise<AppQueue> {
  return (async () => {
    const database = db ?? (await getPrisma());
    let queue = queues.get(database);
    if (!queue) {
      queue = start(database);
      queues.set(database, queue);
      queue.catch(() => queues.delete(database)); // let a later call try again
    }
    return queue;
  })();
}

/** Puts a stored run on the queue; the local worker, if any, picks it up at once. */
export async function enqueueRun(db: Db, runId: string): Promise<string> {
  const { boss, worker } = await getAppQueue(db);
  const data: RunJobData = { runId };
  const jobId = await boss.send(RUN_QUEUE, data);
  if (!jobId) throw new Error(`The queue did not accept run ${runId}.`);
  worker?.notify();
  return jobId;
}

/** Cancels a run: at once when it is queued or runs in this process, else through its worker. */
export async function cancelRun(db: Db, runId: string): Promise<RunStatus | null> {
  const status = await requestCancel(db, runId);
  const queue = await getAppQueue(db);
  queue.worker?.cancelLocal(runId);
  return status;
}

/** Stops the queue on `db` (tests, shutdown): the worker first, with `graceMs` for its runs. */
export async function stopAppQueue(db: Db, graceMs = 0): Promise<void> {
  const queue = queues.get(db);
  if (!queue) return;
  queues.delete(db);
  const { boss, worker } = await queue;
  await worker?.stop(graceMs);
  await boss.stop({ graceful: false, wait: true, close: true });
  await stopRunChanges(db);
}
