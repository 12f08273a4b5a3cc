/**
 * What a run of an export will do, decided before anything is called: which tool each node
 * calls on which server, and which nodes cannot run and why (a tool with no server, a
 * placeholder, a missing required value, a value that fails its schema, an edge whose types do
 * not fit, a cycle). The person sees this list and confirms; the executor uses the same plan.
 * Pure.
 */
import { countOf } from '../plural';
import { err, ok, type Result } from '../result';
import type { ExportNode, WorkflowExportV1 } from '../workflow/types';
import { checkArguments, getArguments, getExportTool, getIncomingEdges } from './arguments';
import { createSchedulePlan, type SchedulePlan } from './schedule';
import type { RunError, ServerRef } from './types';

export interface PlannedNode {
  nodeId: string;
  stepIndex: number;
  toolName: string;
  label?: string;
  /** Where the tool is called; null when the node has no server. */
  server: ServerRef | null;
  /** The tool declares `readOnlyHint: true`. */
  readOnly: boolean;
  /** The nodes feeding this one through edges (each once). */
  sources: string[];
  /** Why the node cannot run, when it cannot: it is marked failed without a call. */
  blocked?: RunError;
}

/** One server a run talks to and the tools it calls there. */
export interface PlannedServer {
  server: ServerRef;
  label: string;
  tools: string[];
}

/**
 * A run's plan, made once when the run is asked for and stored with it (plain JSON), so the
 * worker executes what the person confirmed without working it out again.
 */
export interface RunPlan {
  nodes: PlannedNode[];
  servers: PlannedServer[];
  /** The order the nodes are considered in (lib/run/schedule.ts); a node on a cycle is not in it. */
  order: string[];
}

/** The schedule of a plan: its nodes by id, in its order (for lib/run/schedule.ts). */
export function getPlanSchedule(plan: RunPlan): SchedulePlan {
  const ordered = new Set(plan.order);
  return {
    order: plan.order,
    cyclic: plan.nodes.filter((n) => !ordered.has(n.nodeId)).map((n) => n.nodeId),
    nodes: new Map(
      plan.nodes.map((n) => [
        n.nodeId,
        { id: n.nodeId, stepIndex: n.stepIndex, readOnly: n.readOnly, sources: n.sources },
      ]),
    ),
  };
}

/** How a server is named to people: the configured name or the URL. */
export function getServerRefLabel(server: ServerRef): string {
  return server.kind === 'stdio' ? server.name : server.url;
}

/** The server a node's tool came from, or why it has none. */
export function getNodeServer(node: ExportNode): Result<ServerRef, RunError> {
  const source = node.tool_source;
  if (source && source.server) {
    if (source.kind === 'mcp-stdio') return ok({ kind: 'stdio', name: source.server });
    if (source.kind === 'mcp-http') return ok({ kind: 'http', url: source.server });
  }
  const toolkit = source?.toolkit ? ` (toolkit "${source.toolkit}")` : '';
  const why =
    source?.kind === 'file'
      ? `comes from a declarations file${toolkit}, which has no server to call`
      : source?.kind === 'builtin'
        ? `is a sample declaration${toolkit} with no server behind it`
        : 'has no MCP server recorded as its source';
  return err({
    code: 'no_server',
    message: `Tool "${node.tool_name}" ${why}. Add its toolkit from an MCP server (or run the file with \`toolflow run --mcp-server NAME\`).`,
  });
}

export interface PlanOptions {
  /** Call every tool on this server instead of the one its source names (`toolflow run --mcp-server`). */
  server?: ServerRef;
}

/** Why a node cannot run from what the export says alone, or undefined when it can. */
export function getStaticBlock(
  file: WorkflowExportV1,
  node: ExportNode,
  options: PlanOptions = {},
): RunError | undefined {
  if (node.placeholder) {
    return {
      code: 'placeholder',
      message: `"${node.tool_name}" is a placeholder: no declaration of this tool was found. Add a toolkit that has it.`,
    };
  }
  const tool = getExportTool(file, node.tool_name);
  if (!tool) {
    return { code: 'unknown_tool', message: `The export has no declaration of "${node.tool_name}".` };
  }
  if (!options.server) {
    const server = getNodeServer(node);
    if (!server.ok) return server.error;
  }
  const sent = getArguments(file, node);
  if (!sent.ok) return sent.error;
  const checked = checkArguments(tool, sent.value.args, sent.value.pending);
  if (!checked.ok) return checked.error;
  // Anything else the canvas shows as an error on this step (a reference it could not wire, …):
  // the run does not call what the person sees marked invalid.
  const problems = node.problems.filter((p) => p.severity === 'error');
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${countOf(problems.length - 1, 'more problem')})` : '';
    return {
      code: 'invalid_step',
      message: `${problems[0].message}${more}`,
      ...(problems[0].param ? { path: `/${problems[0].param}` } : {}),
    };
  }
  return undefined;
}

/**
 * Why a step cannot run that is the workflow's to fix (a value, a wire, a tool), as opposed to
 * this machine's (no server for its tool here). A run does not start while one step is so.
 */
const INVALID_STEP_CODES: ReadonlySet<string> = new Set([
  'placeholder',
  'unknown_tool',
  'missing_required',
  'invalid_arguments',
  'invalid_schema',
  'invalid_step',
  'type_mismatch',
  'cycle',
]);

/** The step is blocked for a reason the person fixes in the editor. */
export const isInvalidStep = (node: Pick<PlannedNode, 'blocked'>): boolean =>
  node.blocked !== undefined && INVALID_STEP_CODES.has(node.blocked.code);

/** Why a run of a plan may not start; undefined when it may. */
export interface RunRefusal {
  /** `invalid_steps` (fix them first) or `nothing_to_run` (no step can run here). */
  code: 'invalid_steps' | 'nothing_to_run';
  message: string;
}

/**
 * Whether a run of `plan` may start. A step that is invalid (a missing or wrong value, a bad
 * wire, an unknown tool, a loop) holds the whole run back: the person sees it marked on the
 * canvas and would not expect the other steps to act without it. Steps whose tools have no server
 * here do not: the rest runs, and they are marked failed without a call. With nothing runnable
 * left, there is nothing to start.
 */
export function getRunRefusal(plan: RunPlan): RunRefusal | undefined {
  if (plan.nodes.length === 0)
    return { code: 'nothing_to_run', message: 'The workflow has no steps to run.' };
  const invalid = plan.nodes.filter(isInvalidStep);
  if (invalid.length > 0) {
    const names = invalid.map((n) => `${n.stepIndex}. ${n.label ?? n.toolName}`).join(', ');
    return {
      code: 'invalid_steps',
      message: `Fix ${countOf(invalid.length, 'invalid step')} first (${names}): a run starts only when every step is valid.`,
    };
  }
  if (plan.nodes.every((n) => n.blocked)) {
    return {
      code: 'nothing_to_run',
      message: 'No step of this version can run here; the pre-flight list says why for each.',
    };
  }
  return undefined;
}

/** Plans a run of `file`: servers, call order and the nodes that cannot run. */
export function planRun(file: WorkflowExportV1, options: PlanOptions = {}): RunPlan {
  const schedule = createSchedulePlan(
    file.nodes.map((node) => ({
      id: node.id,
      stepIndex: node.step_index,
      readOnly: getExportTool(file, node.tool_name)?.annotations?.readOnlyHint === true,
      sources: [...new Set([...getIncomingEdges(file, node.id).values()].map((e) => e.source))],
    })),
  );
  const cyclic = new Set(schedule.cyclic);
  const servers = new Map<string, PlannedServer>();
  const nodes = file.nodes.map((node): PlannedNode => {
    const server: Result<ServerRef, RunError> = options.server ? ok(options.server) : getNodeServer(node);
    const blocked = cyclic.has(node.id)
      ? {
          code: 'cycle',
          message: 'This step is on (or fed from) a loop of edges, so it can never have its inputs.',
        }
      : getStaticBlock(file, node, options);
    if (server.ok && !blocked) {
      const label = getServerRefLabel(server.value);
      const entry = servers.get(label) ?? { server: server.value, label, tools: [] };
      if (!entry.tools.includes(node.tool_name)) entry.tools.push(node.tool_name);
      servers.set(label, entry);
    }
    const planned = schedule.nodes.get(node.id)!;
    return {
      nodeId: node.id,
      stepIndex: node.step_index,
      toolName: node.tool_name,
      ...(node.label !== undefined ? { label: node.label } : {}),
      server: server.ok ? server.value : null,
      readOnly: planned.readOnly,
      sources: [...planned.sources],
      ...(blocked ? { blocked } : {}),
    };
  });
  return { nodes, servers: [...servers.values()], order: [...schedule.order] };
}

/**
 * The plan with servers that cannot be reached from here marked: `check` says why a server is
 * unavailable (not configured on this machine, a refused URL), or undefined when it is fine.
 */
export function blockUnavailableServers(plan: RunPlan, unavailable: ReadonlyMap<string, RunError>): RunPlan {
  if (unavailable.size === 0) return plan;
  return {
    ...plan,
    servers: plan.servers.filter((s) => !unavailable.has(s.label)),
    nodes: plan.nodes.map((node) => {
      if (node.blocked || !node.server) return node;
      const problem = unavailable.get(getServerRefLabel(node.server));
      return problem ? { ...node, blocked: problem } : node;
    }),
  };
}

/** The pre-flight list of a run of saved version `version`, as the API answers it. */
export function getPreflight(
  plan: RunPlan,
  version: number,
  exportHash: string,
  dataNotes: ReadonlyMap<string, string> = new Map(),
) {
  const refusal = getRunRefusal(plan);
  return {
    version,
    exportHash,
    nodes: plan.nodes.map((node) => ({
      nodeId: node.nodeId,
      stepIndex: node.stepIndex,
      toolName: node.toolName,
      ...(node.label !== undefined ? { label: node.label } : {}),
      server: node.server ? getServerRefLabel(node.server) : null,
      readOnly: node.readOnly,
      ...(node.blocked ? { blocked: node.blocked } : {}),
      ...(isInvalidStep(node) ? { invalid: true as const } : {}),
    })),
    servers: plan.servers.map((s) => {
      const dataNote = dataNotes.get(s.label);
      return { label: s.label, kind: s.server.kind, tools: s.tools, ...(dataNote ? { dataNote } : {}) };
    }),
    runnable: plan.nodes.filter((n) => !n.blocked).length,
    invalid: plan.nodes.filter(isInvalidStep).length,
    ...(refusal ? { refusal } : {}),
  };
}
