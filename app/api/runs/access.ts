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
import { getMcpClientOptions, getMcpServerConfigs, getSampleDataNote } from '@/lib/mcp/config';
import { planRunHere } from '@/lib/mcp/run-port';
import { getSampleSpace } from '@/lib/mcp/sample-spaces';
import { getMember } from '@/lib/tools/json-value';
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
  /** Where a runnable sample keeps the person's data, by server label, in plain words. */
  dataNotes: Map<string, string>;
}

/**
 * The export of a saved version of the workflow and its plan here, for `owner`'s run (the runnable
 * samples act in the owner's space); 404 when there is no such version.
 */
export async function prepareRun(
  db: Db,
  workflowId: string,
  version: number | undefined,
  owner: RequestOwner,
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
  const config = { space: getSampleSpace(owner.id) };
  const plan = await planRunHere(file, { client: getMcpClientOptions(), config });
  return {
    version: wanted,
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
    servers: plan.servers.map((s) => {
      const dataNote = prepared.dataNotes.get(s.label);
      return { label: s.label, kind: s.server.kind, tools: s.tools, ...(dataNote ? { dataNote } : {}) };
    }),
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
