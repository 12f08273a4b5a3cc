/**
 * When each node of a run may start (README "Test-run semantics: order"):
 *
 * 1. A node starts only after every node that feeds it through an edge has succeeded; if one of
 *    them failed, was skipped or was cancelled, the node is skipped (and so are its dependants).
 * 2. Steps keep their order where a tool may change something: the nodes are put in one
 *    topological order (edges first, then step order), and a node whose tool is not declared
 *    read-only (MCP `annotations.readOnlyHint: true`) waits until every node before it has
 *    ended, and every node after it waits until it has ended. Read-only nodes between two such
 *    nodes run side by side. Without this, "create an entity, then read the graph" would race.
 * 3. At most `concurrency` nodes are called at once.
 *
 * Pure: the executor asks these functions what to start next after every change.
 */
import { FINAL_NODE_STATUSES, type NodeRunStatus } from './types';

export interface ScheduleNode {
  id: string;
  stepIndex: number;
  /** The tool says it changes nothing (`readOnlyHint: true`), so it may overlap other reads. */
  readOnly: boolean;
  /** Nodes feeding this one through edges (each once). */
  sources: readonly string[];
}

export interface SchedulePlan {
  /** Every node that can be ordered, in the order they are considered. */
  order: readonly string[];
  /** Nodes on a cycle of edges (or fed from one): they can never start. */
  cyclic: readonly string[];
  nodes: ReadonlyMap<string, ScheduleNode>;
}

/**
 * Orders the nodes: a topological order of the edges that, among the nodes free to go, takes the
 * lowest step index first (Kahn's algorithm with the step index as priority).
 */
export function createSchedulePlan(nodes: readonly ScheduleNode[]): SchedulePlan {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pending = new Map<string, number>();
  const dependants = new Map<string, string[]>();
  for (const node of nodes) {
    const sources = node.sources.filter((s) => byId.has(s));
    pending.set(node.id, sources.length);
    for (const source of sources) {
      const list = dependants.get(source) ?? [];
      list.push(node.id);
      dependants.set(source, list);
    }
  }
  const free = nodes.filter((n) => pending.get(n.id) === 0).map((n) => n.id);
  const order: string[] = [];
  const byStep = (a: string, b: string) => byId.get(a)!.stepIndex - byId.get(b)!.stepIndex;
  while (free.length > 0) {
    free.sort(byStep);
    const id = free.shift()!;
    order.push(id);
    for (const next of dependants.get(id) ?? []) {
      const left = pending.get(next)! - 1;
      pending.set(next, left);
      if (left === 0) free.push(next);
    }
  }
  const placed = new Set(order);
  const cyclic = nodes.filter((n) => !placed.has(n.id)).map((n) => n.id);
  return { order, cyclic, nodes: byId };
}

const isFinal = (status: NodeRunStatus | undefined) =>
  status !== undefined && FINAL_NODE_STATUSES.has(status);

/**
 * The queued nodes that may start now, in order, at most `concurrency` minus the running ones.
 * `statuses` holds every node's current status (a node not in it counts as queued).
 */
export function getStartableNodes(
  plan: SchedulePlan,
  statuses: ReadonlyMap<string, NodeRunStatus>,
  concurrency: number,
): string[] {
  let running = 0;
  for (const status of statuses.values()) if (status === 'running') running++;
  const room = Math.max(0, concurrency - running);
  const startable: string[] = [];
  // Walking the order: everything before the current node has ended (for a writer), and every
  // writer before it has ended (for a reader).
  let allBeforeEnded = true;
  let writersBeforeEnded = true;
  for (const id of plan.order) {
    if (startable.length >= room) break;
    const node = plan.nodes.get(id)!;
    const status = statuses.get(id) ?? 'queued';
    if (status === 'queued') {
      const fed = node.sources.every((s) => statuses.get(s) === 'succeeded');
      const ordered = node.readOnly ? writersBeforeEnded : allBeforeEnded;
      if (fed && ordered) startable.push(id);
    }
    const ended = isFinal(status);
    if (!ended) allBeforeEnded = false;
    if (!ended && !node.readOnly) writersBeforeEnded = false;
  }
  return startable;
}

/**
 * Queued nodes that can never run because a node feeding them ended without succeeding, with
 * that node, including dependants of dependants (in order, so a skip is listed before the nodes
 * it in turn skips).
 */
export function getSkippedNodes(
  plan: SchedulePlan,
  statuses: ReadonlyMap<string, NodeRunStatus>,
): { id: string; because: string }[] {
  const now = new Map(statuses);
  const skipped: { id: string; because: string }[] = [];
  for (const id of plan.order) {
    if ((now.get(id) ?? 'queued') !== 'queued') continue;
    const failed = plan.nodes.get(id)!.sources.find((s) => isFinal(now.get(s)) && now.get(s) !== 'succeeded');
    if (failed !== undefined) {
      now.set(id, 'skipped');
      skipped.push({ id, because: failed });
    }
  }
  return skipped;
}
