/**
 * Plan → workflow document (DESIGN §2 "Plan"): node ids are the step ids, reference strings
 * `"{{step_2.result}}"` in args become edges, explicit plan edges are checked and added, args the
 * declaration lacks are moved aside, and every used declaration is snapshotted with its hash.
 */
import { hashDeclaration } from '../tools/canonical-json';
import { isJsonObject } from '../tools/json-schema';
import { DEFAULT_SYSTEM_PARAMS, type ToolDeclaration } from '../tools/types';
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import { createEdgeId, getInputPorts, getOutputPorts, hasPath, isTypeCompatible } from './graph';
import { getParamPlan, setJsonMember } from './params';
import {
  asNodeId,
  type NodeIssue,
  type Plan,
  type ToolSnapshot,
  type WorkflowDocument,
  type WorkflowEdge,
  type WorkflowNode,
  type XY,
} from './types';

/** A `{{<step id>.<output>}}` reference to another step's output. */
export interface StepReference {
  step: string;
  output: string;
}

const WHOLE_REFERENCE = /^\s*\{\{\s*([^{}\s.]+)\.([^{}\s]+?)\s*\}\}\s*$/;
const ANY_REFERENCE = /\{\{\s*([^{}\s.]+)\.([^{}\s]+?)\s*\}\}/g;

/** The reference a value is, when the whole value is one `{{step.output}}` string. */
export function parseReference(value: unknown): StepReference | undefined {
  if (typeof value !== 'string' || value.length < 7) return undefined;
  const match = WHOLE_REFERENCE.exec(value);
  return match ? { step: match[1], output: match[2] } : undefined;
}

/**
 * Every `{{step.output}}` reference anywhere in a JSON value (inside longer strings, arrays and
 * objects too), in reading order. Only a whole-value reference becomes an edge; the others are
 * worth a warning.
 */
export function getReferences(value: unknown): StepReference[] {
  const found: StepReference[] = [];
  collectReferences(value, found);
  return found;
}

function collectReferences(value: unknown, into: StepReference[]): void {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return;
    for (const match of value.matchAll(ANY_REFERENCE)) into.push({ step: match[1], output: match[2] });
  } else if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, into);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) collectReferences(value[key], into);
  }
}

/** How a plan is turned into a document. */
export interface PlanBuildOptions {
  /** Platform parameters to skip (stored on the document); DEFAULT_SYSTEM_PARAMS when omitted. */
  systemParams?: readonly string[];
  /** Nodes per row of the initial grid (auto-layout comes later). */
  columns?: number;
}

const GRID_X = 320;
const GRID_Y = 240;

/** Where the i-th node sits before layout: a left-to-right, top-to-bottom grid. */
export function getGridPosition(index: number, columns = 4): XY {
  return { x: (index % columns) * GRID_X, y: Math.floor(index / columns) * GRID_Y };
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

interface PendingReference {
  target: number;
  input: string;
  ref: StepReference;
  raw: string;
}

/**
 * Build a workflow document from a plan and the tool declarations. Structural problems (two
 * steps with one id, an explicit edge to a step or port that does not exist, a second edge into
 * one input, a cycle) fail with JSON paths into the plan; problems of one step (a reference to a
 * step or output that does not exist) become error notes on that node so the rest still builds.
 */
export function createDocumentFromPlan(
  plan: Plan,
  tools: readonly ToolDeclaration[],
  opts: PlanBuildOptions = {},
): Result<WorkflowDocument> {
  const issues: Issue[] = [];
  const systemParams = opts.systemParams ?? DEFAULT_SYSTEM_PARAMS;
  const system = new Set(systemParams);
  const toolsByName = new Map<string, ToolDeclaration>();
  for (const decl of tools) if (!toolsByName.has(decl.name)) toolsByName.set(decl.name, decl);

  const indexById = new Map<string, number>();
  const nodes: WorkflowNode[] = [];
  const snapshots: Record<string, ToolSnapshot> = {};
  const pending: PendingReference[] = [];

  plan.steps.forEach((step, i) => {
    if (indexById.has(step.id)) {
      issues.push({
        path: joinPointer('/steps', i, 'id'),
        code: 'duplicate_id',
        message: `Step id "${step.id}" is already used by step ${indexById.get(step.id)! + 1}; give each step its own id.`,
      });
      return;
    }
    indexById.set(step.id, nodes.length);
    const decl = toolsByName.get(step.tool);
    let declared: Set<string> | undefined;
    if (decl) {
      // Own members only: a tool may be called "constructor" or "__proto__".
      if (!Object.hasOwn(snapshots, decl.name))
        setJsonMember(snapshots, decl.name, { declaration: decl, hash: hashDeclaration(decl) });
      declared = new Set(getParamPlan(decl, systemParams).map((p) => p.name));
    }
    const args: Record<string, unknown> = {};
    const unknownArgs: string[] = [];
    const notes: NodeIssue[] = [];
    for (const [name, value] of Object.entries(step.args ?? {})) {
      // An arg named "" is no parameter of any tool, declared or not (a parameter needs a name).
      if ((declared ? !declared.has(name) : name === '') && !system.has(name)) {
        unknownArgs.push(name);
        continue;
      }
      const ref = parseReference(value);
      if (ref && !system.has(name)) {
        pending.push({ target: nodes.length, input: name, ref, raw: value as string });
        continue;
      }
      setJsonMember(args, name, value);
      if (getReferences(value).length > 0) {
        notes.push({
          severity: 'warning',
          code: 'embedded_reference',
          message: `Argument "${name}" contains a {{step.output}} reference inside a larger value; only a whole-value reference becomes an edge. Connect the input with an edge instead.`,
          param: name,
        });
      }
    }
    nodes.push({
      id: asNodeId(step.id),
      tool: step.tool,
      position: getGridPosition(nodes.length, opts.columns),
      args,
      ...(unknownArgs.length > 0 ? { unknownArgs } : {}),
      ...(decl ? { toolHash: snapshots[decl.name].hash } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    });
  });

  const doc: WorkflowDocument = {
    task: plan.task ?? '',
    nodes,
    edges: [],
    tools: snapshots,
    ...(opts.systemParams ? { systemParams: [...opts.systemParams] } : {}),
  };
  const fed = new Set<string>();
  // While every edge points from an earlier node to a later one, a new forward edge cannot
  // close a cycle; only then is the (linear) path search skipped — it keeps 10k-step plans fast.
  let allForward = true;

  const addEdge = (source: number, output: string, target: number, input: string): string | undefined => {
    const sourceNode = nodes[source];
    const targetNode = nodes[target];
    if (source === target) return `a step cannot feed itself ("${targetNode.id}")`;
    if (fed.has(`${targetNode.id}\u0000${input}`))
      return `input "${input}" of "${targetNode.id}" is already fed by another edge`;
    const forward = source < target;
    if (!(allForward && forward) && hasPath(doc.edges, targetNode.id, sourceNode.id)) {
      return `an edge from "${sourceNode.id}" to "${targetNode.id}" would close a cycle`;
    }
    allForward &&= forward;
    fed.add(`${targetNode.id}\u0000${input}`);
    doc.edges.push({
      id: createEdgeId(sourceNode.id, output, targetNode.id, input),
      source: sourceNode.id,
      sourceOutput: output,
      target: targetNode.id,
      targetInput: input,
    } satisfies WorkflowEdge);
    return undefined;
  };

  const getTypeWarning = (
    source: number,
    output: string,
    target: number,
    input: string,
  ): NodeIssue | undefined => {
    const out = getOutputPorts(doc, nodes[source]).find((p) => p.name === output);
    const into = getInputPorts(doc, nodes[target]).find((p) => p.name === input);
    if (!out || !into || isTypeCompatible(out.type, into.type)) return undefined;
    return {
      severity: 'warning',
      code: 'type_mismatch',
      message: `Input "${input}" (${into.type}) is fed by "${nodes[source].id}.${output}" (${out.type}); check that the value fits.`,
      param: input,
    };
  };

  const addNote = (target: number, note: NodeIssue) => {
    const node = nodes[target];
    node.notes = [...(node.notes ?? []), note];
  };

  for (const { target, input, ref, raw } of pending) {
    const source = indexById.get(ref.step);
    const fail = (why: string) => {
      // Keep what the model wrote so the user sees it in the inspector next to the error.
      setJsonMember(nodes[target].args, input, raw);
      addNote(target, {
        severity: 'error',
        code: 'unknown_reference',
        message: `Argument "${input}" refers to ${why}.`,
        param: input,
      });
    };
    if (source === undefined) {
      fail(
        `step "${ref.step}", which is not in the plan: use the id of an earlier step, e.g. {{${nodes[0].id}.result}}`,
      );
      continue;
    }
    const outputs = getOutputPorts(doc, nodes[source]);
    if (!outputs.some((o) => o.name === ref.output)) {
      fail(
        `output "${ref.output}" of step "${ref.step}", which has only ${outputs.map((o) => `"${o.name}"`).join(', ')}: use one of those`,
      );
      continue;
    }
    const refused = addEdge(source, ref.output, target, input);
    if (refused) {
      fail(`${raw}, but ${refused}: remove the reference or point it at another step`);
      continue;
    }
    const warning = getTypeWarning(source, ref.output, target, input);
    if (warning) addNote(target, warning);
  }

  (plan.edges ?? []).forEach((edge, i) => {
    const at = joinPointer('/edges', i);
    const source = indexById.get(edge.source);
    const target = indexById.get(edge.target);
    if (source === undefined) {
      issues.push({
        path: at + '/source',
        code: 'unknown_step',
        message: `No step has id "${edge.source}"; use one of the step ids.`,
      });
    }
    if (target === undefined) {
      issues.push({
        path: at + '/target',
        code: 'unknown_step',
        message: `No step has id "${edge.target}"; use one of the step ids.`,
      });
    }
    if (source === undefined || target === undefined) return;
    const outputs = getOutputPorts(doc, nodes[source]);
    if (!outputs.some((o) => o.name === edge.source_output)) {
      issues.push({
        path: at + '/source_output',
        code: 'unknown_port',
        message: `Step "${edge.source}" has no output "${edge.source_output}"; its outputs are ${outputs.map((o) => `"${o.name}"`).join(', ')}.`,
      });
      return;
    }
    const inputs = getInputPorts(doc, nodes[target]);
    if (!inputs.some((p) => p.name === edge.target_input)) {
      issues.push({
        path: at + '/target_input',
        code: 'unknown_port',
        message: `Step "${edge.target}" has no input "${edge.target_input}"; use one of its parameters.`,
      });
      return;
    }
    const refused = addEdge(source, edge.source_output, target, edge.target_input);
    if (refused) {
      issues.push({
        path: at,
        code: 'bad_edge',
        message: `This edge is refused: ${refused}. Remove it from "edges".`,
      });
      return;
    }
    const warning = getTypeWarning(source, edge.source_output, target, edge.target_input);
    if (warning) addNote(target, warning);
  });

  return issues.length > 0 ? err(issues) : ok(doc);
}
