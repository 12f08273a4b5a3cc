/**
 * Answering one tool call of a planning run: an unknown tool is rejected, an edit tool is
 * handed to edit-tools.ts, and a real tool's call is read (arguments repaired when they are
 * not valid JSON, and the model told so) and added as a step through the call road of the
 * commands. The answer is the synthetic result the model reads, `{step_id, outputs}`, with the
 * problems it should know about.
 */
import type { ToolDeclaration } from '../tools/types';
import { addCall } from '../workflow/commands';
import { getOutputPorts } from '../workflow/graph';
import type { NodeIssue } from '../workflow/types';
import { parseToolArguments, type ArgumentCut } from './arguments';
import { answerEdit, EDIT_TOOLS, isEditToolName } from './edit-tools';
import { rejectCall, takeNextId, type CallOutcome, type RunState } from './run-state';
import type { PlanEvent } from './types';

/** Steps per run; a model that keeps calling is stopped long before it floods the canvas. */
export const MAX_STEPS_PER_RUN = 200;
const MAX_LISTED_TOOLS = 30;

/**
 * Answer one call: reject it (unknown tool, too many steps), apply an edit tool, or add a step.
 * `blockRepairs` and `blockCut` say what reading a text-protocol block repaired.
 */
export function answerCall(
  state: RunState,
  name: string,
  rawArguments: string,
  blockRepairs: string[] = [],
  blockCut?: ArgumentCut,
): CallOutcome {
  const decl = state.callable.get(name);
  if (!decl) {
    const available = [...state.callable.keys()];
    // Enough names to correct a typo without flooding the log with a 2000-tool toolkit.
    const listed = available.slice(0, MAX_LISTED_TOOLS).join(', ');
    const more =
      available.length > MAX_LISTED_TOOLS
        ? ` and ${available.length - MAX_LISTED_TOOLS} more (see the catalogue)`
        : '';
    return rejectCall(
      `The model called "${name}", which is not an available tool; the call was rejected. Available tools: ${listed || '(none)'}${more}.`,
      'unknown_tool',
    );
  }
  if (isEditToolName(name) && EDIT_TOOLS.includes(decl)) return answerEdit(state, name, rawArguments);
  if (state.steps.length >= MAX_STEPS_PER_RUN) {
    return rejectCall(
      `The plan already has ${MAX_STEPS_PER_RUN} new steps, the most one run may add; the call to "${name}" was rejected. Split the task into smaller prompts.`,
      'too_many_steps',
    );
  }
  return addStep(state, decl, readArguments(rawArguments, blockRepairs, blockCut));
}

/** What the model's argument text gave: the args, notes for the node, and what was repaired. */
interface ReadArguments {
  args: Record<string, unknown>;
  issues: NodeIssue[];
  raw?: string;
  /** Set when the text was not valid JSON and was repaired; told to the model in the result. */
  repaired?: { how: string[]; truncated: string[]; leftOut: string[] };
}

function readArguments(rawArguments: string, blockRepairs: string[], blockCut?: ArgumentCut): ReadArguments {
  const parsed = parseToolArguments(rawArguments);
  if (!parsed.ok) {
    return {
      args: {},
      raw: rawArguments,
      issues: [
        {
          severity: 'error',
          code: 'bad_json',
          message: `The model's arguments are ${parsed.error}; the step was added without arguments and the raw text is kept. Fill the parameters in the inspector.`,
        },
      ],
    };
  }
  const how = [...blockRepairs, ...parsed.repairs];
  if (how.length === 0) return { args: parsed.value, issues: [] };
  const cut = parsed.cut ?? blockCut;
  const issues: NodeIssue[] = [
    {
      severity: 'warning',
      code: 'repaired_arguments',
      message: `The model's arguments were not valid JSON and were repaired (${how.join('; ')}); check the values.`,
    },
  ];
  const truncated: string[] = [];
  const leftOut: string[] = [];
  const name = cut ? String(cut.path[0]) : undefined;
  if (cut && name !== undefined) {
    if (cut.kind === 'missing' && cut.path.length === 1) {
      leftOut.push(name);
      issues.push({
        severity: 'warning',
        code: 'possibly_truncated',
        message: `The model's reply was cut off after argument "${name}", before its value, so the argument was left out. Set it, or plan the step again.`,
        param: name,
      });
    } else if (name in parsed.value) {
      truncated.push(name);
      const at = cut.path.length > 1 ? ` (at ${cut.path.map((p) => `/${p}`).join('')})` : '';
      issues.push({
        severity: 'warning',
        code: 'possibly_truncated',
        message: `The model's reply was cut off inside argument "${name}"${at}, so its value may be incomplete: check it before running the workflow.`,
        param: name,
      });
    }
  }
  return { args: parsed.value, raw: rawArguments, issues, repaired: { how, truncated, leftOut } };
}

/** What the model reads about repaired arguments, so it can fix the step instead of calling again. */
function describeRepair(stepId: string, read: ReadArguments): Record<string, unknown> {
  if (!read.repaired) return {};
  const { how, truncated, leftOut } = read.repaired;
  return {
    repaired: {
      how,
      arguments: Object.keys(read.args),
      ...(truncated.length > 0 ? { possibly_truncated: truncated } : {}),
      ...(leftOut.length > 0 ? { left_out: leftOut } : {}),
    },
    repair_note: `Your arguments were not valid JSON and were repaired (${how.join('; ')}). Check the values above; to fix one, call update_step with step_id "${stepId}" instead of calling the tool again.`,
  };
}

/** Add the call as a step through the commands; stream it, its edges and what it changed. */
function addStep(state: RunState, decl: ToolDeclaration, read: ReadArguments): CallOutcome {
  const id = takeNextId(state);
  const added = addCall(state.doc, {
    id,
    decl,
    args: read.args,
    notes: read.issues,
    ...(read.raw !== undefined ? { rawArguments: read.raw } : {}),
  });
  state.doc = added.doc;
  state.steps.push(added.step);
  state.operations.push(...added.operations);
  for (const edge of added.edges) state.newEdges.add(edge.id);
  const events: PlanEvent[] = added.elsewhere.map(({ nodeId, note }) => ({
    type: 'warning',
    message: note.message,
    stepId: nodeId,
  }));
  events.push({ type: 'step', step: added.step });
  for (const edge of added.edges) events.push({ type: 'edge', edge });
  const problems = added.step.issues.filter((i) => i.severity === 'error').map((i) => i.message);
  const node = state.doc.nodes[state.doc.nodes.length - 1];
  return {
    events,
    result: {
      step_id: id,
      outputs: getOutputPorts(state.doc, node).map((o) => o.name),
      ...describeRepair(id, read),
      ...(problems.length > 0
        ? {
            problems,
            note: 'The step was kept as it is; the person will fix these problems. Do not repeat the call.',
          }
        : {}),
    },
  };
}
