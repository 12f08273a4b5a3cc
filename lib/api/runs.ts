/** The calls of the test-run routes: pre-flight, start, list, read, follow, cancel. */
import { callApi, openNdjsonStream, type ApiResult, type CallOptions } from './client';
import type { NodeRunDetailJson, NodeRunJson, PreflightJson, RunJson } from './types';

const enc = encodeURIComponent;

/** What a run of saved version `version` would call, and what cannot run. */
export function getPreflight(workflowId: string, version: number, opts: CallOptions = {}) {
  return callApi<{ preflight: PreflightJson }>(
    `/api/workflows/${enc(workflowId)}/runs/preflight?version=${version}`,
    {
      ...opts,
      what: 'Checking what the run would call',
    },
  );
}

/** Starts a run of saved version `version`. */
export function startRun(workflowId: string, version: number, opts: CallOptions = {}) {
  return callApi<{ run: RunJson; preflight: PreflightJson }>(`/api/workflows/${enc(workflowId)}/runs`, {
    ...opts,
    method: 'POST',
    json: { version },
    what: 'Starting the run',
  });
}

/** The workflow's runs, newest first. */
export function listRuns(workflowId: string, opts: CallOptions = {}) {
  return callApi<{ runs: RunJson[] }>(`/api/workflows/${enc(workflowId)}/runs`, {
    ...opts,
    what: 'Loading runs',
  });
}

/** A run with its nodes. */
export function getRun(runId: string, opts: CallOptions = {}) {
  return callApi<{ run: RunJson; nodes: NodeRunJson[] }>(`/api/runs/${enc(runId)}`, {
    ...opts,
    what: 'Loading the run',
  });
}

/** One node with its arguments and result. */
export function getNodeRun(runId: string, nodeId: string, opts: CallOptions = {}) {
  return callApi<{ node: NodeRunDetailJson }>(`/api/runs/${enc(runId)}/nodes/${enc(nodeId)}`, {
    ...opts,
    what: 'Loading the step’s result',
  });
}

/** Asks the run to stop. */
export function cancelRun(runId: string, opts: CallOptions = {}) {
  return callApi<{ run: RunJson }>(`/api/runs/${enc(runId)}/cancel`, {
    ...opts,
    method: 'POST',
    what: 'Cancelling the run',
  });
}

/** The run's NDJSON status stream (lib/editor/ndjson.ts reads it). */
export async function openRunStream(
  runId: string,
  opts: CallOptions = {},
): Promise<ApiResult<ReadableStream<Uint8Array>>> {
  return openNdjsonStream(`/api/runs/${enc(runId)}/events`, { ...opts, what: 'Following the run' });
}
