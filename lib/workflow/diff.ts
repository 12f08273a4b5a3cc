/**
 * What changed between two versions of a workflow document (the revisions panel's summary), and
 * the three-way merge the editor offers when the same workflow was saved from two places: edits
 * to different nodes, parameters or edges are combined; where both sides changed the same thing
 * differently, "mine" wins and the conflict is reported so nothing changes without being shown.
 */
import { createRecord, getMember, hasMember } from '../tools/json-value';
import type { WorkflowDocument, WorkflowEdge, WorkflowNode } from './types';

/** A parameter of a node, named by node id and parameter name. */
export interface ParamRef {
  node: string;
  param: string;
}

export interface DocumentDiff {
  task: boolean;
  nodes: { added: string[]; removed: string[]; changed: string[]; moved: string[] };
  edges: { added: string[]; removed: string[]; changed: string[] };
  params: { added: ParamRef[]; removed: ParamRef[]; changed: ParamRef[] };
  tools: { added: string[]; removed: string[]; changed: string[] };
}

/** Deep equality for JSON values (key order does not matter). */
export function isJsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => isJsonEqual(v, bb[i]));
  }
  const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ak.length === bk.length &&
    ak.every((k) => isJsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const byId = <T extends { id: string }>(items: readonly T[]) =>
  new Map(items.map((x) => [x.id as string, x]));

/** Node fields other than args and position: a change to any of them is "node changed". */
function nodeIdentity(n: WorkflowNode) {
  const { args: _args, position: _position, ...rest } = n;
  return rest;
}

/** Compares two documents by node, edge, parameter and tool, keyed by id (never by position). */
export function diffDocuments(before: WorkflowDocument, after: WorkflowDocument): DocumentDiff {
  const diff: DocumentDiff = {
    task: before.task !== after.task,
    nodes: { added: [], removed: [], changed: [], moved: [] },
    edges: { added: [], removed: [], changed: [] },
    params: { added: [], removed: [], changed: [] },
    tools: { added: [], removed: [], changed: [] },
  };
  const a = byId(before.nodes);
  const b = byId(after.nodes);
  for (const [id, node] of b) {
    const old = a.get(id);
    if (!old) {
      diff.nodes.added.push(id);
      continue;
    }
    if (!isJsonEqual(nodeIdentity(old), nodeIdentity(node))) diff.nodes.changed.push(id);
    if (old.position.x !== node.position.x || old.position.y !== node.position.y) diff.nodes.moved.push(id);
    for (const param of Object.keys(node.args)) {
      if (!hasMember(old.args, param)) diff.params.added.push({ node: id, param });
      else if (!isJsonEqual(old.args[param], node.args[param])) diff.params.changed.push({ node: id, param });
    }
    for (const param of Object.keys(old.args))
      if (!hasMember(node.args, param)) diff.params.removed.push({ node: id, param });
  }
  for (const id of a.keys()) if (!b.has(id)) diff.nodes.removed.push(id);

  const ea = byId(before.edges);
  const eb = byId(after.edges);
  for (const [id, edge] of eb) {
    const old = ea.get(id);
    if (!old) diff.edges.added.push(id);
    else if (!isJsonEqual(old, edge)) diff.edges.changed.push(id);
  }
  for (const id of ea.keys()) if (!eb.has(id)) diff.edges.removed.push(id);

  for (const [name, snap] of Object.entries(after.tools)) {
    const old = getMember(before.tools, name);
    if (!old) diff.tools.added.push(name);
    else if (old.hash !== snap.hash) diff.tools.changed.push(name);
  }
  for (const name of Object.keys(before.tools))
    if (!hasMember(after.tools, name)) diff.tools.removed.push(name);
  return diff;
}

/** True when nothing that a person would call a change differs. */
export function isEmptyDiff(d: DocumentDiff): boolean {
  return (
    !d.task &&
    [d.nodes, d.edges, d.params, d.tools].every((group) =>
      Object.values(group).every((list: unknown[]) => list.length === 0),
    )
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line such as "2 nodes added, 1 node moved, 3 params changed", or "No changes". */
export function summarizeDiff(d: DocumentDiff): string {
  const parts: string[] = [];
  const group = (counts: Record<string, number>, noun: string) => {
    for (const [verb, n] of Object.entries(counts)) if (n) parts.push(`${plural(n, noun)} ${verb}`);
  };
  if (d.task) parts.push('task changed');
  group(
    { added: d.nodes.added.length, removed: d.nodes.removed.length, changed: d.nodes.changed.length },
    'node',
  );
  group({ moved: d.nodes.moved.length }, 'node');
  group(
    { added: d.edges.added.length, removed: d.edges.removed.length, changed: d.edges.changed.length },
    'edge',
  );
  group(
    { added: d.params.added.length, removed: d.params.removed.length, changed: d.params.changed.length },
    'param',
  );
  group(
    { added: d.tools.added.length, removed: d.tools.removed.length, changed: d.tools.changed.length },
    'tool',
  );
  return parts.length ? parts.join(', ') : 'No changes';
}

// ---- three-way merge ----

/** Something both sides changed differently; `mine` was kept. */
export interface MergeConflict {
  /** Where: `task`, `node step_2`, `node step_2 param path`, `edge e1`, `tool fetch`. */
  where: string;
  message: string;
}

export interface MergeResult {
  doc: WorkflowDocument;
  conflicts: MergeConflict[];
}

const MISSING = Symbol('missing');
type Maybe<T> = T | typeof MISSING;

/**
 * Three-way choice for one value. Returns the merged value and whether both sides changed it
 * differently (then mine is taken). MISSING stands for "absent" (deleted or never there).
 */
function pick<T>(base: Maybe<T>, mine: Maybe<T>, theirs: Maybe<T>): { value: Maybe<T>; conflict: boolean } {
  const eq = (x: Maybe<T>, y: Maybe<T>) => (x === MISSING || y === MISSING ? x === y : isJsonEqual(x, y));
  if (eq(mine, theirs)) return { value: mine, conflict: false };
  if (eq(base, mine)) return { value: theirs, conflict: false };
  if (eq(base, theirs)) return { value: mine, conflict: false };
  return { value: mine, conflict: true };
}

function mergeRecord<T>(
  base: Record<string, T>,
  mine: Record<string, T>,
  theirs: Record<string, T>,
  onConflict: (key: string) => void,
): Record<string, T> {
  const out = createRecord<T>();
  const keys = [...new Set([...Object.keys(theirs), ...Object.keys(mine), ...Object.keys(base)])];
  for (const key of keys) {
    const get = (r: Record<string, T>): Maybe<T> => (hasMember(r, key) ? r[key] : MISSING);
    const { value, conflict } = pick(get(base), get(mine), get(theirs));
    if (conflict) onConflict(key);
    if (value !== MISSING) out[key] = value;
  }
  return out;
}

function mergeNode(
  base: WorkflowNode,
  mine: WorkflowNode,
  theirs: WorkflowNode,
  conflicts: MergeConflict[],
): WorkflowNode {
  const id = mine.id;
  const args = mergeRecord(base.args, mine.args, theirs.args, (param) =>
    conflicts.push({
      where: `node ${id} param ${param}`,
      message: `Parameter "${param}" of node ${id} was changed in both places; your value was kept.`,
    }),
  );
  const rest = mergeRecord(
    nodeIdentity(base) as Record<string, unknown>,
    nodeIdentity(mine) as Record<string, unknown>,
    nodeIdentity(theirs) as Record<string, unknown>,
    (field) =>
      conflicts.push({
        where: `node ${id} ${field}`,
        message: `The ${field} of node ${id} was changed in both places; yours was kept.`,
      }),
  );
  const position = pick(base.position, mine.position, theirs.position);
  // Both moving the same node is not worth a warning: the last drag simply wins.
  return { ...(rest as object), args, position: position.value as WorkflowNode['position'] } as WorkflowNode;
}

/**
 * The order of ids after a merge: the side that reordered wins (node order is the step order);
 * when neither did, or both did, theirs, followed by what only mine has.
 */
function mergeOrder(
  base: readonly { id: string }[],
  mine: readonly { id: string }[],
  theirs: readonly { id: string }[],
): string[] {
  const ids = (list: readonly { id: string }[]) => list.map((x) => x.id as string);
  const common = (list: readonly { id: string }[], other: Set<string>) =>
    ids(list).filter((id) => other.has(id));
  const inBase = new Set(ids(base));
  const theirsReordered = !isJsonEqual(common(theirs, inBase), common(base, new Set(ids(theirs))));
  const [first, second] = theirsReordered ? [theirs, mine] : [mine, theirs];
  const firstIds = ids(first);
  // Ids only the second side has are slotted in after the item that precedes them there.
  const out = [...firstIds];
  const present = new Set(firstIds);
  const secondIds = ids(second);
  secondIds.forEach((id, i) => {
    if (present.has(id)) return;
    const before = secondIds
      .slice(0, i)
      .reverse()
      .find((x) => present.has(x));
    out.splice(before === undefined ? 0 : out.indexOf(before) + 1, 0, id);
    present.add(id);
  });
  return out;
}

/**
 * Merges the changes `mine` and `theirs` each made to `base`. Nodes, edges and tools are matched
 * by id (by name for tools); within a node each parameter merges on its own. A node deleted on one
 * side and edited on the other is kept (nothing is lost without being seen). Edges left without an
 * endpoint are dropped, and when both sides fed the same input, my edge is kept. The node order is
 * that of the side that reordered, with the other side's new nodes slotted in after their
 * predecessors.
 */
export function mergeDocuments(
  base: WorkflowDocument,
  mine: WorkflowDocument,
  theirs: WorkflowDocument,
): MergeResult {
  const conflicts: MergeConflict[] = [];

  const task = pick(base.task, mine.task, theirs.task);
  if (task.conflict)
    conflicts.push({ where: 'task', message: 'The task text was changed in both places; yours was kept.' });
  const systemParams = pick(
    base.systemParams ?? MISSING,
    mine.systemParams ?? MISSING,
    theirs.systemParams ?? MISSING,
  );
  if (systemParams.conflict)
    conflicts.push({
      where: 'system parameters',
      message: 'The system parameters were changed in both places; yours were kept.',
    });

  const tools = mergeRecord(base.tools, mine.tools, theirs.tools, (name) =>
    conflicts.push({
      where: `tool ${name}`,
      message: `The declaration of tool "${name}" was updated differently in both places; yours was kept.`,
    }),
  );

  const nodes = mergeNodes(base, mine, theirs, conflicts);
  const edges = mergeEdges(base, mine, theirs, nodes, conflicts);

  const doc: WorkflowDocument = {
    task: task.value as string,
    nodes: [...nodes.values()],
    edges,
    tools,
  };
  if (systemParams.value !== MISSING) doc.systemParams = systemParams.value as string[];
  return { doc, conflicts };
}

/**
 * The nodes after a merge, by id in the merged order. A node added or changed on one side is
 * taken from it; one deleted on one side and edited on the other is kept, with a conflict.
 */
function mergeNodes(
  base: WorkflowDocument,
  mine: WorkflowDocument,
  theirs: WorkflowDocument,
  conflicts: MergeConflict[],
): Map<string, WorkflowNode> {
  const b = byId(base.nodes);
  const m = byId(mine.nodes);
  const t = byId(theirs.nodes);
  const merged = new Map<string, WorkflowNode>();
  for (const id of mergeOrder(base.nodes, mine.nodes, theirs.nodes)) {
    const [bn, mn, tn] = [b.get(id), m.get(id), t.get(id)];
    if (mn && tn) {
      if (bn) merged.set(id, mergeNode(bn, mn, tn, conflicts));
      else {
        if (!isJsonEqual(mn, tn))
          conflicts.push({
            where: `node ${id}`,
            message: `A node with id ${id} was added in both places; yours was kept.`,
          });
        merged.set(id, mn);
      }
    } else if (mn) {
      // Only mine has it: I added it, or they deleted it (keep it if I edited it since).
      if (!bn) merged.set(id, mn);
      else if (!isJsonEqual(bn, mn)) {
        conflicts.push({
          where: `node ${id}`,
          message: `Node ${id} was deleted elsewhere but you edited it; it was kept.`,
        });
        merged.set(id, mn);
      }
    } else if (tn) {
      if (!bn) merged.set(id, tn);
      else if (!isJsonEqual(bn, tn)) {
        conflicts.push({
          where: `node ${id}`,
          message: `You deleted node ${id}, but it was edited elsewhere; it was kept.`,
        });
        merged.set(id, tn);
      }
    }
  }
  return merged;
}

/**
 * The edges after a merge, in the merged order, among the merged `nodes`. An edge that lost an
 * endpoint is dropped, and when both sides fed the same input, my edge is kept.
 */
function mergeEdges(
  base: WorkflowDocument,
  mine: WorkflowDocument,
  theirs: WorkflowDocument,
  nodes: Map<string, WorkflowNode>,
  conflicts: MergeConflict[],
): WorkflowEdge[] {
  const eb = byId(base.edges);
  const em = byId(mine.edges);
  const et = byId(theirs.edges);
  const edges: WorkflowEdge[] = [];
  for (const id of mergeOrder(base.edges, mine.edges, theirs.edges)) {
    const { value, conflict } = pick<WorkflowEdge>(
      eb.get(id) ?? MISSING,
      em.get(id) ?? MISSING,
      et.get(id) ?? MISSING,
    );
    if (conflict)
      conflicts.push({
        where: `edge ${id}`,
        message: `Edge ${id} was changed in both places; yours was kept.`,
      });
    if (value !== MISSING) edges.push(value);
  }
  // When both sides wired the same input (each adding an edge), keep mine; edges that were
  // already in base, or that only one side touches, are left as they are.
  const fedByMine = new Map(mine.edges.map((e) => [`${e.target}\u0000${e.targetInput}`, e]));
  const keptEdges: WorkflowEdge[] = [];
  for (const e of edges) {
    if (!nodes.has(e.source) || !nodes.has(e.target)) {
      conflicts.push({
        where: `edge ${e.id}`,
        message: `Edge ${e.id} lost a node it connected (deleted elsewhere) and was removed.`,
      });
      continue;
    }
    const addedByThem = !eb.has(e.id) && !em.has(e.id);
    const mineThere = fedByMine.get(`${e.target}\u0000${e.targetInput}`);
    if (addedByThem && mineThere && !eb.has(mineThere.id)) {
      conflicts.push({
        where: `edge ${e.id}`,
        message: `Input "${e.targetInput}" of node ${e.target} was wired in both places; your edge ${mineThere.id} was kept.`,
      });
      continue;
    }
    keptEdges.push(e);
  }
  return keptEdges;
}
