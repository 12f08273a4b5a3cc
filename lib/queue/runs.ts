import 'server-only';
/**
 * Test-runs as the app starts them (the routes under /api/workflows/[id]/runs call these): a
 * saved version made ready for a run — its export exactly as `GET /api/workflows/:id/export`
 * downloads it, that text's hash, and its plan on this machine (lib/run/preflight.ts, with the
 * servers that cannot be used here blocked) — and a run stored with that plan and put on the job
 * queue. The worker (run-worker.ts) executes the stored plan; nothing is planned twice.
 */
import type { Db } from '../db/client';
import { getRevision } from '../db/revisions';
import { countWorkspaceRuns, createRun, finishRun, setRunJob, type RunSummary } from '../db/runs';
import type { WorkflowRecord } from '../db/workflows';
import { AppError } from '../http/errors';
import type { RequestOwner } from '../http/access';
import { getMcpClientOptions, getMcpServerConfigs, getSampleDataNote } from '../mcp/config';
import { planRunHere } from '../mcp/run-port';
import { getRunPathRedactor } from '../mcp/server-paths';
import { getSampleSpace } from '../mcp/sample-spaces';
import { getMember } from '../tools/json-value';
import { getPreflight, getRunRefusal, type RunPlan } from '../run/preflight';
import type { RunLimits } from '../run/types';
import { exportWorkflow, formatExportFile, getExportHash } from '../workflow/export';
import type { WorkflowExportV1 } from '../workflow/types';
import { enqueueRun } from './app';

/** A saved version made ready for a run. */
export interface PreparedRun {
  workflowId: string;
  version: number;
  file: WorkflowExportV1;
  /** The export exactly as `GET /api/workflows/:id/export` downloads it. */
  exportText: string;
  exportHash: string;
  plan: RunPlan;
  /** Where a runnable sample keeps the person's data, by server label, in plain words. */
  dataNotes: Map<string, string>;
}

/**
 * Saved version `version` of `workflow` (its current one, or a stored revision) made ready for
 * `owner`'s run, planned on this machine: each server is looked up once (a stdio server in the
 * configuration, an HTTP URL through the URL guard); the runnable samples act in the owner's
 * space. 404 `not_found:version` when there is no such version.
 */
export async function prepareRun(
  db: Db,
  workflow: WorkflowRecord,
  version: number,
  owner: RequestOwner,
): Promise<PreparedRun> {
  const revision = version === workflow.version ? null : await getRevision(db, workflow.id, version);
  if (version !== workflow.version && !revision) {
    throw new AppError(
      'not_found:version',
      `Workflow "${workflow.id}" has no saved version ${version} (it is at version ${workflow.version}; an autosave folded into a later history entry, or an old version beyond the history limit, is no longer kept).`,
    );
  }
  const source = revision ?? workflow;
  const file = exportWorkflow(source.document, { id: workflow.id, name: source.name });
  const exportText = formatExportFile(file);
  const plan = await planRunHere(file, {
    client: getMcpClientOptions(),
    config: { space: getSampleSpace(owner.id) },
  });
  return {
    workflowId: workflow.id,
    version,
    file,
    exportText,
    exportHash: getExportHash(exportText),
    plan,
    dataNotes: await getDataNotes(plan),
  };
}

/** The plain-words note of each runnable sample the plan calls (getSampleDataNote). */
async function getDataNotes(plan: RunPlan): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  if (!plan.servers.some((s) => s.server.kind === 'stdio')) return notes;
  const configs = await getMcpServerConfigs();
  if (!configs.ok) return notes;
  for (const { server, label } of plan.servers) {
    if (server.kind !== 'stdio') continue;
    const note = getSampleDataNote(getMember(configs.value, server.name), server.name);
    if (note) notes.set(label, note);
  }
  return notes;
}

/** How long a workspace at its cap is told to wait before asking again. */
const CAP_RETRY_SECONDS = 10;

/**
 * 429 `rate_limited:active_runs` when workspace `ownerId` already has `cap` runs queued or
 * running (lib/run/limits.ts `getWorkspaceActiveRunCap`): one workspace's flood of runs waits for
 * its own runs to end and never fills the queue ahead of another workspace's (docs/design.md §13.6).
 */
export async function assertRunCapacity(db: Db, ownerId: string, cap: number): Promise<void> {
  const active = await countWorkspaceRuns(db, ownerId, ['queued', 'running']);
  if (active < cap) return;
  throw new AppError(
    'rate_limited:active_runs',
    `This workspace already has ${active} test-run${active === 1 ? '' : 's'} queued or running, the most one workspace may have at once (${cap}). Wait for one to finish or cancel one, then try again in ${CAP_RETRY_SECONDS} s.`,
    { details: { retryAfterSeconds: CAP_RETRY_SECONDS, activeRuns: active, cap } },
  );
}

/** The pre-flight list of a prepared run, as the API answers it. */
export function getPreparedPreflight(prepared: PreparedRun) {
  return getPreflight(prepared.plan, prepared.version, prepared.exportHash, prepared.dataNotes);
}

/**
 * Stores a run of `prepared` with its plan (one queued NodeRun per node) and puts it on the job
 * queue. 422 with the pre-flight list when the run may not start (lib/run/preflight.ts
 * `getRunRefusal`): `unprocessable:invalid_steps` while a step is invalid,
 * `unprocessable:nothing_to_run` when no step can run; 503 `unavailable:queue` when the queue
 * does not take it (the run is then stored as failed).
 */
export async function startRun(
  db: Db,
  prepared: PreparedRun,
  input: { ownerId: string; limits: RunLimits },
): Promise<RunSummary> {
  const refusal = getRunRefusal(prepared.plan);
  if (refusal) {
    throw new AppError(`unprocessable:${refusal.code}`, refusal.message, {
      details: { preflight: getRunPathRedactor(input.ownerId).json(getPreparedPreflight(prepared)) },
    });
  }
  const { plan } = prepared;
  const run = await createRun(db, {
    workflowId: prepared.workflowId,
    ownerId: input.ownerId,
    version: prepared.version,
    exportText: prepared.exportText,
    exportHash: prepared.exportHash,
    limits: input.limits,
    plan,
  });
  try {
    await setRunJob(db, run.id, await enqueueRun(db, run.id));
  } catch (error) {
    console.error(`Could not queue run ${run.id}:`, error);
    const why = {
      code: 'queue_unavailable',
      message: 'The run could not be put on the job queue; try again.',
    };
    await finishRun(db, run.id, 'failed', why, ['queued']).catch(() => {});
    throw new AppError('unavailable:queue', why.message, { cause: error });
  }
  return run;
}
