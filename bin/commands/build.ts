/** `toolflow build`: tool declarations + a plan → the v1 workflow export on stdout (no model). */
import { basename, extname } from 'node:path';
import { parseJsonText } from '../../lib/tools/json-text';
import { countOf } from '../../lib/plural';
import { exportWorkflow, formatExportFile } from '../../lib/workflow/export';
import { createDocumentFromPlan, parsePlan } from '../../lib/workflow/plan';
import {
  getContentId,
  getListOption,
  parseCommandArgs,
  printIssues,
  readInputFile,
  readToolsFile,
  UsageError,
  type CliCommand,
} from '../io';

const usage = `Usage: toolflow build --tools FILE --plan FILE [options]

Build a workflow from tool declarations and a plan, and print its export JSON (format
toolflow.workflow, version 1) on stdout.

  --tools FILE           tool declarations (MCP tools/list, OpenAI, Gemini, Anthropic or bare list)
  --plan FILE            {task, steps:[{id, tool, args}], edges:[…]}; steps are calls made in order:
                         an arg "{{step_1.result}}" wires an earlier step's output to that input
  --system-params a,b    parameters the platform injects (default: executor,storage; "" for none)
  --name NAME            workflow name (default: the plan's task, else the plan file name)
  --id ID                workflow id (default: derived from the two files' content)

Exit 0 with the export on stdout (node problems such as missing values are counted on stderr
and listed in the export); exit 1 with one "FILE /json/path: message" line per problem when
the input is bad: unreadable files, a plan that is not valid, a step whose tool the
declarations lack, an edge that does not fit.
`;

export const command: CliCommand = {
  summary: 'tools + plan → workflow export JSON (no model needed)',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      tools: { type: 'string' },
      plan: { type: 'string' },
      'system-params': { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
    });
    if (!values.tools || !values.plan)
      throw new UsageError('both --tools FILE and --plan FILE are required.');

    const tools = await readToolsFile(io, values.tools);
    const planText = await readInputFile(io, values.plan, '--plan file');
    if (!tools.ok || !planText.ok) return 1;

    const planJson = parseJsonText(planText.text);
    const plan = planJson.ok ? parsePlan(planJson.value) : planJson;
    if (!plan.ok) {
      printIssues(io, values.plan, plan.error);
      return 1;
    }
    // A step calling a tool the declarations lack cannot become a real step: bad input (exit 1),
    // named by its path, rather than an export whose node only says "not declared".
    const declared = new Set(tools.tools.map((t) => t.name));
    const unknown = plan.value.steps.flatMap((step, i) =>
      declared.has(step.tool)
        ? []
        : [
            {
              path: `/steps/${i}/tool`,
              message: `Tool "${step.tool}" is not declared in ${values.tools}: add its declaration there, or fix the name.`,
            },
          ],
    );
    if (unknown.length > 0) {
      printIssues(io, values.plan, unknown);
      return 1;
    }
    const built = createDocumentFromPlan(plan.value, tools.tools, {
      systemParams: getListOption(values['system-params']),
    });
    if (!built.ok) {
      printIssues(io, values.plan, built.error);
      return 1;
    }

    const id = values.id ?? getContentId(tools.text, planText.text);
    const name = values.name ?? (plan.value.task?.trim() || basename(values.plan, extname(values.plan)));
    const exported = exportWorkflow(built.value, { id, name });
    io.stdout(formatExportFile(exported));

    // Node problems are part of the export; a one-line count keeps them from going unnoticed.
    const problems = exported.nodes.flatMap((n) => n.problems.map((p) => ({ node: n.id, ...p })));
    const errors = problems.filter((p) => p.severity === 'error').length;
    if (problems.length > 0) {
      io.stderr(
        `toolflow build: ${countOf(errors, 'error')} and ${countOf(problems.length - errors, 'warning')} on nodes; see "problems" in the export.\n`,
      );
    }
    return 0;
  },
};
