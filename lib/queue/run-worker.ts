import 'server-only';
/**
 * The test-run worker (docs/design.md §9.6): takes run jobs from pg-boss, executes each run's stored export
 * as its stored plan says (made when the run was asked for: lib/queue/runs.ts) against its MCP
 * servers, and stores every node's record as it happens. A cancel request stops a run at once,
 * whichever process it was made in (lib/db/run-changes.ts; the heartbeat looks for requests too,
 * in case a notice was lost). Each worker process heartbeats the runs it holds, and sweeps runs whose
 * worker stopped heartbeating into `interrupted`. On the embedded database there is only one
 * process, so at start every run still marked running is interrupted at once.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Db } from '../db/client';
import {
  claimRun,
  countWorkspaceRuns,
  finishRun,
  getCancelRequests,
  getRun,
  heartbeatRuns,
  markInterruptedRuns,
  saveNodeRecord,
  setRunJob,
} from '../db/runs';
import { onRunChange } from '../db/run-changes';
import type { NodeRunRecord } from '../run/types';
import type { McpClientOptions } from '../mcp/client';
import type { McpConfigSources } from '../mcp/config';
import { runExportHere } from '../mcp/run-port';
import { planRun } from '../run/preflight';
import { getSampleSpace } from '../mcp/sample-spaces';
import type { WorkflowExportV1 } from '../workflow/types';
import { RUN_QUEUE } from './boss';
import { parseJson } from '../tools/json-value';

export interface RunJobData {
  runId: string;
}

export interface RunWorkerOptions {
  db: Db;
  boss: PgBoss;
  client: McpClientOptions;
  /** Where stdio servers are configured (tests); each run's sample space is its owner's. */
  config?: Omit<McpConfigSources, 'space'>;
  /** Runs executed at the same time by this process (default 2). */
  concurrency?: number;
  /**
   * Runs of one workspace running at the same time, across workers (default: one less than
   * `concurrency`, at least 1), so another workspace's run always finds a free slot. A job past
   * it goes back on the queue for a second later (docs/design.md §13.6).
   */
  runningPerWorkspace?: number;
  /** How often held runs are heartbeated and checked for cancel requests (default 1 s). */
  heartbeatMs?: number;
  /** A running run whose heartbeat is older than this is interrupted (default 30 s). */
  staleAfterMs?: number;
  /**
   * Every run marked running belongs to a process that is gone (the embedded database, which
   * only one process can open): mark them all interrupted at start.
   */
  onlyProcess?: boolean;
  /** How often an idle worker looks for new jobs (default 1 s; a local enqueue wakes it at once). */
  pollingIntervalSeconds?: number;
}

export interface RunWorker {
  readonly id: string;
  /** Wakes the worker to fetch now (after a job was enqueued in this process). */
  notify(): void;
  /** Stops a run this process is executing; false when it is not here. */
  cancelLocal(runId: string): boolean;
  /** Runs being executed here. */
  activeRuns(): string[];
  /**
   * Stops taking jobs, lets running runs finish for up to `graceMs`, then marks the rest
   * interrupted and stops them.
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Stores a node's record; when the database refuses it (a value lib/run/cap.ts did not make
 * storable), stores the same status, times and error without the arguments and result, noting
 * that they were not stored, so the step still ends as it did. A database that cannot be reached
 * fails both, and the error goes on to the run.
 */
export async function storeNodeRecord(db: Db, runId: string, record: NodeRunRecord): Promise<void> {
  try {
    await saveNodeRecord(db, runId, record);
  } catch (error) {
    console.error(
      `toolflow worker: run ${runId}: the record of "${record.nodeId}" could not be stored:`,
      error,
    );
    const missing = [record.arguments && 'arguments', record.result && 'result'].filter(Boolean);
    await saveNodeRecord(db, runId, {
      ...record,
      arguments: undefined,
      result: undefined,
      truncated: [
        ...(record.truncated ?? []),
        `${missing.join(' and ') || 'record'}: not stored: the database refused ${missing.length > 1 ? 'them' : 'it'}`,
      ],
      ...(record.error
        ? { error: { ...record.error, message: record.error.message.replace(/\p{Cs}/gu, '\uFFFD') } }
        : {}),
    }).catch(() => {
      throw error;
    });
  }
}

/** A unique id for this worker process, readable in the database. */
export function createWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** Starts a worker on `boss`; it sweeps interrupted runs first. */
export async function startRunWorker(options: RunWorkerOptions): Promise<RunWorker> {
  const { db, boss } = options;
  const id = createWorkerId();
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  const active = new Map<string, AbortController>();
  const loops: string[] = [];
  let stopping = false;

  const sweep = async () => {
    const interrupted = options.onlyProcess
      ? await markInterruptedRuns(db, { all: true })
      : await markInterruptedRuns(db, { staleBefore: new Date(Date.now() - staleAfterMs) });
    if (interrupted.length > 0)
      console.warn(`toolflow worker: marked ${interrupted.length} run(s) interrupted`);
  };
  await sweep();

  const notify = () => {
    for (const loop of loops) boss.notifyWorker(loop);
  };

  const concurrency = Math.max(1, options.concurrency ?? 2);
  const perWorkspace = Math.max(1, options.runningPerWorkspace ?? concurrency - 1);

  /**
   * True when the run's workspace already has its share of running runs: the job is then put
   * back on the queue for a second later, behind other workspaces' jobs, and the run stays queued.
   */
  const deferred = async (runId: string): Promise<boolean> => {
    const run = await getRun(db, runId);
    if (run?.status !== 'queued') return false;
    if ((await countWorkspaceRuns(db, run.ownerId, ['running'])) < perWorkspace) return false;
    const data: RunJobData = { runId };
    const jobId = await boss.send(RUN_QUEUE, data, { startAfter: 1 });
    if (!jobId) throw new Error(`The queue did not take run ${runId} back.`);
    await setRunJob(db, runId, jobId);
    return true;
  };

  const execute = async (runId: string) => {
    if (await deferred(runId)) return;
    const claimed = await claimRun(db, runId, id);
    if (!claimed) return;
    const controller = new AbortController();
    active.set(runId, controller);
    const stopWatching = onRunChange(db, runId, (kind) => {
      if (kind !== 'cancel' || controller.signal.aborted) return;
      void getCancelRequests(db, [runId])
        .then((requested) => requested.length > 0 && controller.abort())
        .catch((error) =>
          console.error(`toolflow worker: run ${runId}: reading its cancel request failed:`, error),
        );
    });
    try {
      // A cancel that arrived between the enqueue and now.
      if ((await getCancelRequests(db, [runId])).length > 0) controller.abort();
      const file = parseJson(claimed.exportText) as WorkflowExportV1;
      // A run stored before plans were stored with runs is planned here; its servers are then
      // checked only when its steps start them.
      const plan = claimed.plan ?? planRun(file);
      const outcome = await runExportHere(file, plan, {
        client: options.client,
        // The samples act in the run owner's space, never in another's (lib/mcp/sample-spaces.ts).
        config: { ...options.config, space: getSampleSpace(claimed.ownerId) },
        limits: claimed.limits,
        signal: controller.signal,
        // Every step was stored queued with the run: storing it queued again would only hold up
        // the first real change behind one write per step.
        onNode: (record) => (record.status === 'queued' ? undefined : storeNodeRecord(db, runId, record)),
      });
      await finishRun(db, runId, outcome.status, outcome.error);
    } catch (error) {
      // The cause is logged here; the run says what happened without the database's internals.
      console.error(`toolflow worker: run ${runId} failed:`, error);
      await finishRun(db, runId, 'failed', {
        code: 'worker_error',
        message:
          'The run could not be recorded to its end; the error was logged on the server. Steps that had not ended are marked failed or cancelled.',
      }).catch(() => {});
    } finally {
      stopWatching();
      active.delete(runId);
    }
  };

  for (let i = 0; i < concurrency; i++) {
    loops.push(
      await boss.work<RunJobData>(
        RUN_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
        async ([job]) => {
          try {
            await execute(job.data.runId).catch(async (error) => {
              // Not even claimed (the queue or the database failed): the run must not wait forever.
              console.error(`toolflow worker: run ${job.data.runId} could not be started:`, error);
              await finishRun(
                db,
                job.data.runId,
                'failed',
                {
                  code: 'queue_unavailable',
                  message: 'The run could not be started from the job queue; try again.',
                },
                ['queued'],
              ).catch(() => {});
            });
          } finally {
            // Look for the next job at once instead of after the polling interval.
            if (!stopping) notify();
          }
        },
      ),
    );
  }

  let ticks = 0;
  const sweepEvery = Math.max(1, Math.round(staleAfterMs / 3 / heartbeatMs));
  const timer = setInterval(() => {
    void (async () => {
      const cancelled = await heartbeatRuns(db, [...active.keys()], id);
      for (const runId of cancelled) active.get(runId)?.abort();
      if (!options.onlyProcess && ++ticks % sweepEvery === 0) await sweep();
    })().catch((error) => console.error('toolflow worker: heartbeat failed:', error));
  }, heartbeatMs);
  timer.unref();

  return {
    id,
    notify,
    cancelLocal(runId) {
      const controller = active.get(runId);
      controller?.abort();
      return controller !== undefined;
    },
    activeRuns: () => [...active.keys()],
    async stop(graceMs = 30_000) {
      stopping = true;
      for (const loop of loops) await boss.offWork({ id: loop });
      const deadline = Date.now() + graceMs;
      while (active.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      clearInterval(timer);
      if (active.size > 0) {
        const left = [...active.keys()];
        await markInterruptedRuns(db, { ids: left });
        for (const runId of left) active.get(runId)?.abort();
      }
    },
  };
}
