import 'server-only';
/**
 * The test-run's way to MCP servers (lib/run/execute.ts `RunPort`): one session per server for the
 * whole run, started when a step first needs it, started again after the server went away. Which
 * process or URL a server name means is decided here, from the server's own configuration only:
 * a stdio server by its configured name (config.ts), a Streamable HTTP URL through the URL guard
 * (checked for the pre-flight, and by every connection). Nothing a browser sends can start a
 * process.
 */
import { err, ok, type Result } from '../result';
import { executeRun, type ExecuteOptions, type RunOutcome, type RunPort } from '../run/execute';
import { describeServerProblem } from '../run/error-words';
import { blockUnavailableServers, getServerRefLabel, planRun, type RunPlan } from '../run/preflight';
import type { ContentBlock, RunError, RunLimits, ServerRef, ToolCallResult } from '../run/types';
import type { WorkflowExportV1 } from '../workflow/types';
import {
  getServerLabel,
  openMcpSession,
  type McpClientOptions,
  type McpProblem,
  type McpSession,
  type McpTarget,
} from './client';
import { getConfiguredStdioTarget, type McpConfigSources } from './config';
import { checkMcpUrl } from './url-guard';

export interface McpRunPortOptions {
  client: McpClientOptions;
  /** Where the stdio configuration is read (tests). */
  config?: McpConfigSources;
  /**
   * Use this target for every node instead of the one its source names (`toolflow run
   * --mcp-server NAME`).
   */
  override?: McpTarget;
}

/** A RunPort that also closes its sessions (and so ends the stdio servers it started). */
export interface McpRunPort extends RunPort {
  close(): Promise<void>;
}

/** An MCP failure as a node error, in words (lib/run/error-words.ts); the client's words in the details. */
function toRunError(problem: McpProblem, tool = ''): RunError {
  return describeServerProblem(problem, { tool });
}

/**
 * What a server reference means on this machine: a configured stdio server's command, or an HTTP
 * URL. A URL is not checked here: every connection to it passes the URL guard (url-guard.ts).
 */
async function getServerTarget(
  server: ServerRef,
  options: Pick<McpRunPortOptions, 'config'>,
): Promise<Result<McpTarget, RunError>> {
  if (server.kind === 'http') return ok({ kind: 'http', url: server.url });
  const configured = await getConfiguredStdioTarget(server.name, options.config);
  if (!configured.ok) {
    return err({
      code: 'server_unavailable',
      message: `${configured.error[0].message} A test-run starts only servers configured on the machine that runs it.`,
    });
  }
  return ok(configured.value);
}

/**
 * The target a server reference means on this machine, or why it cannot be used here; an HTTP
 * URL passes the URL guard now (the pre-flight), and again when a run connects to it.
 */
export async function resolveServer(
  server: ServerRef,
  options: Pick<McpRunPortOptions, 'client' | 'config'>,
): Promise<Result<McpTarget, RunError>> {
  if (server.kind === 'stdio') return getServerTarget(server, options);
  const checked = await checkMcpUrl(server.url, {
    allowPrivate: options.client.allowPrivate,
    allowHosts: options.client.allowHosts,
    resolve: options.client.resolve,
  });
  if (!checked.ok) return err({ code: 'server_unavailable', message: checked.error.message });
  return ok({ kind: 'http', url: server.url });
}

/** Which servers of a plan cannot be used here, by label, with the reason (for the pre-flight). */
export async function getUnavailableServers(
  plan: RunPlan,
  options: Pick<McpRunPortOptions, 'client' | 'config' | 'override'>,
): Promise<Map<string, RunError>> {
  const unavailable = new Map<string, RunError>();
  if (options.override) return unavailable;
  for (const { server, label } of plan.servers) {
    const resolved = await resolveServer(server, options);
    if (!resolved.ok) unavailable.set(label, resolved.error);
  }
  return unavailable;
}

/**
 * Opens sessions, one per server label, when a step first needs its server (`startServer`, within
 * the start-up limit the executor gives), and calls tools on them. A port serves one run, so one
 * sample space (`options.config.space`): its sessions, and the sample processes behind them, are
 * never handed to another run, and close with it.
 */
export function createMcpRunPort(options: McpRunPortOptions): McpRunPort {
  const sessions = new Map<string, Promise<Result<McpSession, RunError>>>();
  let closed = false;
  const labelOf = (server: ServerRef) => (options.override ? '(override)' : getServerRefLabel(server));

  const getSession = (server: ServerRef, startTimeoutMs?: number): Promise<Result<McpSession, RunError>> => {
    const label = labelOf(server);
    let session = sessions.get(label);
    if (!session) {
      session = (async () => {
        const target = options.override ? ok(options.override) : await getServerTarget(server, options);
        if (!target.ok) return target;
        const client = startTimeoutMs === undefined ? options.client : { ...options.client, startTimeoutMs };
        const opened = await openMcpSession(target.value, client);
        if (opened.ok && closed) {
          // The run ended while the server was starting: it is not needed any more.
          await opened.value.close();
          return err<RunError>({ code: 'cancelled', message: 'The run has ended.' });
        }
        return opened.ok ? ok(opened.value) : err(toRunError(opened.error));
      })();
      sessions.set(label, session);
      // A failed open is not kept: the next node tries again.
      void session.then((s) => {
        if (!s.ok && sessions.get(label) === session) sessions.delete(label);
      });
    }
    return session;
  };

  return {
    async startServer(server, { timeoutMs }) {
      if (closed) return err({ code: 'cancelled', message: 'The run has ended.' });
      const session = await getSession(server, timeoutMs);
      return session.ok ? ok(undefined) : session;
    },
    async callTool(call) {
      if (closed) return err({ code: 'cancelled', message: 'The run has ended.' });
      const session = await getSession(call.server);
      if (!session.ok) return session;
      const called = await session.value.callTool(call.tool, call.args, {
        signal: call.signal,
        timeoutMs: call.timeoutMs,
      });
      if (!called.ok) {
        const error = toRunError(called.error, call.tool);
        if (error.code === 'server_exited') {
          // The server is gone: the next step on it starts (or reconnects to) it again.
          sessions.delete(labelOf(call.server));
          await session.value.close();
        }
        return err(error);
      }
      const result: ToolCallResult = {
        content: called.value.content as ContentBlock[],
        ...(called.value.structuredContent ? { structuredContent: called.value.structuredContent } : {}),
        isError: called.value.isError,
      };
      return ok(result);
    },
    async close() {
      closed = true;
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(
        all.map(async (pending) => {
          const session = await pending;
          if (session.ok) await session.value.close();
        }),
      );
    },
  };
}

/**
 * The plan of a run as it stands on this machine: servers that cannot be used here block their
 * nodes. Made once, when the run is asked for (the pre-flight, `POST /runs`, `toolflow run`).
 */
export async function planRunHere(
  file: WorkflowExportV1,
  options: Pick<McpRunPortOptions, 'client' | 'config' | 'override'>,
): Promise<RunPlan> {
  const plan = planRun(
    file,
    options.override
      ? {
          server:
            options.override.kind === 'http'
              ? { kind: 'http', url: options.override.url }
              : { kind: 'stdio', name: getServerLabel(options.override) },
        }
      : {},
  );
  return blockUnavailableServers(plan, await getUnavailableServers(plan, options));
}

/**
 * Runs an export as `plan` (from `planRunHere`) says, against its MCP servers, and closes every
 * session (so every stdio server it started ends) whatever happens.
 */
export async function runExportHere(
  file: WorkflowExportV1,
  plan: RunPlan,
  options: McpRunPortOptions & Omit<ExecuteOptions, 'limits'> & { limits: RunLimits },
): Promise<RunOutcome> {
  const port = createMcpRunPort(options);
  try {
    return await executeRun(file, plan, port, options);
  } finally {
    await port.close();
  }
}
