/**
 * The one road from a tool call to the document. A call — a tool and the args a model (or a
 * plan file) sent, where a whole-value `"{{step_N.output}}"` wires an input — becomes a node
 * and edges through the commands, and the same rules hold for the planner, the CLI's `build`
 * and the editor's replay of a run:
 *
 * - An arg the declaration lacks is moved aside as an unknown arg (a warning on the node).
 * - A whole-value reference becomes an edge only if `connect` accepts it; otherwise it is
 *   dropped (never kept as text that would look like a set value) and the reason is an error
 *   note on the node (`bad_reference`): no such step or output, an input already fed, a cycle,
 *   or a type mismatch (refused, as when a person drags the edge).
 * - A reference inside a longer value stays text, with a warning (`embedded_reference`).
 */
import { DEFAULT_SYSTEM_PARAMS, type ToolDeclaration } from '../../tools/types';
import type { Issue } from '../../result';
import { getNodeParameters } from '../node-parameters';
import { findNode, getConnectedInputs, getToolSnapshot, inBatch } from '../graph';
import { createRecord } from '../../tools/json-value';
import { getArgKind, getUnknownArgIssue } from '../params';
import { getGridPosition, getReferences, parseReference } from '../references';
import {
  asNodeId,
  type NodeId,
  type NodeIssue,
  type WorkflowDocument,
  type WorkflowEdge,
  type XY,
} from '../types';
import { addNode, addNodeNotes, connect, type Connection } from './document';
import { applyOperations, type AddedStep, type WorkflowOperation } from './operations';

/** A tool call to add as a step. */
export interface ToolCall {
  /** The step's id (the node id). */
  id: NodeId | string;
  /** The tool's declaration, or its name when nobody declared it. */
  decl: ToolDeclaration | string;
  /** The args as sent, whole-value references included. */
  args: Record<string, unknown>;
  /** What reading the call found (bad JSON, repairs), kept on the node. */
  notes?: readonly NodeIssue[];
  /** The argument text as sent, when it was not valid JSON. */
  rawArguments?: string;
  /** Where the node goes; the next place on the grid when omitted. */
  position?: XY;
}

/** What a call did: the next document and the same change as operations. */
export interface CallResult {
  doc: WorkflowDocument;
  step: AddedStep;
  /** Edges its references made. */
  edges: WorkflowEdge[];
  /** Replaying these on the document before the call gives `doc`. */
  operations: WorkflowOperation[];
  /** Notes the call left on other nodes: edges a changed declaration of its tool removed. */
  elsewhere: { nodeId: string; note: NodeIssue }[];
}

/** The note for a reference that cannot be wired: what the model wrote and why it went. */
function getReferenceNote(name: string, raw: string, refusal: Issue): NodeIssue {
  return {
    severity: 'error',
    code: 'bad_reference',
    message: `Argument "${name}" refers to ${raw.trim()}, which cannot be wired: ${refusal.message} The reference was dropped; connect the input by hand or give it a value.`,
    param: name,
  };
}

function getEmbeddedNote(name: string): NodeIssue {
  return {
    severity: 'warning',
    code: 'embedded_reference',
    message: `Argument "${name}" holds a {{step.output}} reference inside a longer value, which is kept as text; only a whole-value reference becomes an edge. Connect the input with an edge instead.`,
    param: name,
  };
}

/** The args of a call, sorted by what the node does with them. */
function sortArgs(
  decl: ToolDeclaration | undefined,
  args: Record<string, unknown>,
  systemParams: readonly string[],
): { values: Record<string, unknown>; unknown: string[]; references: Set<string>; params: Set<string> } {
  const values = createRecord<unknown>();
  const unknown: string[] = [];
  const references = new Set<string>();
  // Args that are parameters: only they are wired, or warned about an embedded reference (an
  // unknown arg is dropped and a system parameter is the platform's, whatever they hold).
  const params = new Set<string>();
  for (const name of Object.keys(args)) {
    const kind = getArgKind(decl, name, systemParams);
    if (kind === 'param') params.add(name);
    if (kind === 'unknown') unknown.push(name);
    else if (kind === 'param' && parseReference(args[name])) references.add(name);
    else values[name] = args[name];
  }
  return { values, unknown, references, params };
}

/**
 * Wire the references of `args` into node `target` and note those that cannot be, in the
 * order of the args (an embedded reference gets its warning in the same pass).
 */
function wireReferences(
  doc: WorkflowDocument,
  target: string,
  args: Record<string, unknown>,
  { references, params }: { references: ReadonlySet<string>; params: ReadonlySet<string> },
): { doc: WorkflowDocument; edges: WorkflowEdge[]; notes: NodeIssue[] } {
  const edges: WorkflowEdge[] = [];
  const notes: NodeIssue[] = [];
  let next = doc;
  for (const name of Object.keys(args)) {
    if (!params.has(name)) continue;
    const value = args[name];
    const ref = references.has(name) ? parseReference(value) : undefined;
    if (!ref) {
      if (getReferences(value).length > 0) notes.push(getEmbeddedNote(name));
      continue;
    }
    const wired = connect(next, { source: ref.step, sourceOutput: ref.output, target, targetInput: name });
    if (wired.ok) {
      next = wired.value;
      edges.push(next.edges[next.edges.length - 1]);
    } else {
      notes.push(getReferenceNote(name, value as string, wired.error[0]));
    }
  }
  return { doc: next, edges, notes };
}

const toConnection = (e: WorkflowEdge): Connection => ({
  source: e.source,
  sourceOutput: e.sourceOutput,
  target: e.target,
  targetInput: e.targetInput,
});

/**
 * Add a call as a step: the node (its tool's declaration snapshotted, unknown args moved
 * aside), then an edge for each whole-value reference that `connect` accepts, and notes for
 * the rest. The caller makes sure `call.id` is free.
 */
export function addCall(doc: WorkflowDocument, call: ToolCall): CallResult {
  return inBatch(() => {
    const { next, placed, wired, sorted } = placeCall(doc, call);
    const id = asNodeId(call.id);
    const node = next.nodes[next.nodes.length - 1];
    const connected = getConnectedInputs(wired.edges).get(id);
    const step: AddedStep = {
      id,
      tool: typeof call.decl === 'string' ? call.decl : call.decl.name,
      args: node.args,
      unknownArgs: [...sorted.unknown],
      ...(call.rawArguments !== undefined ? { rawArguments: call.rawArguments } : {}),
      issues: getNodeParameters(next, node, connected).problems,
    };
    return {
      doc: next,
      step,
      edges: wired.edges,
      operations: [
        { op: 'add_step', step },
        ...wired.edges.map((edge) => ({ op: 'connect' as const, edge: toConnection(edge) })),
      ],
      elsewhere: getNotesAdded(doc, placed, id),
    };
  });
}

/**
 * The document `addCall` gives, without the account of what the call did (its step, problems
 * and operations): the CLI's `build` needs only the document.
 */
export function applyCall(doc: WorkflowDocument, call: ToolCall): WorkflowDocument {
  return inBatch(() => placeCall(doc, call).next);
}

/** The change a call makes: the node with its notes, then its references wired. */
function placeCall(doc: WorkflowDocument, call: ToolCall) {
  const decl = typeof call.decl === 'string' ? undefined : call.decl;
  const id = asNodeId(call.id);
  const sorted = sortArgs(decl, call.args, doc.systemParams ?? DEFAULT_SYSTEM_PARAMS);
  const placed = addNode(
    doc,
    call.decl,
    call.position ?? getGridPosition(doc.nodes.length),
    sorted.values,
    id,
    {
      unknownArgs: sorted.unknown,
      ...(call.rawArguments !== undefined ? { rawArguments: call.rawArguments } : {}),
      ...(call.notes ? { notes: [...call.notes] } : {}),
    },
  );
  // The call's own notes go on first, so that an input its reference wires loses them, as it
  // does when the operations are replayed (connect after add_step).
  const wired = wireReferences(placed, id, call.args, sorted);
  return { next: addNodeNotes(wired.doc, id, wired.notes), placed, wired, sorted };
}

/** Notes `after` has on nodes of `before` (other than `except`) that `before` did not. */
function getNotesAdded(
  before: WorkflowDocument,
  after: WorkflowDocument,
  except: string,
): { nodeId: string; note: NodeIssue }[] {
  // Only a changed declaration removes edges, and only then does a note go elsewhere.
  if (after.edges === before.edges) return [];
  const old = new Map(before.nodes.map((n) => [n.id as string, n.notes?.length ?? 0]));
  const added: { nodeId: string; note: NodeIssue }[] = [];
  for (const node of after.nodes) {
    if (node.id === except) continue;
    for (const note of (node.notes ?? []).slice(old.get(node.id) ?? 0)) added.push({ nodeId: node.id, note });
  }
  return added;
}

/** A change of an existing step's args, as a follow-up call makes it. */
export interface StepUpdate {
  stepId: string;
  /** Args to set, whole-value references included (they wire the input). */
  args: Record<string, unknown>;
  /** Args to clear back to their default or zero value. */
  unset?: readonly string[];
}

/** What an update did, for the person and the model. */
export interface UpdateResult {
  doc: WorkflowDocument;
  operations: WorkflowOperation[];
  /** Args set (references and unknown args not included). */
  updated: string[];
  edges: WorkflowEdge[];
  /** Unknown args (recorded on the node) and references that could not be wired (noted on it). */
  issues: NodeIssue[];
}

/**
 * Change a step's args by the rules of `addCall`: values are set, references wire the input
 * (or are noted on the node when they cannot), unknown args are recorded as such, `unset`
 * clears. Undefined when there is no such step.
 */
export function updateCall(doc: WorkflowDocument, update: StepUpdate): UpdateResult | undefined {
  const node = findNode(doc, update.stepId);
  if (!node) return undefined;
  const decl = getToolSnapshot(doc, node.tool)?.declaration;
  const sorted = sortArgs(decl, update.args, doc.systemParams ?? DEFAULT_SYSTEM_PARAMS);
  const changed: WorkflowOperation = {
    op: 'update_step',
    stepId: update.stepId,
    args: sorted.values,
    unset: [...(update.unset ?? [])],
    ...(sorted.unknown.length > 0 ? { unknownArgs: sorted.unknown } : {}),
  };
  const set = applyOperations(doc, [changed]);
  if (!set.ok) return undefined;
  const wired = wireReferences(set.value, node.id, update.args, sorted);
  if (wired.notes.length > 0) changed.notes = wired.notes;
  const operations: WorkflowOperation[] = [
    changed,
    ...wired.edges.map((edge) => ({ op: 'connect' as const, edge: toConnection(edge) })),
  ];
  // The document is the operations replayed, so the editor's replay gives it byte for byte
  // (notes replace older notes about their parameter before the edges are made).
  const next = applyOperations(doc, operations);
  if (!next.ok) return undefined;
  return {
    doc: next.value,
    operations,
    updated: Object.keys(sorted.values),
    edges: wired.edges,
    issues: [...sorted.unknown.map((name) => getUnknownArgIssue(name, node.tool)), ...wired.notes],
  };
}
