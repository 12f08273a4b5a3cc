/**
 * What a run of an export will do, decided before anything is called: which tool each node
 * calls on which server, and which nodes cannot run and why (a tool with no server, a
 * placeholder, a missing required value, a value that fails its schema, an edge whose types do
 * not fit, a cycle). The person sees this list and confirms; the executor uses the same plan.
 * Pure.
 */
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
  return checked.ok ? undefined : checked.error;
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
    })),
    servers: plan.servers.map((s) => {
      const dataNote = dataNotes.get(s.label);
      return { label: s.label, kind: s.server.kind, tools: s.tools, ...(dataNote ? { dataNote } : {}) };
    }),
    runnable: plan.nodes.filter((n) => !n.blocked).length,
  };
}
