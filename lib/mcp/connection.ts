import 'server-only';
/**
 * Connecting to an MCP server and initializing the session: over Streamable HTTP or the older
 * SSE transport (both through the guarded fetch), or over stdio, and saying why a connection
 * failed in the words of the step it failed in.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { PassThrough } from 'node:stream';
import { err, ok, type Result } from '../result';
import type {
  MakeProblem,
  McpClientOptions,
  McpProblem,
  McpTarget,
  McpToolList,
  StdioTarget,
} from './client';
import { createDialectAwareValidator } from './schema-validator';
import { ResponseTooLargeError, UrlRefusedError, type createGuardedFetch } from './url-guard';

/** A connected, initialized client. */
export interface Connection {
  client: Client;
  transport: McpToolList['transport'];
  /** Ends the server-side session where the transport has one (Streamable HTTP). */
  endSession: () => Promise<void>;
}

/** Why connecting failed, and over which transport. */
export type ConnectFailure = { error: unknown; transport: McpToolList['transport'] };

/** The limit for connecting and initializing. */
export const getStartTimeout = (options: McpClientOptions) => options.startTimeoutMs ?? options.timeoutMs;

/** Connect to `target` over `kind` and initialize; closes the client again when that fails. */
export async function connect(
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

/** True when a server answered the Streamable HTTP handshake as one that only speaks SSE. */
export function isStreamableUnsupported(failure: ConnectFailure): boolean {
  // 404/405 to the initialize POST is how a server that only speaks the old SSE transport answers.
  const error = failure.error;
  return error instanceof StreamableHTTPError && (error.code === 404 || error.code === 405);
}

/** The first error of `type` along the `cause` chain of `error` (five links at most). */
export function findCause<T>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof type) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Why connecting failed, as a problem of the step it failed in, with a hint what to do. */
export function describeConnectError(
  failure: ConnectFailure,
  problem: MakeProblem,
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

/** The last `limit` characters of a stream (a stdio server's stderr), for error messages. */
export function createTail(limit: number) {
  let tail = '';
  return {
    push(chunk: Buffer) {
      tail = (tail + chunk.toString('utf8')).slice(-limit);
    },
    text: () => tail.trim(),
  };
}
