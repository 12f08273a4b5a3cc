import 'server-only';
/**
 * Toolflow's MCP client, on the official SDK: Streamable HTTP (falling back to the older SSE
 * transport when a server answers the Streamable HTTP handshake with 404/405) and stdio.
 * Lists tools with pagination, calls tools, and turns every failure into a value that says which
 * server, which step and why.
 *
 * HTTP goes only through the guarded fetch (url-guard.ts); stdio targets come only from the
 * server-side configuration (config.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { PassThrough } from 'node:stream';
import { err, ok, type Issue, type Result } from '../result';
import type { ToolDeclaration, ToolSource } from '../tools/types';
import { compileSchema, describeAjvError } from '../tools/schema-validator';
import { importMcpToolList } from './import-tools';
import { checkToolSchemas, createDialectAwareValidator } from './schema-validator';
import { createGuardedFetch, ResponseTooLargeError, UrlRefusedError, type ResolveHost } from './url-guard';

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

const DEFAULT_MAX_PAGES = 50;
const DEFAULT_MAX_TOOLS = 2000;
/** Lines of a stdio server's stderr kept for error messages. */
const STDERR_TAIL_BYTES = 2000;

/** How a target is named in messages and stored as a toolkit's source. */
export function getServerLabel(target: McpTarget): string {
  if (target.kind === 'http') return target.url;
  return target.name ?? [target.command, ...target.args].join(' ');
}

function getToolSource(target: McpTarget): ToolSource {
  return { kind: target.kind === 'http' ? 'mcp-http' : 'mcp-stdio', server: getServerLabel(target) };
}

/** Connect and initialize; the session then lists and calls until closed. */
export async function openMcpSession(
  target: McpTarget,
  options: McpClientOptions,
): Promise<Result<McpSession, McpProblem>> {
  const server = getServerLabel(target);
  const problem = (step: McpStep, code: string, message: string, issues?: Issue[]): McpProblem => ({
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
  return ok(createSession(connection, target, options, problem));
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

// ---- connecting ----

interface Connection {
  client: Client;
  transport: McpToolList['transport'];
  /** Ends the server-side session where the transport has one (Streamable HTTP). */
  endSession: () => Promise<void>;
}

type ConnectFailure = { error: unknown; transport: McpToolList['transport'] };

/** The limit for connecting and initializing. */
const getStartTimeout = (options: McpClientOptions) => options.startTimeoutMs ?? options.timeoutMs;

async function connect(
  target: McpTarget,
  options: McpClientOptions,
  kind: McpToolList['transport'],
  using: { fetch?: ReturnType<typeof createGuardedFetch>; stderrTail?: ReturnType<typeof createTail> },
): Promise<Result<Connection, ConnectFailure>> {
  const client = new Client(
    { name: 'toolflow', version: '1.0.0' },
    { capabilities: {}, jsonSchemaValidator: createDialectAwareValidator() },
  );
  let transport: Transport;
  if (target.kind === 'http') {
    const fetch = using.fetch;
    if (!fetch) throw new Error('An HTTP MCP connection needs the guarded fetch.');
    const url = new URL(target.url);
    transport =
      kind === 'sse'
        ? new SSEClientTransport(url, { fetch, redirectPolicy: 'follow' })
        : new StreamableHTTPClientTransport(url, {
            fetch,
            redirectPolicy: 'follow',
            reconnectionOptions: {
              initialReconnectionDelay: 1000,
              maxReconnectionDelay: 5000,
              reconnectionDelayGrowFactor: 2,
              maxRetries: 2,
            },
          });
  } else {
    const stdio = new StdioClientTransport({
      command: target.command,
      args: target.args,
      env: target.env,
      cwd: target.cwd,
      stderr: 'pipe',
      maxBufferSize: options.maxBytes,
    });
    const stderr = stdio.stderr as PassThrough | null;
    stderr?.on('data', (chunk: Buffer) => using.stderrTail?.push(chunk));
    transport = stdio;
  }
  try {
    await client.connect(transport, { timeout: getStartTimeout(options) });
  } catch (error) {
    await client.close().catch(() => {});
    return err({ error, transport: kind });
  }
  const endSession = async () => {
    // A polite DELETE, so the server can free the session now rather than when it times out.
    if (transport instanceof StreamableHTTPClientTransport)
      await transport.terminateSession().catch(() => {});
  };
  return ok({ client, transport: kind, endSession });
}

function isStreamableUnsupported(failure: ConnectFailure): boolean {
  // 404/405 to the initialize POST is how a server that only speaks the old SSE transport answers.
  const error = failure.error;
  return error instanceof StreamableHTTPError && (error.code === 404 || error.code === 405);
}

function findCause<T>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof type) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeConnectError(
  failure: ConnectFailure,
  problem: (step: McpStep, code: string, message: string) => McpProblem,
  options: McpClientOptions,
  stdio: StdioTarget | undefined,
  stderr?: string,
): McpProblem {
  const { error } = failure;
  const stderrNote = stderr ? ` Its stderr ended with: ${stderr}` : '';
  const refused = findCause(error, UrlRefusedError);
  if (refused) return problem('connect', 'url_refused', refused.message);
  const tooLarge = findCause(error, ResponseTooLargeError);
  if (tooLarge) return problem('initialize', 'too_large', tooLarge.message);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return problem(
      'initialize',
      'timeout',
      `the server did not answer "initialize" within ${getStartTimeout(options)} ms. Check that it is an MCP server and that it is running.${stderrNote}`,
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return stdio
      ? problem(
          'connect',
          'server_exited',
          `the process "${stdio.command}" exited before answering "initialize". Check its command and arguments.${stderrNote}`,
        )
      : problem(
          'initialize',
          'connection_closed',
          'the server closed the connection before answering "initialize".',
        );
  }
  if (
    error instanceof StreamableHTTPError ||
    (error instanceof Error && error.constructor.name === 'SseError')
  ) {
    const status = (error as { code?: number }).code;
    const hint =
      status === 404
        ? ' Check the URL path (MCP servers often serve /mcp).'
        : status === 401 || status === 403
          ? ' The server requires authorization, which Toolflow does not send.'
          : '';
    return problem(
      'initialize',
      'http_status',
      `the server answered HTTP ${status ?? 'error'}: ${error.message}.${hint}`,
    );
  }
  const errno = (findCause(error, Error) as NodeJS.ErrnoException | undefined)?.code;
  if (stdio && errno === 'ENOENT') {
    return problem(
      'connect',
      'spawn_failed',
      `the command "${stdio.command}" was not found (ENOENT). Fix "command" in the server's configuration or install the program.`,
    );
  }
  if (stdio && errno)
    return problem(
      'connect',
      'spawn_failed',
      `the command "${stdio.command}" could not be started (${errno}).${stderrNote}`,
    );
  const cause = (error as { cause?: { code?: string } }).cause;
  const network = errno ?? cause?.code;
  if (network)
    return problem(
      'connect',
      'unreachable',
      `the server could not be reached (${network}). Check the URL and that the server is running.`,
    );
  return problem('initialize', 'bad_response', `${(error as Error).message ?? String(error)}.${stderrNote}`);
}

function createTail(limit: number) {
  let tail = '';
  return {
    push(chunk: Buffer) {
      tail = (tail + chunk.toString('utf8')).slice(-limit);
    },
    text: () => tail.trim(),
  };
}

// ---- the session ----

function createSession(
  connection: Connection,
  target: McpTarget,
  options: McpClientOptions,
  problem: (step: McpStep, code: string, message: string, issues?: Issue[]) => McpProblem,
): McpSession {
  const { client } = connection;
  const server = getServerLabel(target);
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const maxTools = options.maxTools ?? DEFAULT_MAX_TOOLS;
  let closed = false;
  let lastTools = new Map<string, ToolDeclaration>();
  // Listings run one at a time: a second listTools waits for the first.
  let queue: Promise<unknown> = Promise.resolve();

  const listOnce = async (): Promise<Result<McpToolList, McpProblem>> => {
    const raw: unknown[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      if (pages >= maxPages) {
        return err(
          problem(
            'list',
            'too_many_pages',
            `the tool list did not end after ${maxPages} pages. The server's pagination is probably broken.`,
          ),
        );
      }
      let page: Record<string, unknown>;
      try {
        page = await client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          ResultSchema,
          { timeout: options.timeoutMs },
        );
      } catch (error) {
        return err(
          describeRequestError(
            error,
            'list',
            `"tools/list"${pages ? ` (page ${pages + 1})` : ''}`,
            options,
            problem,
          ),
        );
      }
      pages++;
      if (!Array.isArray(page.tools)) {
        return err(
          problem(
            'list',
            'malformed_list',
            `page ${pages} of "tools/list" has no "tools" array, so it is not a valid MCP answer; the server must be fixed.`,
            [{ path: `/pages/${pages - 1}/tools`, message: 'must be an array', code: 'malformed_list' }],
          ),
        );
      }
      raw.push(...page.tools);
      if (raw.length > maxTools)
        return err(
          problem(
            'list',
            'too_many_tools',
            `the server lists more than ${maxTools} tools, the most Toolflow reads from one server.`,
          ),
        );
      if (page.nextCursor !== undefined && typeof page.nextCursor !== 'string') {
        return err(
          problem('list', 'malformed_list', `page ${pages} has a "nextCursor" that is not a string.`, [
            { path: `/pages/${pages - 1}/nextCursor`, message: 'must be a string', code: 'malformed_list' },
          ]),
        );
      }
      cursor = page.nextCursor as string | undefined;
      if (cursor !== undefined) {
        if (seenCursors.has(cursor))
          return err(
            problem(
              'list',
              'cursor_loop',
              `the server returned the cursor "${cursor}" twice, so its tool list never ends.`,
            ),
          );
        seenCursors.add(cursor);
      }
    } while (cursor !== undefined);

    const imported = importMcpToolList(raw, getToolSource(target));
    if (!imported.ok) {
      const first = imported.error[0];
      const more =
        imported.error.length > 1 ? ` (and ${imported.error.length - 1} more; see the issue list)` : '';
      return err(
        problem(
          'list',
          'malformed_list',
          `the tool list is malformed: ${first.path} ${first.message}${more}. The server must be fixed; nothing was imported.`,
          imported.error,
        ),
      );
    }
    const tools = imported.value;
    lastTools = new Map(tools.map((tool) => [tool.name, tool]));
    const serverInfo = client.getServerVersion();
    return ok({
      server,
      transport: connection.transport,
      ...(serverInfo ? { serverInfo: { name: serverInfo.name, version: serverInfo.version } } : {}),
      tools,
      pages,
      warnings: checkToolSchemas(tools).issues,
    });
  };

  const listTools = () => {
    const next = queue.then(listOnce, listOnce);
    queue = next;
    return next;
  };

  return {
    server,
    transport: connection.transport,
    listTools,
    async callTool(name, args, call = {}) {
      let result;
      const timeoutMs = call.timeoutMs ?? options.timeoutMs;
      try {
        result = await client.request(
          { method: 'tools/call', params: { name, arguments: args } },
          CallToolResultSchema,
          { timeout: timeoutMs, ...(call.signal ? { signal: call.signal } : {}) },
        );
      } catch (error) {
        return err(
          describeRequestError(error, 'call', `the call to "${name}"`, { ...options, timeoutMs }, problem),
        );
      }
      const outputSchema = lastTools.get(name)?.outputSchema;
      if (outputSchema && !result.isError) {
        if (!result.structuredContent) {
          return err(
            problem(
              'call',
              'missing_structured_content',
              `"${name}" declares an output schema but returned no structuredContent.`,
            ),
          );
        }
        const compiled = compileSchema(outputSchema);
        if (!compiled.ok)
          return err(
            problem('call', 'bad_schema', `the output schema of "${name}" cannot be used: ${compiled.error}`),
          );
        if (!compiled.value(result.structuredContent)) {
          const issues = (compiled.value.errors ?? []).map((e) => ({
            path: '/structuredContent' + e.instancePath,
            message: describeAjvError(e),
            code: `schema_${e.keyword}`,
          }));
          return err(
            problem(
              'call',
              'bad_output',
              `"${name}" returned structuredContent that does not match its output schema: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}.`,
              issues,
            ),
          );
        }
      }
      return ok({
        content: result.content,
        ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
        isError: result.isError === true,
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await connection.endSession();
      await client.close().catch(() => {});
    },
  };
}

function describeRequestError(
  error: unknown,
  step: McpStep,
  what: string,
  options: McpClientOptions,
  problem: (step: McpStep, code: string, message: string) => McpProblem,
): McpProblem {
  const tooLarge = findCause(error, ResponseTooLargeError);
  if (tooLarge) return problem(step, 'too_large', tooLarge.message);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return problem(
      step,
      'timeout',
      `the server did not answer ${what} within ${options.timeoutMs} ms. Try again later; if the server is just slow, an administrator can raise the timeout.`,
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return problem(step, 'connection_closed', `the connection closed before the server answered ${what}.`);
  }
  if (error instanceof McpError)
    return {
      ...problem(
        step,
        'server_error',
        `the server answered ${what} with error ${error.code}: ${error.message.replace(/^MCP error -?\d+: /, '')}`,
      ),
      rpcCode: error.code,
    };
  return problem(step, 'bad_response', `${what} failed: ${(error as Error).message ?? String(error)}`);
}
