/**
 * The tools a model gets next to the real ones when it edits an existing workflow (a follow-up
 * prompt): change a step's arguments, remove a step, wire and unwire. Their calls become
 * PlanOperations, applied together as one undoable change.
 */
import type { ToolDeclaration } from '../tools/types';

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
