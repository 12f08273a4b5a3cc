/**
 * The planner's system prompt: the task, the full tool catalogue (names alone make a
 * model call nothing), the current workflow for a follow-up, and the wiring convention
 * `{{step_N.output}}`. Under the text protocol it also teaches the `<tool_call>` format.
 */
import { renderToolCatalogue } from '../tools/catalogue';
import type { ToolDeclaration } from '../tools/types';
import { getToolSnapshot } from '../workflow/graph';
import { getOutputParameters, setJsonMember } from '../workflow/params';
import type { WorkflowDocument } from '../workflow/types';
import type { ToolProtocol } from './types';

export interface SystemPromptInput {
  task: string;
  /** Every tool the model may call, the edit tools included. */
  tools: readonly ToolDeclaration[];
  protocol: ToolProtocol;
  /** Parameters the platform fills in; left out of the catalogue. */
  systemParams: readonly string[];
  /** The workflow being edited, for a follow-up. */
  document?: WorkflowDocument;
  /** The id the first new step will get. */
  nextStepId: string;
}

/** Build the system prompt (deterministic: same input, same text). */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const parts: string[] = [
    "You are Toolflow's workflow planner. You turn a task into a workflow: a graph of tool calls that a",
    'platform will run later. Every tool call you make becomes one step of the workflow. Nothing runs now:',
    'each call is answered with a placeholder result {"step_id": "step_N", "outputs": [...]} that names the',
    'step and the outputs later steps can use.',
    '',
    '# How to plan',
    '- Call the tools the task needs, in order. Calls that do not depend on each other may go in one turn.',
    `- Steps are numbered in call order; your next call becomes ${input.nextStepId}.`,
    "- To feed an earlier step's output into a parameter, set the parameter to exactly the string",
    '  "{{step_N.output}}" — for example "{{step_1.result}}". Use only outputs named in a tool result or in',
    '  the catalogue below ("Returns:"); a tool that declares no outputs has one output named "result".',
    '- Give every required parameter a value or a reference. Use only the parameters a tool declares, with',
    '  the declared types; leave out optional parameters whose default is right.',
  ];
  if (input.systemParams.length > 0) {
    parts.push(
      `- Never pass ${input.systemParams.map((p) => `"${p}"`).join(' or ')}: the platform fills those in itself.`,
    );
  }
  parts.push('- When the workflow is complete, reply with one short sentence and no tool calls.');
  if (input.document) {
    parts.push(
      '- This is an edit of the workflow below. Add steps with the real tools; change, remove or rewire',
      '  existing steps with update_step, remove_step, connect and disconnect. Change only what the task asks.',
    );
  } else {
    parts.push(
      '- To fix a step you already made (a wrong value, or arguments a tool result says were repaired), use',
      '  update_step, remove_step, connect or disconnect; do not call its tool again.',
    );
  }
  parts.push('', '# Task', input.task.trim());
  if (input.document) parts.push('', '# Current workflow', describeWorkflow(input.document));
  if (input.protocol === 'text') {
    parts.push(
      '',
      '# How to call a tool',
      'You cannot call tools natively here. To call a tool, write one block per call in your reply:',
      '<tool_call>{"name": "tool_name", "arguments": {"parameter": "value"}}</tool_call>',
      'The block holds one JSON object and nothing else. Several blocks may follow each other. The results',
      'come back in the next message as <tool_result> blocks, in the same order.',
    );
  }
  parts.push('', renderToolCatalogue(input.tools, { omitParams: input.systemParams }).trimEnd());
  return parts.join('\n') + '\n';
}

/** The workflow as the model should see it: each step with its arguments, wires and outputs. */
export function describeWorkflow(doc: WorkflowDocument): string {
  if (doc.nodes.length === 0) return '(empty: no steps yet)';
  const fed = new Map<string, string>();
  for (const e of doc.edges)
    fed.set(`${e.target}\u0000${e.targetInput}`, `{{${e.source}.${e.sourceOutput}}}`);
  return doc.nodes
    .map((node) => {
      const args: Record<string, unknown> = { ...node.args };
      for (const [key, reference] of fed) {
        const [target, input] = key.split('\u0000');
        if (target === node.id) setJsonMember(args, input, reference);
      }
      const decl = getToolSnapshot(doc, node.tool)?.declaration;
      const outputs = decl ? getOutputParameters(decl).map((o) => o.name) : ['result'];
      const label = node.label ? ` "${node.label}"` : '';
      return `- ${node.id}${label}: ${node.tool} ${JSON.stringify(args)} → outputs: ${outputs.join(', ')}`;
    })
    .join('\n');
}
