/**
 * `toolflow plan "<task>" --tools FILE`: plan a workflow with the offline planner or an
 * OpenAI-compatible model and print the v1 export JSON on stdout. stderr says which planner ran,
 * each step as it appears, and why planning stopped.
 */
import { allowServerOnlyImports } from '../../lib/server-context';
import { runPlanner } from '../../lib/planner/loop';
import { createPlannedDocument } from '../../lib/planner/operations';
import { describePlanOutcome, getPlanOutcome, listMissingValues } from '../../lib/planner/outcome';
import { countOf } from '../../lib/plural';
import type { PlanEvent, StopReason } from '../../lib/planner/types';
import { exportWorkflow, formatExportFile } from '../../lib/workflow/export';
import {
  getContentId,
  getListOption,
  parseCommandArgs,
  printIssues,
  readToolsFile,
  UsageError,
  type CliCommand,
} from '../io';

const usage = `Usage: toolflow plan "<task>" --tools FILE [options]

Plan a workflow for a task described in words and print its export JSON (format
toolflow.workflow, version 1) on stdout. stderr says which planner ran, each step and why
planning stopped.

  --tools FILE           tool declarations (MCP tools/list, OpenAI, Gemini, Anthropic or bare list)
  --llm auto|offline|openai
                         auto (default): OpenAI when OPENAI_API_KEY is set, else the offline planner
  --max-iterations N     model turns before stopping (default 8)
  --system-params a,b    parameters the platform injects (default: executor,storage; "" for none)
  --name NAME            workflow name (default: the task)
  --id ID                workflow id (default: derived from the tools and the task)

The OpenAI planner reads OPENAI_API_KEY, OPENAI_BASE_URL, TOOLFLOW_MODEL, TOOLFLOW_LLM_API
(chat | responses | text), TOOLFLOW_LLM_TIMEOUT_MS and TOOLFLOW_LLM_MAX_RETRIES.
`;

const STOPS: Record<StopReason, string> = {
  no_tool_calls: 'the planner made no more tool calls',
  max_iterations: 'the turn limit was reached',
  cancelled: 'cancelled',
  error: 'an error ended the run',
};

export const command: CliCommand = {
  summary: 'task in words → workflow export JSON (offline planner or an OpenAI-compatible model)',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        tools: { type: 'string' },
        llm: { type: 'string' },
        'max-iterations': { type: 'string' },
        'system-params': { type: 'string' },
        name: { type: 'string' },
        id: { type: 'string' },
      },
      true,
    );
    const task = positionals.join(' ').trim();
    if (task === '') throw new UsageError('the task is missing: toolflow plan "<task>" --tools FILE.');
    if (!values.tools) throw new UsageError('--tools FILE is required.');
    const preference = values.llm ?? 'auto';
    if (preference !== 'auto' && preference !== 'offline' && preference !== 'openai') {
      throw new UsageError(`--llm must be auto, offline or openai (got "${preference}").`);
    }
    const maxIterations =
      values['max-iterations'] === undefined ? undefined : Number(values['max-iterations']);
    if (maxIterations !== undefined && (!Number.isInteger(maxIterations) || maxIterations < 1)) {
      throw new UsageError(
        `--max-iterations must be a whole number ≥ 1 (got "${values['max-iterations']}").`,
      );
    }

    const tools = await readToolsFile(io, values.tools);
    if (!tools.ok) return 1;

    // The CLI is a server process: let lib/llm's `server-only` modules load under plain Node.
    allowServerOnlyImports();
    const { createPlannerFromEnv } = await import('../../lib/llm/env');
    const choice = createPlannerFromEnv(process.env, preference);
    if (!choice.ok) {
      io.stderr(`toolflow plan: ${choice.error}\n`);
      return 1;
    }
    io.stderr(`toolflow plan: planner ${choice.value.description}\n`);

    const systemParams = getListOption(values['system-params']);
    const controller = new AbortController();
    const onInterrupt = () => controller.abort();
    process.once('SIGINT', onInterrupt);
    let done: Extract<PlanEvent, { type: 'done' }> | undefined;
    try {
      const events = runPlanner(
        { task, tools: tools.tools, ...(systemParams ? { systemParams } : {}) },
        choice.value.port,
        {
          signal: controller.signal,
          ...(maxIterations !== undefined ? { maxIterations } : {}),
        },
      );
      for await (const event of events) {
        const line = describeEvent(event);
        if (line) io.stderr(line);
        if (event.type === 'done') done = event;
      }
    } finally {
      process.off('SIGINT', onInterrupt);
    }
    if (!done) return 1;

    const doc = createPlannedDocument(task, done.operations, tools.tools, systemParams);
    if (!doc.ok) {
      printIssues(io, 'plan', doc.error);
      return 1;
    }
    const id = values.id ?? getContentId(tools.text, task);
    const name = values.name ?? (task.length > 80 ? `${task.slice(0, 79)}…` : task);
    io.stdout(formatExportFile(exportWorkflow(doc.value, { id, name })));

    const counts = `${countOf(done.iterations, 'turn')} with ${countOf(done.steps.length, 'step')} and ${countOf(done.edges.length, 'edge')}`;
    const failed = done.stopReason === 'error' || done.stopReason === 'cancelled';
    const outcome = getPlanOutcome(done);
    // A run that ended early says why; a finished one says whether anything is left to fill in.
    let summary = '.';
    if (!failed && outcome.kind === 'nothing') summary = `: ${describePlanOutcome(outcome)}`;
    else if (!failed && outcome.kind === 'values_left')
      summary = `: ${describePlanOutcome(outcome)} (${listMissingValues(outcome.values)}).`;
    else if (!failed && outcome.kind === 'complete') summary = `: ${describePlanOutcome(outcome)}.`;
    // The reason a run ended early (an error, the turn limit) follows; a nothing's is its reason.
    if (done.message && outcome.kind !== 'nothing') summary += ` ${done.message}`;
    io.stderr(
      `toolflow plan: stopped (${done.stopReason}: ${STOPS[done.stopReason]}) after ${counts}${summary}\n`,
    );
    if (failed) return 1;
    if (outcome.kind === 'nothing') {
      io.stderr('toolflow plan: the export above has no steps.\n');
      return 1;
    }
    return 0;
  },
};

/** One stderr line per event worth a person's attention (none for progress chatter). */
function describeEvent(event: PlanEvent): string | undefined {
  switch (event.type) {
    case 'step': {
      const problems = event.step.issues.map((i) => `\n    ${i.severity}: ${i.message}`).join('');
      return `  ${event.step.id}  ${event.step.tool}${problems}\n`;
    }
    case 'edge':
      return `  edge  ${event.edge.source}.${event.edge.sourceOutput} → ${event.edge.target}.${event.edge.targetInput}\n`;
    case 'operation':
      return `  edit  ${event.operation.op}\n`;
    case 'warning':
      return `  warning: ${event.message}\n`;
    case 'error':
      return `  error: ${event.message}\n`;
    default:
      return undefined;
  }
}
