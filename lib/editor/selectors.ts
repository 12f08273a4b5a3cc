/**
 * Module-level selectors over the editor state (STYLE: selectors are constants; node components
 * read their own data by id). Derived values are memoised on the identity of what they come
 * from, so a drag frame (which changes only React Flow's node objects) costs each node an O(1)
 * lookup, and an edit to one node recomputes that node's view only.
 */
import { useCallback } from 'react';
import type { ToolDeclaration } from '../tools/types';
import type { NodeDrift } from '../toolkits/drift';
import { getNodeParameters } from '../workflow/node-parameters';
import { getMember } from '../tools/json-value';
import { getToolSnapshot } from '../workflow/graph';
import type { NodeParameters } from '../workflow/params';
import type {
  EdgeId,
  NodeId,
  NodeIssue,
  ToolSnapshot,
  WorkflowDocument,
  WorkflowEdge,
  WorkflowNode,
} from '../workflow/types';
import { useEditorStore } from './context';
import type { EditorState } from './store';

/** Whether a node still matches the declaration it was built from. */
export type DriftStatus =
  | { status: 'current' }
  /** The declaration changed since the node was built (snapshot hash or a toolkit refresh). */
  | { status: 'changed'; details: string[] }
  /** The tool is not declared at all: a placeholder node. */
  | { status: 'missing' };

/** Where an edge-fed input gets its value. */
export interface IncomingEdge {
  edgeId: EdgeId;
  source: NodeId;
  sourceOutput: string;
}

/** Everything a node shows: its parameters by the DESIGN §1 rules, plus the node and its tool. */
export interface NodeView extends NodeParameters {
  /** Edge-fed inputs by name. */
  incoming: Readonly<Record<string, IncomingEdge>>;
  /** Outputs that feed at least one edge. */
  connectedOutputs: ReadonlySet<string>;
  /** Changes exactly when the node's edges (in or out) change. */
  connectionKey: string;
  node: WorkflowNode;
  declaration: ToolDeclaration | undefined;
  /** True when the node's tool is unknown (imported placeholder or undeclared tool). */
  placeholder: boolean;
  drift: DriftStatus;
  /** Counts for the badges. */
  counts: {
    missingRequired: number;
    unknownArgs: number;
    invalid: number;
    /** Errors that are none of the above (planner notes, unknown inputs, an undeclared tool). */
    otherErrors: number;
    errors: number;
    warnings: number;
  };
}

/** A problem of one node, for the problems list. */
export interface EditorProblem extends NodeIssue {
  nodeId: NodeId;
  /** The node's title (label or tool name), to say where. */
  nodeTitle: string;
}

export const selectDoc = (s: EditorState) => s.doc;
export const selectMeta = (s: EditorState) => s.meta;
export const selectSelectedNodeIds = (s: EditorState) => s.selectedNodeIds;
export const selectFlowNodes = (s: EditorState) => s.flowNodes;
export const selectFlowEdges = (s: EditorState) => s.flowEdges;
export const selectAiEditing = (s: EditorState) => s.aiEditing;
/** Whether the canvas takes edits now (not read-only, the model is not editing, the screen is wide enough). */
export const selectCanEdit = (s: EditorState) => !s.meta.readOnly && !s.aiEditing && !s.narrow;
export const selectConnectRefusal = (s: EditorState) => s.connectRefusal;
export const selectFocusRequest = (s: EditorState) => s.focusRequest;
export const selectFitRequest = (s: EditorState) => s.fitRequest;
export const selectHasClipboard = (s: EditorState) => s.clipboard !== null;
export const selectNodeCount = (s: EditorState) => s.doc.nodes.length;

// ---- per-document indexes, computed once per array identity ----

const EMPTY_INPUTS: ReadonlySet<string> = new Set();
/** One object, so a view cached for "no known value problems" is found again. */
const NO_ISSUES: readonly NodeIssue[] = [];
const NO_INCOMING: Readonly<Record<string, IncomingEdge>> = {};
const nodeIndexes = new WeakMap<readonly WorkflowNode[], Map<string, WorkflowNode>>();
/** The edges at one node: which inputs are fed and from where, which outputs feed others. */
interface NodeConnections {
  /** Changes exactly when the node's edges do. */
  key: string;
  inputs: Set<string>;
  incoming: Record<string, IncomingEdge>;
  outputs: Set<string>;
}
const connectionIndexes = new WeakMap<readonly WorkflowEdge[], Map<string, NodeConnections>>();

function getNodeIndex(nodes: readonly WorkflowNode[]): Map<string, WorkflowNode> {
  let index = nodeIndexes.get(nodes);
  if (!index) {
    index = new Map(nodes.map((n) => [n.id, n]));
    nodeIndexes.set(nodes, index);
  }
  return index;
}

function getConnectionIndex(edges: readonly WorkflowEdge[]): Map<string, NodeConnections> {
  let index = connectionIndexes.get(edges);
  if (!index) {
    const found = new Map<string, NodeConnections>();
    const entryOf = (id: string) => {
      let entry = found.get(id);
      if (!entry) found.set(id, (entry = { key: '', inputs: new Set(), incoming: {}, outputs: new Set() }));
      return entry;
    };
    for (const e of edges) {
      const target = entryOf(e.target);
      target.inputs.add(e.targetInput);
      target.incoming[e.targetInput] = { edgeId: e.id, source: e.source, sourceOutput: e.sourceOutput };
      entryOf(e.source).outputs.add(e.sourceOutput);
    }
    for (const entry of found.values()) {
      const ins = Object.keys(entry.incoming)
        .sort()
        .map((input) => `${input}<${entry.incoming[input].edgeId}`);
      entry.key = `${ins.join('\u0000')}\u0001${[...entry.outputs].sort().join('\u0000')}`;
    }
    connectionIndexes.set(edges, found);
    index = found;
  }
  return index;
}

// ---- node views ----

interface ViewCacheEntry {
  snapshot: ToolSnapshot | undefined;
  connectionKey: string;
  systemParams: readonly string[] | undefined;
  liveDrift: NodeDrift | undefined;
  valueCheck: boolean | readonly NodeIssue[];
  view: NodeView;
}

/** Keyed by the node object: an edited node is a new object, so its stale entry just goes away. */
const viewCache = new WeakMap<WorkflowNode, ViewCacheEntry>();

function getDriftStatus(
  node: WorkflowNode,
  snapshot: ToolSnapshot | undefined,
  live: NodeDrift | undefined,
): DriftStatus {
  if (!snapshot) return { status: 'missing' };
  if (live?.status === 'missing') return { status: 'missing' };
  if (live?.status === 'changed') {
    return {
      status: 'changed',
      details: [`The tool "${node.tool}" changed in its toolkit since this node was made.`],
    };
  }
  if (node.toolHash && node.toolHash !== snapshot.hash) {
    return {
      status: 'changed',
      details: [`The declaration of "${node.tool}" differs from the one this node was built from.`],
    };
  }
  return { status: 'current' };
}

/**
 * How a node's values are checked now: by Ajv once loaded; before that, by the server's check
 * of the document as opened while the node, its tool and its edges are unchanged; else not yet.
 */
export function getValueCheck(s: EditorState, node: WorkflowNode): boolean | readonly NodeIssue[] {
  if (s.valuesChecked) return true;
  const known = s.knownValueProblems;
  if (!known || known.doc.tools !== s.doc.tools || known.doc.systemParams !== s.doc.systemParams) {
    return false;
  }
  const opened = getNodeIndex(known.doc.nodes).get(node.id);
  if (!opened || opened.args !== node.args || opened.tool !== node.tool) return false;
  const key = (edges: readonly WorkflowEdge[]) => getConnectionIndex(edges).get(node.id)?.key ?? '';
  if (key(known.doc.edges) !== key(s.doc.edges)) return false;
  return getMember(known.problems, node.id) ?? NO_ISSUES;
}

function createNodeView(
  doc: WorkflowDocument,
  node: WorkflowNode,
  connections: NodeConnections | undefined,
  live: NodeDrift | undefined,
  valueCheck: boolean | readonly NodeIssue[],
): NodeView {
  const inputs = connections?.inputs ?? EMPTY_INPUTS;
  const snapshot = getToolSnapshot(doc, node.tool);
  const params = getNodeParameters(doc, node, inputs, valueCheck);
  const drift = getDriftStatus(node, snapshot, live);
  const problems =
    drift.status === 'changed'
      ? [
          ...params.problems,
          {
            severity: 'warning' as const,
            code: 'schema_drift',
            message: `${drift.details.join(' ')} Rebuild the node on the current declaration, or keep it as is.`,
          },
        ]
      : params.problems;
  let missingRequired = 0;
  let invalid = 0;
  let errors = 0;
  for (const p of problems) {
    if (p.code === 'missing_required') missingRequired++;
    if (p.code === 'invalid_value' && p.severity === 'error') invalid++;
    if (p.severity === 'error') errors++;
  }
  const placeholderError = problems.some((p) => p.code === 'unknown_tool') ? 1 : 0;
  return {
    ...params,
    problems,
    incoming: connections?.incoming ?? NO_INCOMING,
    connectedOutputs: connections?.outputs ?? EMPTY_INPUTS,
    connectionKey: connections?.key ?? '',
    node,
    declaration: snapshot?.declaration,
    placeholder: params.placeholder,
    drift,
    counts: {
      missingRequired,
      unknownArgs: params.unknown_args.length,
      invalid,
      otherErrors: errors - missingRequired - invalid - placeholderError,
      errors,
      warnings: problems.length - errors,
    },
  };
}

function getViewOf(s: EditorState, node: WorkflowNode): NodeView {
  const { doc, liveDrift } = s;
  const valueCheck = getValueCheck(s, node);
  const connection = getConnectionIndex(doc.edges).get(node.id);
  const connectionKey = connection?.key ?? '';
  const snapshot = getToolSnapshot(doc, node.tool);
  const live = liveDrift[node.id];
  const cached = viewCache.get(node);
  if (
    cached &&
    cached.snapshot === snapshot &&
    cached.connectionKey === connectionKey &&
    cached.systemParams === doc.systemParams &&
    cached.liveDrift === live &&
    cached.valueCheck === valueCheck
  ) {
    return cached.view;
  }
  const view = createNodeView(doc, node, connection, live, valueCheck);
  viewCache.set(node, {
    snapshot,
    connectionKey,
    systemParams: doc.systemParams,
    liveDrift: live,
    valueCheck,
    view,
  });
  return view;
}

/**
 * The derived view of one node (undefined once it is deleted). The same object comes back until
 * something it depends on changes: the node itself, its tool snapshot, which of its inputs are
 * connected, the system parameters or its live drift.
 */
export function selectNodeView(s: EditorState, id: string): NodeView | undefined {
  const node = getNodeIndex(s.doc.nodes).get(id);
  return node ? getViewOf(s, node) : undefined;
}

/** Subscribes a component to one node's view; re-renders only when that view changes. */
export function useNodeView(id: string): NodeView | undefined {
  return useEditorStore(useCallback((s: EditorState) => selectNodeView(s, id), [id]));
}

// ---- whole-document derivations ----

const problemsCache = new WeakMap<
  WorkflowDocument,
  { liveDrift: Record<string, NodeDrift>; valuesChecked: boolean; problems: EditorProblem[] }
>();

/** Every error and warning of every node, in node order, errors first within a node. */
export const selectProblems = (s: EditorState): EditorProblem[] => {
  const cached = problemsCache.get(s.doc);
  if (cached && cached.liveDrift === s.liveDrift && cached.valuesChecked === s.valuesChecked) {
    return cached.problems;
  }
  const problems: EditorProblem[] = [];
  for (const node of s.doc.nodes) {
    const view = getViewOf(s, node);
    const nodeTitle = node.label || node.tool;
    for (const severity of ['error', 'warning'] as const) {
      for (const p of view.problems)
        if (p.severity === severity) problems.push({ ...p, nodeId: node.id, nodeTitle });
    }
  }
  problemsCache.set(s.doc, { liveDrift: s.liveDrift, valuesChecked: s.valuesChecked, problems });
  return problems;
};

/** For `useEditorHistory`: whether Undo / Redo have anything to do. */
export const selectCanUndo = (h: { pastStates: readonly unknown[] }) => h.pastStates.length > 0;
export const selectCanRedo = (h: { futureStates: readonly unknown[] }) => h.futureStates.length > 0;
