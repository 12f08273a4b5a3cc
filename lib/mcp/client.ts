import 'server-only';
/**
 * Toolflow's MCP client, on the official SDK: Streamable HTTP (falling back to the older SSE
 * transport when a server answers the Streamable HTTP handshake with 404/405) and stdio.
 * Lists tools with pagination, calls tools, and turns every failure into a value that says which
 * server, which step and why.
 *
 * HTTP goes only through the guarded fetch (url-guard.ts); stdio targets come only from the
 * server-side configuration (config.ts). Connecting is in connection.ts, the session (listing
 * and calling) in session.ts.
 */
import { err, ok, type Issue, type Result } from '../result';
import type { ToolDeclaration, ToolSource } from '../tools/types';
import {
  connect,
  createTail,
  describeConnectError,
  getStartTimeout,
  isStreamableUnsupported,
  type Connection,
} from './connection';
import { createSession } from './session';
import { createGuardedFetch, type ResolveHost } from './url-guard';

export interface HttpTarget {
  kind: 'http';
  url: string;
}

/** A stdio server; build it from configuration (config.ts), never from a request body. */
export interface StdioTarget {
  kind: 'stdio';
  /** The configured server name, shown in messages and stored as the toolkit's source. */
  name?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export type McpTarget = HttpTarget | StdioTarget;

export interface McpClientOptions {
  /** Limit for each step: connecting and initializing, each `tools/list` page, each call. */
  timeoutMs: number;
  /**
   * Limit for connecting and initializing, when it is not `timeoutMs` (a test-run gives a
   * server's start-up its own limit).
   */
  startTimeoutMs?: number;
  /** Largest HTTP response body or single stdio message, in bytes. */
  maxBytes: number;
  /** Allow loopback and private HTTP addresses (`TOOLFLOW_MCP_ALLOW_PRIVATE=1`). */
  allowPrivate: boolean;
  /** Host names allowed even when they resolve to private addresses (`TOOLFLOW_MCP_ALLOW_HOSTS`). */
  allowHosts?: readonly string[];
  /** Most `tools/list` pages followed (default 50). */
  maxPages?: number;
  /** Most tools accepted from one server (default 2000). */
  maxTools?: number;
  /** DNS resolution for the URL guard (tests). */
  resolve?: ResolveHost;
}

/** The step a failure happened in, named in every message. */
export type McpStep = 'connect' | 'initialize' | 'list' | 'call';

/** A failure talking to an MCP server. */
export interface McpProblem {
  /** The server as shown to people: its URL, or the configured name of a stdio server. */
  server: string;
  step: McpStep;
  /** Machine-readable: `url_refused`, `spawn_failed`, `server_exited`, `timeout`, `http_status`, `malformed_list`, … */
  code: string;
  /** What happened, where and what to do, in one or two sentences. */
  message: string;
  /** For a malformed answer: every problem, by JSON path into the (concatenated) tool list. */
  issues?: Issue[];
  /** The JSON-RPC error code the server answered with (`server_error`). */
  rpcCode?: number;
}

/** Words a failure of one step for the server of a session (see `openMcpSession`). */
export type MakeProblem = (step: McpStep, code: string, message: string, issues?: Issue[]) => McpProblem;

export interface McpToolList {
  server: string;
  /** The server's own name and version, from `initialize`. */
  serverInfo?: { name: string; version: string };
  transport: 'streamable-http' | 'sse' | 'stdio';
  tools: ToolDeclaration[];
  /** How many `tools/list` pages were read. */
  pages: number;
  /** Schemas Ajv refuses; the tools are kept (a node built from them reports it). */
  warnings: Issue[];
}

export interface McpCallResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  /** The tool reported a failure of its own (a result, not a protocol error). */
  isError: boolean;
}

/** A connected server. Close it when done; a stdio server's process ends with it. */
export interface McpSession {
  readonly server: string;
  readonly transport: McpToolList['transport'];
  /** Every tool, all pages followed. */
  listTools(): Promise<Result<McpToolList, McpProblem>>;
  /**
   * Call a tool; structured output is checked against the tool's output schema (its own dialect)
   * when the session listed it. `signal` cancels the request (MCP `notifications/cancelled`);
   * `timeoutMs` replaces the session's limit for this call.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Result<McpCallResult, McpProblem>>;
  close(): Promise<void>;
}

/** Characters of a stdio server's stderr kept for error messages (its last ones). */
const STDERR_TAIL_BYTES = 2000;

/** How a target is named in messages and stored as a toolkit's source. */
export function getServerLabel(target: McpTarget): string {
  if (target.kind === 'http') return target.url;
  return target.name ?? [target.command, ...target.args].join(' ');
}

function getToolSource(target: McpTarget): ToolSource & { server: string } {
  return { kind: target.kind === 'http' ? 'mcp-http' : 'mcp-stdio', server: getServerLabel(target) };
}

/** Connect and initialize; the session then lists and calls until closed. */
export async function openMcpSession(
  target: McpTarget,
  options: McpClientOptions,
): Promise<Result<McpSession, McpProblem>> {
  const server = getServerLabel(target);
  const problem: MakeProblem = (step, code, message, issues) => ({
    server,
    step,
    code,
    message: `MCP server ${server}: ${step} failed: ${message}`,
    ...(issues ? { issues } : {}),
  });

  let connection: Connection;
  if (target.kind === 'http') {
    // Every request goes through the URL guard: the first resolves the host and checks each
    // address, and the connection is pinned to them (url-guard.ts). One guarded fetch for the
    // session (and for the SSE fallback), so the host is resolved once.
    const fetch = createGuardedFetch({
      allowPrivate: options.allowPrivate,
      allowHosts: options.allowHosts,
      resolve: options.resolve,
      maxBytes: options.maxBytes,
      timeoutMs: Math.max(options.timeoutMs, getStartTimeout(options)),
    });
    const streamable = await connect(target, options, 'streamable-http', { fetch });
    if (!streamable.ok && isStreamableUnsupported(streamable.error)) {
      const sse = await connect(target, options, 'sse', { fetch });
      if (!sse.ok) return err(describeConnectError(sse.error, problem, options, undefined));
      connection = sse.value;
    } else if (!streamable.ok) {
      return err(describeConnectError(streamable.error, problem, options, undefined));
    } else {
      connection = streamable.value;
    }
  } else {
    const stderrTail = createTail(STDERR_TAIL_BYTES);
    const stdio = await connect(target, options, 'stdio', { stderrTail });
    if (!stdio.ok) return err(describeConnectError(stdio.error, problem, options, target, stderrTail.text()));
    connection = stdio.value;
  }
  return ok(createSession(connection, getToolSource(target), options, problem));
}

/** Connect, list every tool, close. */
export async function listMcpTools(
  target: McpTarget,
  options: McpClientOptions,
): Promise<Result<McpToolList, McpProblem>> {
  const session = await openMcpSession(target, options);
  if (!session.ok) return session;
  try {
    return await session.value.listTools();
  } finally {
    await session.value.close();
  }
}
