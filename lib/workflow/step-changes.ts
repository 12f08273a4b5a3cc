/**
 * What changed between two versions of a workflow, step by step, in the words of the history
 * dialog: each step by its title (its label, else its tool's title, else the tool's name), and
 * for a changed step which parameters changed, from what to what (short), which inputs were wired
 * or unwired, and whether it was renamed, moved or its tool's declaration updated. The ids-only
 * diff (diff.ts) stays for counts and the three-way merge.
 */
import { getMember, hasMember } from '../tools/json-value';
import { isJsonEqual } from './diff';
import type { WorkflowDocument, WorkflowEdge, WorkflowNode } from './types';

/** A parameter whose value changed; null stands for "not set". */
export interface ParamChange {
  param: string;
  before: string | null;
  after: string | null;
}

/** An input that a step's output began or stopped feeding. */
export interface WiringChange {
  input: string;
  /** The feeding step's title and output: "Fetch page · result". */
  from: string;
  change: 'wired' | 'unwired';
}

export interface StepChange {
  node: string;
  /** The step's title in the newer version (the older one for a removed step). */
  title: string;
  change: 'added' | 'removed' | 'changed';
  /** The title before, when a changed step was renamed. */
  renamedFrom?: string;
  params: ParamChange[];
  wiring: WiringChange[];
  moved: boolean;
  /** Its tool's declaration was updated (a refresh of the toolkit). */
  toolUpdated: boolean;
}

export interface StepChangeOptions {
  /** How a tool's declared title is shown (e.g. in the interface's language); unchanged by default. */
  toolTitle?: (title: string) => string;
  /** The longest value shown before it is cut with "…". */
  maxValue?: number;
}

const MAX_VALUE = 40;

/** A value as short text: JSON, cut with "…" past `max` characters; null when not set. */
export function formatShortValue(value: unknown, max = MAX_VALUE): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A step's title: its label, else its tool's declared title, else the tool's name. */
export function getStepTitle(
  doc: WorkflowDocument,
  node: WorkflowNode,
  toolTitle: (title: string) => string = (t) => t,
): string {
  if (node.label) return node.label;
  const declared = getMember(doc.tools, node.tool)?.declaration.title;
  return declared ? toolTitle(declared) : node.tool;
}

const inputKey = (edge: WorkflowEdge) => `${edge.targetInput}\u0000${edge.source}\u0000${edge.sourceOutput}`;

function getParamChanges(before: WorkflowNode, after: WorkflowNode, max: number): ParamChange[] {
  const changes: ParamChange[] = [];
  const params = [
    ...Object.keys(after.args),
    ...Object.keys(before.args).filter((p) => !hasMember(after.args, p)),
  ];
  for (const param of params) {
    const old = hasMember(before.args, param) ? before.args[param] : undefined;
    const now = hasMember(after.args, param) ? after.args[param] : undefined;
    if (old === undefined && now === undefined) continue;
    if (old !== undefined && now !== undefined && isJsonEqual(old, now)) continue;
    changes.push({ param, before: formatShortValue(old, max), after: formatShortValue(now, max) });
  }
  return changes;
}

/**
 * The steps that differ from `older` to `newer`: the newer version's steps in their order (added
 * and changed ones), then the removed ones in the older version's order. A step whose only change
 * is an edge into it counts as changed; one that is identical in both is left out.
 */
export function getStepChanges(
  older: WorkflowDocument,
  newer: WorkflowDocument,
  options: StepChangeOptions = {},
): StepChange[] {
  const max = options.maxValue ?? MAX_VALUE;
  const titleIn = (doc: WorkflowDocument, node: WorkflowNode) => getStepTitle(doc, node, options.toolTitle);
  const oldNodes = new Map(older.nodes.map((n) => [n.id, n]));
  const newNodes = new Map(newer.nodes.map((n) => [n.id, n]));
  const feeding = (doc: WorkflowDocument, nodes: Map<string, WorkflowNode>, edge: WorkflowEdge) => {
    const source = nodes.get(edge.source);
    return `${source ? titleIn(doc, source) : edge.source} · ${edge.sourceOutput}`;
  };
  const edgesInto = (doc: WorkflowDocument, id: string) => {
    const edges = new Map<string, WorkflowEdge>();
    for (const edge of doc.edges) if (edge.target === id) edges.set(inputKey(edge), edge);
    return edges;
  };

  const changes: StepChange[] = [];
  const blank = () => ({ params: [], wiring: [], moved: false, toolUpdated: false });
  for (const node of newer.nodes) {
    const old = oldNodes.get(node.id);
    const title = titleIn(newer, node);
    if (!old) {
      changes.push({ node: node.id, title, change: 'added', ...blank() });
      continue;
    }
    const oldTitle = titleIn(older, old);
    const params = getParamChanges(old, node, max);
    const wasFed = edgesInto(older, node.id);
    const isFed = edgesInto(newer, node.id);
    const wiring: WiringChange[] = [];
    for (const [key, edge] of isFed)
      if (!wasFed.has(key))
        wiring.push({ input: edge.targetInput, from: feeding(newer, newNodes, edge), change: 'wired' });
    for (const [key, edge] of wasFed)
      if (!isFed.has(key))
        wiring.push({ input: edge.targetInput, from: feeding(older, oldNodes, edge), change: 'unwired' });
    const moved = old.position.x !== node.position.x || old.position.y !== node.position.y;
    const toolUpdated =
      old.tool === node.tool &&
      getMember(older.tools, old.tool)?.hash !== getMember(newer.tools, node.tool)?.hash;
    const renamed = oldTitle !== title;
    if (params.length === 0 && wiring.length === 0 && !moved && !toolUpdated && !renamed) continue;
    changes.push({
      node: node.id,
      title,
      change: 'changed',
      ...(renamed ? { renamedFrom: oldTitle } : {}),
      params,
      wiring,
      moved,
      toolUpdated,
    });
  }
  for (const old of older.nodes)
    if (!newNodes.has(old.id))
      changes.push({ node: old.id, title: titleIn(older, old), change: 'removed', ...blank() });
  return changes;
}
