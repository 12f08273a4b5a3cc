/**
 * What the run routes share: preparing a saved version for a run (its export, the exact bytes,
 * their hash, the plan as it stands on this server), loading a run its owner may see, and the
 * JSON shapes the API answers with. Runs are owner-only: share links never reach them.
 */
import type { Db } from '@/lib/db/client';
import { getRevision } from '@/lib/db/revisions';
import { getRun, type NodeRunSummary, type RunSummary } from '@/lib/db/runs';
import { getWorkflow } from '@/lib/db/workflows';
import { AppError } from '@/lib/http/errors';
import type { RequestOwner } from '@/lib/http/owner';
import { getMcpClientOptions } from '@/lib/mcp/config';
import { planRunHere } from '@/lib/mcp/run-port';
import type { RunPlan } from '@/lib/run/preflight';
import { getServerRefLabel } from '@/lib/run/preflight';
import { exportWorkflow, formatExportFile, getExportHash } from '@/lib/workflow/export';
import type { WorkflowExportV1 } from '@/lib/workflow/types';
import { workflowNotFound } from '../workflows/access';

export interface PreparedRun {
  version: number;
  file: WorkflowExportV1;
  /** The export exactly as `GET /api/workflows/:id/export` downloads it. */
  exportText: string;
  exportHash: string;
  plan: RunPlan;
}

/** The export of a saved version of the workflow and its plan here; 404 when there is no such version. */
export async function prepareRun(
  db: Db,
  workflowId: string,
  version: number | undefined,
): Promise<PreparedRun> {
  const workflow = await getWorkflow(db, workflowId);
  if (!workflow) throw workflowNotFound(workflowId);
  const wanted = version ?? workflow.version;
  const revision = wanted === workflow.version ? null : await getRevision(db, workflowId, wanted);
  if (wanted !== workflow.version && !revision) {
    throw new AppError(
      'not_found:version',
      `Workflow "${workflowId}" has no saved version ${wanted} (it is at version ${workflow.version}; old versions beyond the history limit are pruned).`,
    );
  }
  const source = revision ?? workflow;
  const file = exportWorkflow(source.document, { id: workflow.id, name: source.name });
  const exportText = formatExportFile(file);
  const plan = await planRunHere(file, { client: getMcpClientOptions() });
  return { version: wanted, file, exportText, exportHash: getExportHash(exportText), plan };
}

/** The pre-flight list as the API returns it. */
export function toPreflightJson(prepared: PreparedRun) {
  const { plan } = prepared;
  return {
    version: prepared.version,
    exportHash: prepared.exportHash,
    nodes: plan.nodes.map((node) => ({
      nodeId: node.nodeId,
      stepIndex: node.stepIndex,
      toolName: node.toolName,
      ...(node.label !== undefined ? { label: node.label } : {}),
      server: node.server ? getServerRefLabel(node.server) : null,
      readOnly: node.readOnly,
      ...(node.blocked ? { blocked: node.blocked } : {}),
    })),
    servers: plan.servers.map((s) => ({ label: s.label, kind: s.server.kind, tools: s.tools })),
    runnable: plan.nodes.filter((n) => !n.blocked).length,
  };
}

/** 404 naming the run. */
export function runNotFound(id: string): AppError {
  return new AppError(
    'not_found:run',
    `No test-run with id "${id}". It may have been deleted with its workflow.`,
  );
}

/** Loads a run and refuses (403) anyone but its owner. */
export async function requireOwnedRun(
  db: Db,
  id: string,
  owner: RequestOwner,
  action: string,
): Promise<RunSummary> {
  const run = await getRun(db, id);
  if (!run) throw runNotFound(id);
  if (run.ownerId !== owner.id) {
    throw new AppError(
      'forbidden:run',
      `You cannot ${action} test-run "${id}": it belongs to another browser. Runs are visible to their owner only.`,
    );
  }
  return run;
}

/** A run as the API returns it (dates as ISO strings, no owner id). */
export function toRunJson(run: RunSummary) {
  const { ownerId: _ownerId, ...rest } = run;
  return rest;
}

/** Nodes as the API returns them. */
export function toNodesJson(nodes: NodeRunSummary[]) {
  return nodes;
}
