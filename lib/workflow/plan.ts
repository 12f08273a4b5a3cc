/**
 * Plan → workflow document (docs/design.md §4.1), the CLI's `build`: node ids are the step ids,
 * each step is a call made in order through the commands' call road (references become edges,
 * args the declaration lacks are moved aside, every used declaration is snapshotted), then the
 * explicit edges are connected.
 */
import { isJsonObject } from '../tools/json-schema';
import type { ToolDeclaration } from '../tools/types';
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import { applyCall, connect } from './commands';
import { findNode, getToolSnapshot, inBatch } from './graph';
import { getGridPosition } from './references';
import type { Plan, WorkflowDocument } from './types';

export { getGridPosition, getReferences, parseReference, type StepReference } from './references';

/** How a plan is turned into a document. */
export interface PlanBuildOptions {
  /** Platform parameters to skip (stored on the document); DEFAULT_SYSTEM_PARAMS when omitted. */
  systemParams?: readonly string[];
  /** Nodes per row of the initial grid (auto-layout comes later). */
  columns?: number;
}

/**
 * Read untrusted JSON as a Plan, reporting every shape problem with its JSON path
 * (`/steps/2/args`). Missing `edges` and `args` are read as empty.
 */
export function parsePlan(json: unknown): Result<Plan> {
  const issues: Issue[] = [];
  if (!isJsonObject(json)) {
    return err([
      { path: '', code: 'bad_plan', message: 'A plan must be a JSON object with a "steps" array.' },
    ]);
  }
  if (json.task !== undefined && typeof json.task !== 'string') {
    issues.push({ path: '/task', code: 'bad_plan', message: '"task" must be a string (the task in words).' });
  }
  if (!Array.isArray(json.steps)) {
    issues.push({
      path: '/steps',
      code: 'bad_plan',
      message: '"steps" must be an array of {id, tool, args}.',
    });
  }
  const steps: Plan['steps'] = [];
  (Array.isArray(json.steps) ? json.steps : []).forEach((step: unknown, i) => {
    const at = joinPointer('/steps', i);
    if (!isJsonObject(step)) {
      issues.push({ path: at, code: 'bad_plan', message: 'Each step must be an object {id, tool, args}.' });
      return;
    }
    if (typeof step.id !== 'string' || step.id === '') {
      issues.push({
        path: at + '/id',
        code: 'bad_plan',
        message: 'A step needs a non-empty string "id" (e.g. "step_1").',
      });
    }
    if (typeof step.tool !== 'string' || step.tool === '') {
      issues.push({
        path: at + '/tool',
        code: 'bad_plan',
        message: 'A step needs the "tool" name it calls.',
      });
    }
    if (step.args !== undefined && !isJsonObject(step.args)) {
      issues.push({
        path: at + '/args',
        code: 'bad_plan',
        message: '"args" must be an object of argument name → value.',
      });
    }
    steps.push({
      id: String(step.id),
      tool: String(step.tool),
      args: isJsonObject(step.args) ? step.args : {},
    });
  });
  const edges: NonNullable<Plan['edges']> = [];
  if (json.edges !== undefined && !Array.isArray(json.edges)) {
    issues.push({
      path: '/edges',
      code: 'bad_plan',
      message: '"edges" must be an array of {source, source_output, target, target_input}.',
    });
  }
  (Array.isArray(json.edges) ? json.edges : []).forEach((edge: unknown, i) => {
    const at = joinPointer('/edges', i);
    if (!isJsonObject(edge)) {
      issues.push({
        path: at,
        code: 'bad_plan',
        message: 'Each edge must be an object {source, source_output, target, target_input}.',
      });
      return;
    }
    for (const key of ['source', 'source_output', 'target', 'target_input'] as const) {
      if (typeof edge[key] !== 'string' || edge[key] === '') {
        issues.push({
          path: `${at}/${key}`,
          code: 'bad_plan',
          message: `An edge needs a non-empty string "${key}".`,
        });
      }
    }
    edges.push({
      source: String(edge.source),
      source_output: String(edge.source_output),
      target: String(edge.target),
      target_input: String(edge.target_input),
    });
  });
  if (issues.length > 0) return err(issues);
  return ok({ ...(typeof json.task === 'string' ? { task: json.task } : {}), steps, edges });
}

/** Plan edge field names, for the paths of the issues `connect` gives. */
const EDGE_FIELDS: Record<string, string> = {
  '/source': '/source',
  '/target': '/target',
  '/sourceOutput': '/source_output',
  '/targetInput': '/target_input',
};

/**
 * Build a workflow document from a plan and the tool declarations: `applyPlan` on an empty
 * document for the plan's task (with `systemParams` stored when given).
 */
export function createDocumentFromPlan(
  plan: Plan,
  tools: readonly ToolDeclaration[],
  opts: PlanBuildOptions = {},
): Result<WorkflowDocument> {
  const empty: WorkflowDocument = {
    task: plan.task ?? '',
    nodes: [],
    edges: [],
    tools: {},
    ...(opts.systemParams ? { systemParams: [...opts.systemParams] } : {}),
  };
  return applyPlan(empty, plan, tools, opts.columns);
}

/**
 * Apply a plan to a document. A plan is a list of calls made in order: each step goes through
 * the call road (`applyCall`: the document `addCall` gives, as if a model had made the call;
 * a tool neither `tools` nor the document declares becomes an undeclared node that keeps its
 * args), so a reference must point
 * to an earlier step, and a problem of one step (a reference that cannot be wired, an unknown
 * arg) becomes a note on its node while the rest still builds. Then the plan's explicit edges
 * are connected. Structural problems (a step id already used, an explicit edge `connect`
 * refuses) fail with JSON paths into the plan.
 */
export function applyPlan(
  base: WorkflowDocument,
  plan: Plan,
  tools: readonly ToolDeclaration[],
  columns?: number,
): Result<WorkflowDocument> {
  // One batch: the calls grow the document's arrays in place, so n steps take linear time.
  return inBatch(() => applySteps(base, plan, tools, columns));
}

function applySteps(
  base: WorkflowDocument,
  plan: Plan,
  tools: readonly ToolDeclaration[],
  columns?: number,
): Result<WorkflowDocument> {
  const issues: Issue[] = [];
  const toolsByName = new Map<string, ToolDeclaration>();
  for (const decl of tools) if (!toolsByName.has(decl.name)) toolsByName.set(decl.name, decl);
  let doc = base;
  const indexById = new Map<string, number>();
  plan.steps.forEach((step, i) => {
    const earlier = indexById.get(step.id);
    if (earlier !== undefined || findNode(base, step.id)) {
      issues.push({
        path: joinPointer('/steps', i, 'id'),
        code: 'duplicate_id',
        message:
          earlier !== undefined
            ? `Step id "${step.id}" is already used by step ${earlier + 1}; give each step its own id.`
            : `Step id "${step.id}" is already a step of the workflow; give each step its own id.`,
      });
      return;
    }
    indexById.set(step.id, i);
    doc = applyCall(doc, {
      id: step.id,
      decl: toolsByName.get(step.tool) ?? getToolSnapshot(doc, step.tool)?.declaration ?? step.tool,
      args: step.args ?? {},
      position: getGridPosition(doc.nodes.length, columns),
    });
  });

  (plan.edges ?? []).forEach((edge, i) => {
    const at = joinPointer('/edges', i);
    const missing = (['source', 'target'] as const).filter((end) => !findNode(doc, edge[end]));
    for (const end of missing) {
      issues.push({
        path: `${at}/${end}`,
        code: 'unknown_step',
        message: `No step has id "${edge[end]}"; use one of the step ids.`,
      });
    }
    if (missing.length > 0) return;
    const connected = connect(doc, {
      source: edge.source,
      sourceOutput: edge.source_output,
      target: edge.target,
      targetInput: edge.target_input,
    });
    if (connected.ok) doc = connected.value;
    else
      for (const issue of connected.error)
        issues.push({
          ...issue,
          path: at + (EDGE_FIELDS[issue.path] ?? ''),
          message: `This edge is refused: ${issue.message} Change or remove it in "edges".`,
        });
  });

  return issues.length > 0 ? err(issues) : ok(doc);
}
