/**
 * The edit tools a model gets next to the real ones in every run: change a step's arguments,
 * remove a step, wire and unwire — a follow-up prompt edits the workflow with them, and a model
 * fixes a step it made (a repaired or wrong value) without calling the tool again. Their calls
 * are applied through the commands and recorded as operations.
 */
import type { ToolDeclaration } from '../tools/types';
import {
  connect,
  findEdge,
  removeNodes,
  updateCall,
  disconnect,
  type Connection,
} from '../workflow/commands';
import { parseToolArguments } from './arguments';
import { listSteps, rejectCall, type CallOutcome, type RunState } from './run-state';
import type { PlanEvent, PlanOperation } from './types';

export const EDIT_TOOL_NAMES = ['update_step', 'remove_step', 'connect', 'disconnect'] as const;
export type EditToolName = (typeof EDIT_TOOL_NAMES)[number];

const EDGE_PROPERTIES = {
  source: { type: 'string', description: 'Id of the step whose output is used, e.g. "step_1"' },
  source_output: { type: 'string', description: 'Name of that step\'s output, e.g. "result"' },
  target: { type: 'string', description: 'Id of the step that receives the value' },
  target_input: { type: 'string', description: 'Name of the receiving parameter' },
};

/** Declarations of the edit tools (builtin source, so the catalogue says where they come from). */
export const EDIT_TOOLS: readonly ToolDeclaration[] = [
  {
    name: 'update_step',
    description:
      'Change the arguments of an existing step. Arguments given are set (a value may be a whole "{{step_N.output}}" reference, which wires that input); names listed in "unset" are cleared back to their default.',
    inputSchema: {
      type: 'object',
      required: ['step_id', 'args'],
      properties: {
        step_id: { type: 'string', description: 'Id of the step to change, e.g. "step_2"' },
        args: { type: 'object', description: 'Arguments to set: parameter name → new value' },
        unset: {
          type: 'array',
          items: { type: 'string' },
          description: 'Parameter names to clear',
          default: [],
        },
      },
    },
    source: { kind: 'builtin', toolkit: 'toolflow' },
  },
  {
    name: 'remove_step',
    description: 'Remove a step from the workflow, with every edge into or out of it.',
    inputSchema: {
      type: 'object',
      required: ['step_id'],
      properties: { step_id: { type: 'string', description: 'Id of the step to remove' } },
    },
    source: { kind: 'builtin', toolkit: 'toolflow' },
  },
  {
    name: 'connect',
    description: "Wire one step's output into another step's input (the input's value becomes the output).",
    inputSchema: { type: 'object', required: Object.keys(EDGE_PROPERTIES), properties: EDGE_PROPERTIES },
    source: { kind: 'builtin', toolkit: 'toolflow' },
  },
  {
    name: 'disconnect',
    description: "Remove the wire from one step's output to another step's input.",
    inputSchema: { type: 'object', required: Object.keys(EDGE_PROPERTIES), properties: EDGE_PROPERTIES },
    source: { kind: 'builtin', toolkit: 'toolflow' },
  },
];

/** True for the name of an edit tool. */
export function isEditToolName(name: string): name is EditToolName {
  return (EDIT_TOOL_NAMES as readonly string[]).includes(name);
}

/** Answer a call of an edit tool. */
export function answerEdit(state: RunState, name: EditToolName, rawArguments: string): CallOutcome {
  const parsed = parseToolArguments(rawArguments);
  if (!parsed.ok) {
    return rejectCall(
      `The arguments of ${name} are ${parsed.error}; nothing was changed. Send a JSON object.`,
      'bad_json',
    );
  }
  const args = parsed.value;
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string).trim() : '');
  switch (name) {
    case 'update_step':
      return updateStep(state, text('step_id'), args.args, args.unset);
    case 'remove_step':
      return removeStep(state, text('step_id'));
    case 'connect':
    case 'disconnect': {
      // The model speaks the file format's snake_case; the document's edges are camelCase.
      const edge: Connection = {
        source: text('source'),
        sourceOutput: text('source_output'),
        target: text('target'),
        targetInput: text('target_input'),
      };
      const missing = ['source', 'source_output', 'target', 'target_input'].filter((k) => text(k) === '');
      if (missing.length > 0) {
        return rejectCall(
          `${name} needs ${missing.map((m) => `"${m}"`).join(', ')}; nothing was changed.`,
          'bad_arguments',
        );
      }
      return name === 'connect' ? connectSteps(state, edge) : disconnectSteps(state, edge);
    }
  }
}

function noSuchStep(state: RunState, id: string, what: string): CallOutcome {
  return rejectCall(`${what}: there is no step "${id}". Steps: ${listSteps(state)}.`, 'unknown_step');
}

function record(state: RunState, operations: readonly PlanOperation[]): void {
  state.operations.push(...operations);
  for (const op of operations) {
    if (op.op === 'connect') {
      const edge = findEdge(state.doc, op.edge);
      if (edge) state.newEdges.add(edge.id);
    }
  }
}

function updateStep(state: RunState, stepId: string, rawArgs: unknown, rawUnset: unknown): CallOutcome {
  if (!state.doc.nodes.some((n) => n.id === stepId)) {
    return noSuchStep(state, stepId, 'update_step changed nothing');
  }
  if (rawArgs !== undefined && (typeof rawArgs !== 'object' || rawArgs === null || Array.isArray(rawArgs))) {
    return rejectCall(
      'update_step needs "args" as an object of parameter name → value; nothing was changed.',
      'bad_arguments',
      stepId,
    );
  }
  const unset = Array.isArray(rawUnset) ? rawUnset.filter((u): u is string => typeof u === 'string') : [];
  const updated = updateCall(state.doc, {
    stepId,
    args: (rawArgs ?? {}) as Record<string, unknown>,
    unset,
  });
  if (!updated) return noSuchStep(state, stepId, 'update_step changed nothing');
  state.doc = updated.doc;
  record(state, updated.operations);
  const events: PlanEvent[] = [{ type: 'operation', operation: updated.operations[0] }];
  for (const edge of updated.edges) events.push({ type: 'edge', edge });
  for (const issue of updated.issues) {
    events.push(
      issue.severity === 'error'
        ? { type: 'error', message: issue.message, stepId, code: issue.code }
        : { type: 'warning', message: issue.message, stepId },
    );
  }
  const problems = updated.issues.map((i) => i.message);
  return {
    events,
    result: {
      step_id: stepId,
      updated: updated.updated,
      unset,
      connected: updated.edges.map((e) => e.targetInput),
      ...(problems.length > 0 ? { problems } : {}),
    },
  };
}

function removeStep(state: RunState, stepId: string): CallOutcome {
  if (!state.doc.nodes.some((n) => n.id === stepId)) {
    return noSuchStep(state, stepId, 'remove_step removed nothing');
  }
  const before = state.doc.edges.length;
  state.doc = removeNodes(state.doc, [stepId]);
  const operation: PlanOperation = { op: 'remove_step', stepId };
  record(state, [operation]);
  return {
    events: [{ type: 'operation', operation }],
    result: { removed: stepId, edges_removed: before - state.doc.edges.length },
  };
}

const describeEdge = (e: Connection) => `${e.source}.${e.sourceOutput} -> ${e.target}.${e.targetInput}`;

function connectSteps(state: RunState, edge: Connection): CallOutcome {
  const result = connect(state.doc, edge);
  if (!result.ok) {
    const issue = result.error[0];
    if (issue.code === 'unknown_node')
      return noSuchStep(
        state,
        issue.path === '/source' ? edge.source : edge.target,
        'connect changed nothing',
      );
    return rejectCall(`connect changed nothing: ${issue.message}`, issue.code ?? 'bad_edge', edge.target);
  }
  state.doc = result.value;
  const operation: PlanOperation = { op: 'connect', edge };
  record(state, [operation]);
  return {
    events: [{ type: 'edge', edge: state.doc.edges[state.doc.edges.length - 1] }],
    result: { connected: describeEdge(edge) },
  };
}

function disconnectSteps(state: RunState, edge: Connection): CallOutcome {
  const found = findEdge(state.doc, edge);
  if (!found) {
    return rejectCall(
      `disconnect changed nothing: there is no edge ${describeEdge(edge)}.`,
      'unknown_edge',
      edge.target,
    );
  }
  state.doc = disconnect(state.doc, found.id);
  const operation: PlanOperation = { op: 'disconnect', edge };
  record(state, [operation]);
  return {
    events: [{ type: 'operation', operation }],
    result: { disconnected: describeEdge(edge) },
  };
}
