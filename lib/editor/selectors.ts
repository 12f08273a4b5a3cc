/**
 * Module-level selectors over the editor state (STYLE: selectors are constants; node components
 * read their own data by id). Derived values are memoised on the identity of what they come
 * from, so a drag frame (which changes only React Flow's node objects) costs each node an O(1)
 * lookup, and an edit to one node recomputes that node's view only.
 */
import { useMemo } from 'react';
import type { ToolDeclaration } from '../tools/types';
import { getNodeParameters } from '../workflow/node-parameters';
import { getMember } from '../tools/json-value';
import { getOutputPorts, getToolSnapshot } from '../workflow/graph';
import type { NodeParameters } from '../workflow/params';
import type {
  EdgeId,
  NodeId,
  NodeIssue,
  ToolSnapshot,
  WorkflowDocument,
  WorkflowEdge,
  OutputParameter,
  WorkflowNode,
} from '../workflow/types';
import { useEditorStore } from './context';
import type { EditorState } from './store';

/** Whether a node still matches the declaration it was built from. */
export type DriftStatus =
  | { status: 'current' }
  /** The declaration changed since the node was built (its snapshot has another hash). */
  | { status: 'changed'; details: string[] }
  /** The tool is not declared at all: a placeholder node. */
  | { status: 'missing' };

/** Where an edge-fed input gets its value. */
export interface IncomingEdge {
  edgeId: EdgeId;
  source: NodeId;
  sourceOutput: string;
}

/** Everything a node shows: its parameters by the docs/design.md §2 rules, plus the node and its tool. */
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
  /** The nodes feeding it, one per fed input (see `getSourcePorts`). */
  sources: string[];
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
      if (!entry)
        found.set(
          id,
          (entry = { key: '', inputs: new Set(), incoming: {}, sources: [], outputs: new Set() }),
        );
      return entry;
    };
    for (const e of edges) {
      const target = entryOf(e.target);
      target.inputs.add(e.targetInput);
      target.incoming[e.targetInput] = { edgeId: e.id, source: e.source, sourceOutput: e.sourceOutput };
      target.sources.push(e.source);
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
  /** The output ports of the nodes feeding it: a view shows the edges whose types clash. */
  sourcePorts: SourcePorts;
  valueCheck: boolean | readonly NodeIssue[];
  view: NodeView;
}

/** Per node feeding one: its output ports (a shared, cached array), undefined when it is gone. */
type SourcePorts = readonly (readonly OutputParameter[] | undefined)[];
const NO_PORTS: SourcePorts = [];

function getSourcePorts(doc: WorkflowDocument, connections: NodeConnections | undefined): SourcePorts {
  if (!connections || connections.sources.length === 0) return NO_PORTS;
  const nodes = getNodeIndex(doc.nodes);
  return connections.sources.map((id) => {
    const source = nodes.get(id);
    return source ? getOutputPorts(doc, source) : undefined;
  });
}

/** Whether the nodes feeding one still have the output ports `cached` (without allocating). */
function hasSourcePorts(
  doc: WorkflowDocument,
  connections: NodeConnections | undefined,
  cached: SourcePorts,
): boolean {
  const sources = connections?.sources ?? [];
  if (sources.length !== cached.length) return false;
  const nodes = getNodeIndex(doc.nodes);
  for (let i = 0; i < sources.length; i++) {
    const source = nodes.get(sources[i]);
    if ((source ? getOutputPorts(doc, source) : undefined) !== cached[i]) return false;
  }
  return true;
}

/** Keyed by the node object: an edited node is a new object, so its stale entry just goes away. */
const viewCache = new WeakMap<WorkflowNode, ViewCacheEntry>();

function getDriftStatus(node: WorkflowNode, snapshot: ToolSnapshot | undefined): DriftStatus {
  if (!snapshot) return { status: 'missing' };
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
  valueCheck: boolean | readonly NodeIssue[],
): NodeView {
  const inputs = connections?.inputs ?? EMPTY_INPUTS;
  const snapshot = getToolSnapshot(doc, node.tool);
  const params = getNodeParameters(doc, node, inputs, valueCheck);
  const drift = getDriftStatus(node, snapshot);
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
  const { doc } = s;
  const valueCheck = getValueCheck(s, node);
  const connection = getConnectionIndex(doc.edges).get(node.id);
  const connectionKey = connection?.key ?? '';
  const snapshot = getToolSnapshot(doc, node.tool);
  const cached = viewCache.get(node);
  if (
    cached &&
    cached.snapshot === snapshot &&
    cached.connectionKey === connectionKey &&
    cached.systemParams === doc.systemParams &&
    cached.valueCheck === valueCheck &&
    hasSourcePorts(doc, connection, cached.sourcePorts)
  ) {
    return cached.view;
  }
  const view = createNodeView(doc, node, connection, valueCheck);
  viewCache.set(node, {
    snapshot,
    connectionKey,
    systemParams: doc.systemParams,
    sourcePorts: getSourcePorts(doc, connection),
    valueCheck,
    view,
  });
  return view;
}

/**
 * The derived view of one node (undefined once it is deleted). The same object comes back until
 * something it depends on changes: the node itself, its tool snapshot, which of its inputs are
 * connected, the output ports feeding them, or the system parameters.
 */
export function selectNodeView(s: EditorState, id: string): NodeView | undefined {
  const node = getNodeIndex(s.doc.nodes).get(id);
  return node ? getViewOf(s, node) : undefined;
}

/**
 * One node's view, remembered for the state it came from: a node's view depends on the document
 * and on how values are checked, nothing else, so a state that changed elsewhere (a drag frame,
 * React Flow measuring nodes, selection) gets the same view back without a lookup.
 */
export function createNodeViewSelector(id: string) {
  let last: {
    doc: WorkflowDocument;
    valuesChecked: boolean;
    known: EditorState['knownValueProblems'];
    view: NodeView | undefined;
  } | null = null;
  return (s: EditorState): NodeView | undefined => {
    if (
      last &&
      last.doc === s.doc &&
      last.valuesChecked === s.valuesChecked &&
      last.known === s.knownValueProblems
    ) {
      return last.view;
    }
    const view = selectNodeView(s, id);
    last = { doc: s.doc, valuesChecked: s.valuesChecked, known: s.knownValueProblems, view };
    return view;
  };
}

/**
 * Subscribes a component to one node's view; re-renders only when that view changes. Every
 * change of the store runs this for every node on the canvas, so it is O(1) unless the document
 * or the value checks changed.
 */
export function useNodeView(id: string): NodeView | undefined {
  return useEditorStore(useMemo(() => createNodeViewSelector(id), [id]));
}

// ---- whole-document derivations ----

const problemsCache = new WeakMap<WorkflowDocument, { valuesChecked: boolean; problems: EditorProblem[] }>();

/** Every error and warning of every node, in node order, errors first within a node. */
export const selectProblems = (s: EditorState): EditorProblem[] => {
  const cached = problemsCache.get(s.doc);
  if (cached && cached.valuesChecked === s.valuesChecked) {
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
  problemsCache.set(s.doc, { valuesChecked: s.valuesChecked, problems });
  return problems;
};

/** For `useEditorHistory`: whether Undo / Redo have anything to do. */
export const selectCanUndo = (h: { pastStates: readonly unknown[] }) => h.pastStates.length > 0;
export const selectCanRedo = (h: { futureStates: readonly unknown[] }) => h.futureStates.length > 0;
