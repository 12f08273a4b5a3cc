import 'server-only';
/**
 * Test-runs in Postgres (docs/design.md §9): a Run row per run with the exact export that ran and its
 * hash, a NodeRun row per node with the arguments as sent, the result, the error and the times.
 * Every stored change bumps `Run.revision`, which is how a stream knows there is news, and is
 * announced to whoever follows the run (run-changes.ts), in this process and others. Status
 * changes are conditional (`WHERE status = …`), so a cancel, the worker and the interrupted
 * sweep never overwrite each other's final word.
 */
import { readStoredLimits } from '../run/limits';
import { getServerRefLabel, type RunPlan } from '../run/preflight';
import type {
  NodeRunRecord,
  NodeRunStatus,
  RunError,
  RunLimits,
  RunStatus,
  ToolCallResult,
} from '../run/types';
import type { Db } from './client';
import { createId } from './ids';
import { announceRunChange, getRunChangeNotice, notifyRunChange, type RunChangeKind } from './run-changes';

/**
 * The run-change notice for a write's transaction (on Postgres; none on the embedded database),
 * as a list to spread into it. announceRunChange tells this process after the commit.
 */
const noticeOf = (db: Db, runId: string, kind?: RunChangeKind) => {
  const notice = getRunChangeNotice(db, runId, kind);
  return notice ? [notice] : [];
};

export interface RunSummary {
  id: string;
  workflowId: string;
  ownerId: string;
  version: number;
  exportHash: string;
  status: RunStatus;
  error: RunError | null;
  nodeCount: number;
  revision: number;
  /** When someone asked to cancel it while it was running (a run that ended anyway ignored it). */
  cancelRequestedAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A node as listed with its run: no arguments or result (those come one node at a time). */
export interface NodeRunSummary {
  nodeId: string;
  stepIndex: number;
  toolName: string;
  server: string | null;
  status: NodeRunStatus;
  error: RunError | null;
  truncated: boolean;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
}

export interface NodeRunDetail extends Omit<NodeRunSummary, 'truncated'> {
  arguments: Record<string, unknown> | null;
  result: ToolCallResult | null;
  truncated: string[];
}

const summaryFields = {
  id: true,
  workflowId: true,
  ownerId: true,
  version: true,
  exportHash: true,
  status: true,
  error: true,
  nodeCount: true,
  revision: true,
  cancelRequestedAt: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

type SummaryRow = Omit<RunSummary, 'status' | 'error'> & { status: string; error: unknown };
const toSummary = (row: SummaryRow): RunSummary => ({
  ...row,
  status: row.status as RunStatus,
  error: (row.error as RunError | null) ?? null,
});

const nodeSummaryFields = {
  nodeId: true,
  stepIndex: true,
  toolName: true,
  server: true,
  status: true,
  error: true,
  truncated: true,
  startedAt: true,
  finishedAt: true,
  durationMs: true,
} as const;

type NodeRow = Omit<NodeRunSummary, 'status' | 'error' | 'truncated'> & {
  status: string;
  error: unknown;
  truncated: unknown;
};
const toNodeSummary = (row: NodeRow): NodeRunSummary => ({
  ...row,
  status: row.status as NodeRunStatus,
  error: (row.error as RunError | null) ?? null,
  truncated: Array.isArray(row.truncated) && row.truncated.length > 0,
});

/** Stores a new queued run of `exportText`, its plan, and one queued NodeRun per planned node. */
export async function createRun(
  db: Db,
  input: {
    workflowId: string;
    ownerId: string;
    version: number;
    exportText: string;
    exportHash: string;
    limits: RunLimits;
    plan: RunPlan;
  },
): Promise<RunSummary> {
  const id = createId('run');
  const [run] = await db.$transaction([
    db.run.create({
      data: {
        id,
        workflowId: input.workflowId,
        ownerId: input.ownerId,
        version: input.version,
        exportText: input.exportText,
        exportHash: input.exportHash,
        limits: input.limits as unknown as object,
        plan: input.plan as unknown as object,
        nodeCount: input.plan.nodes.length,
      },
      select: summaryFields,
    }),
    db.nodeRun.createMany({
      data: input.plan.nodes.map((node) => ({
        id: createId('nr'),
        runId: id,
        nodeId: node.nodeId,
        stepIndex: node.stepIndex,
        toolName: node.toolName,
        server: node.server ? getServerRefLabel(node.server) : null,
      })),
    }),
  ]);
  return toSummary(run);
}

/** Records the queue job carrying a run. */
export async function setRunJob(db: Db, runId: string, jobId: string): Promise<void> {
  await db.run.update({ where: { id: runId }, data: { jobId } });
}

/** One run, or null. */
export async function getRun(db: Db, id: string): Promise<RunSummary | null> {
  const row = await db.run.findUnique({ where: { id }, select: summaryFields });
  return row ? toSummary(row) : null;
}

/** The export text that ran (or will run), or null. */
export async function getRunExport(
  db: Db,
  id: string,
): Promise<{ exportText: string; exportHash: string } | null> {
  return db.run.findUnique({ where: { id }, select: { exportText: true, exportHash: true } });
}

/** A run's nodes in step order. */
export async function getRunNodes(db: Db, runId: string): Promise<NodeRunSummary[]> {
  const rows = await db.nodeRun.findMany({
    where: { runId },
    orderBy: { stepIndex: 'asc' },
    select: nodeSummaryFields,
  });
  return rows.map(toNodeSummary);
}

/** One node of a run with its arguments and result, or null. */
export async function getNodeRun(db: Db, runId: string, nodeId: string): Promise<NodeRunDetail | null> {
  const row = await db.nodeRun.findUnique({ where: { runId_nodeId: { runId, nodeId } } });
  if (!row) return null;
  return {
    nodeId: row.nodeId,
    stepIndex: row.stepIndex,
    toolName: row.toolName,
    server: row.server,
    status: row.status as NodeRunStatus,
    error: (row.error as RunError | null) ?? null,
    arguments: (row.arguments as Record<string, unknown> | null) ?? null,
    result: (row.result as ToolCallResult | null) ?? null,
    truncated: Array.isArray(row.truncated) ? (row.truncated as string[]) : [],
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: row.durationMs,
  };
}

/** A workflow's runs, newest first. */
export async function listRuns(
  db: Db,
  workflowId: string,
  opts: { limit?: number; before?: Date } = {},
): Promise<RunSummary[]> {
  const rows = await db.run.findMany({
    where: { workflowId, ...(opts.before ? { createdAt: { lt: opts.before } } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: opts.limit ?? 50,
    select: summaryFields,
  });
  return rows.map(toSummary);
}

/** What a worker needs to execute a run it claimed. */
export interface ClaimedRun {
  exportText: string;
  limits: RunLimits;
  /** Null for a run stored before plans were stored with runs. */
  plan: RunPlan | null;
  /** Whose run it is: the runnable samples act in that owner's space. */
  ownerId: string;
}

/**
 * Takes a queued run for a worker: it becomes running with this worker's id and a heartbeat.
 * Gives what the worker needs to execute it: the export, its limits and whose run it is (the
 * runnable samples act in that owner's space). Null when it is no longer queued (cancelled
 * before it started, or already taken).
 */
export async function claimRun(db: Db, runId: string, workerId: string): Promise<ClaimedRun | null> {
  const now = new Date();
  const [{ count }] = await db.$transaction([
    db.run.updateMany({
      where: { id: runId, status: 'queued' },
      data: { status: 'running', workerId, startedAt: now, heartbeatAt: now, revision: { increment: 1 } },
    }),
    ...noticeOf(db, runId),
  ]);
  if (count === 0) return null;
  announceRunChange(db, [runId]);
  const row = await db.run.findUnique({
    where: { id: runId },
    select: { exportText: true, limits: true, plan: true, ownerId: true },
  });
  if (!row) return null;
  return {
    exportText: row.exportText,
    limits: readStoredLimits(row.limits as Partial<RunLimits>),
    plan: (row.plan as RunPlan | null) ?? null,
    ownerId: row.ownerId,
  };
}

const json = (value: unknown) => (value === undefined ? undefined : (value as object));

/** Stores a node's record as the executor reports it (only while the run is running). */
export async function saveNodeRecord(db: Db, runId: string, record: NodeRunRecord): Promise<void> {
  await db.$transaction([
    db.nodeRun.updateMany({
      where: { runId, nodeId: record.nodeId, run: { status: 'running' } },
      data: {
        status: record.status,
        arguments: json(record.arguments),
        result: json(record.result),
        error: json(record.error),
        truncated: json(record.truncated),
        startedAt: record.startedAt ? new Date(record.startedAt) : undefined,
        finishedAt: record.finishedAt ? new Date(record.finishedAt) : undefined,
        durationMs: record.durationMs,
      },
    }),
    db.run.updateMany({ where: { id: runId, status: 'running' }, data: { revision: { increment: 1 } } }),
    ...noticeOf(db, runId),
  ]);
  announceRunChange(db, [runId]);
}

/**
 * A run's final status, when it is still in one of `from` (running, by default); false when it
 * was not (interrupted or cancelled meanwhile). No step of a finished run is left open: in the same
 * transaction, a step still running is marked failed (its outcome was never recorded: the run
 * ended without it, e.g. when storing a record failed) and a step still queued cancelled.
 */
export async function finishRun(
  db: Db,
  runId: string,
  status: Exclude<RunStatus, 'queued' | 'running'>,
  error?: RunError,
  from: readonly RunStatus[] = ['running'],
): Promise<boolean> {
  const now = new Date();
  const [finished] = await db.$transaction([
    db.run.updateMany({
      where: { id: runId, status: { in: [...from] } },
      data: {
        status,
        error: error ? (error as unknown as object) : undefined,
        finishedAt: now,
        revision: { increment: 1 },
      },
    }),
    db.nodeRun.updateMany({
      where: { runId, status: 'running', run: { status } },
      data: {
        status: 'failed',
        finishedAt: now,
        error: {
          code: 'not_recorded',
          message:
            'The run ended before this step’s outcome was recorded; the call may or may not have happened.',
        },
      },
    }),
    db.nodeRun.updateMany({
      where: { runId, status: 'queued', run: { status } },
      data: {
        status: 'cancelled',
        error: { code: 'not_started', message: 'The run ended before this step started.' },
      },
    }),
    ...noticeOf(db, runId),
  ]);
  announceRunChange(db, [runId]);
  return finished.count > 0;
}

/**
 * Keeps the worker's runs alive and says which of them someone asked to cancel.
 */
export async function heartbeatRuns(db: Db, runIds: readonly string[], workerId: string): Promise<string[]> {
  if (runIds.length === 0) return [];
  await db.run.updateMany({
    where: { id: { in: [...runIds] }, workerId, status: 'running' },
    data: { heartbeatAt: new Date() },
  });
  const cancelled = await db.run.findMany({
    where: { id: { in: [...runIds] }, cancelRequestedAt: { not: null } },
    select: { id: true },
  });
  return cancelled.map((r) => r.id);
}

/** Runs asked to be cancelled, among `runIds`. */
export async function getCancelRequests(db: Db, runIds: readonly string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const rows = await db.run.findMany({
    where: { id: { in: [...runIds] }, cancelRequestedAt: { not: null } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * Asks a run to stop. A queued run is cancelled at once (no worker will start it); a running one
 * is flagged and its worker stops it. Returns the run's status after the request.
 */
export async function requestCancel(db: Db, runId: string): Promise<RunStatus | null> {
  const error = { code: 'cancelled', message: 'The run was cancelled before it started.' };
  const now = new Date();
  const [queued] = await db.$transaction([
    db.run.updateMany({
      where: { id: runId, status: 'queued' },
      data: {
        status: 'cancelled',
        cancelRequestedAt: now,
        finishedAt: now,
        error,
        revision: { increment: 1 },
      },
    }),
    db.nodeRun.updateMany({
      where: { runId, status: 'queued', run: { status: 'cancelled' } },
      data: { status: 'cancelled', error },
    }),
  ]);
  if (queued.count > 0) {
    await notifyRunChange(db, runId);
  } else {
    // Running: its worker, here or in another process, hears of the request at once.
    await db.$transaction([
      db.run.updateMany({
        where: { id: runId, status: 'running', cancelRequestedAt: null },
        data: { cancelRequestedAt: now, revision: { increment: 1 } },
      }),
      ...noticeOf(db, runId, 'cancel'),
    ]);
    announceRunChange(db, [runId], 'cancel');
  }
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
  return (run?.status as RunStatus | undefined) ?? null;
}

/**
 * Marks runs whose worker is gone as interrupted, never leaving them "running": with `all`, every
 * running run (the embedded database has one process, so at its start none can still be
 * running); with `ids`, those runs (a worker stopping); otherwise those whose heartbeat is older
 * than `staleBefore`. Their running nodes
 * become interrupted (the call may or may not have happened), their queued nodes cancelled.
 */
export async function markInterruptedRuns(
  db: Db,
  opts: { all: true } | { staleBefore: Date } | { ids: readonly string[] },
): Promise<string[]> {
  const where =
    'all' in opts
      ? { status: 'running' }
      : 'ids' in opts
        ? { status: 'running', id: { in: [...opts.ids] } }
        : { status: 'running', OR: [{ heartbeatAt: { lt: opts.staleBefore } }, { heartbeatAt: null }] };
  const stale = await db.run.findMany({ where, select: { id: true } });
  const interrupted: string[] = [];
  const error = {
    code: 'interrupted',
    message: 'The process running this test-run stopped before it ended (a restart or a crash).',
  };
  for (const { id } of stale) {
    const now = new Date();
    const [changed] = await db.$transaction([
      db.run.updateMany({
        where: { id, status: 'running' },
        data: { status: 'interrupted', error, finishedAt: now, revision: { increment: 1 } },
      }),
      db.nodeRun.updateMany({
        where: { runId: id, status: 'running', run: { status: 'interrupted' } },
        data: {
          status: 'interrupted',
          finishedAt: now,
          error: { ...error, message: `${error.message} This call may or may not have happened.` },
        },
      }),
      db.nodeRun.updateMany({
        where: { runId: id, status: 'queued', run: { status: 'interrupted' } },
        data: { status: 'cancelled', error },
      }),
      ...noticeOf(db, id),
    ]);
    if (changed.count > 0) interrupted.push(id);
  }
  announceRunChange(db, interrupted);
  return interrupted;
}

/** How many of workspace `ownerId`'s runs are in one of `statuses` (the run cap counts them). */
export async function countWorkspaceRuns(db: Db, ownerId: string, statuses: RunStatus[]): Promise<number> {
  return db.run.count({ where: { ownerId, status: { in: statuses } } });
}
