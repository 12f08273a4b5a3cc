'use client';
/**
 * The one piece of the test-run UI the canvas itself knows: a node's run status and duration,
 * provided by the run view (components/run/run-view.tsx). The editor provides none, so its nodes
 * show nothing, and the run UI's code stays out of the editor's first load.
 */
import { createContext, useContext } from 'react';

export interface NodeRunBadge {
  status: string;
  durationMs: number | null;
}

export const RunStatusContext = createContext<ReadonlyMap<string, NodeRunBadge> | null>(null);

/** This node's status in the run on show, if any. */
export function useNodeRunBadge(nodeId: string): NodeRunBadge | undefined {
  return useContext(RunStatusContext)?.get(nodeId);
}

/** `1.2 s`, `340 ms`. */
export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${ms} ms`;
}
