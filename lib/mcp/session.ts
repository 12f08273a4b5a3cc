import 'server-only';
/**
 * A connected MCP server as a session: its tool list read page by page (pagination that does not
 * end, or a malformed page, is refused), and tool calls whose structured output is checked
 * against the tool's output schema.
 */
import { CallToolResultSchema, ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { err, ok, type Result } from '../result';
import type { JsonSchema, ToolDeclaration, ToolSource } from '../tools/types';
import { compileSchema, describeAjvError } from '../tools/schema-validator';
import type { MakeProblem, McpClientOptions, McpProblem, McpSession, McpStep, McpToolList } from './client';
import { findCause, type Connection } from './connection';
import { importMcpToolList } from './import-tools';
import { checkToolSchemas } from './schema-validator';
import { ResponseTooLargeError } from './url-guard';

const DEFAULT_MAX_PAGES = 50;
const DEFAULT_MAX_TOOLS = 2000;

/**
 * The session over `connection`; `source` is where its tools come from (`source.server` names
 * the server), `problem` words each failure for this server.
 */
export function createSession(
  connection: Connection,
  source: ToolSource & { server: string },
  options: McpClientOptions,
  problem: MakeProblem,
): McpSession {
  const { client } = connection;
  const { server } = source;
  let closed = false;
  let lastTools = new Map<string, ToolDeclaration>();
  // Listings run one at a time: a second listTools waits for the first.
  let queue: Promise<unknown> = Promise.resolve();

  const listOnce = async (): Promise<Result<McpToolList, McpProblem>> => {
    const read = await readToolPages(client, options, problem);
    if (!read.ok) return read;
    const { raw, pages } = read.value;
    const imported = importMcpToolList(raw, source);
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

  return {
    server,
    transport: connection.transport,
    listTools() {
      const next = queue.then(listOnce, listOnce);
      queue = next;
      return next;
    },
    async callTool(name, args, call = {}) {
      const timeoutMs = call.timeoutMs ?? options.timeoutMs;
      let result;
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
      // The schema of the tool as last listed (a call may come before any listing: then none).
      const outputSchema = lastTools.get(name)?.outputSchema;
      if (outputSchema && !result.isError) {
        const refused = checkStructuredContent(name, result.structuredContent, outputSchema, problem);
        if (refused) return err(refused);
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

/**
 * Every page of `tools/list`, cursor after cursor, with how many pages there were. A list that
 * does not end (too many pages, a cursor seen twice), is too long or has a malformed page is
 * refused.
 */
async function readToolPages(
  client: Connection['client'],
  options: McpClientOptions,
  problem: MakeProblem,
): Promise<Result<{ raw: unknown[]; pages: number }, McpProblem>> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const maxTools = options.maxTools ?? DEFAULT_MAX_TOOLS;
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
  return ok({ raw, pages });
}

/**
 * The problem with a successful call's structured content under the tool's output schema: none
 * given, a schema that does not compile, or content that does not match; undefined when it fits.
 */
function checkStructuredContent(
  name: string,
  structuredContent: Record<string, unknown> | undefined,
  outputSchema: JsonSchema,
  problem: MakeProblem,
): McpProblem | undefined {
  if (!structuredContent) {
    return problem(
      'call',
      'missing_structured_content',
      `"${name}" declares an output schema but returned no structuredContent.`,
    );
  }
  const compiled = compileSchema(outputSchema);
  if (!compiled.ok)
    return problem('call', 'bad_schema', `the output schema of "${name}" cannot be used: ${compiled.error}`);
  if (compiled.value(structuredContent)) return undefined;
  const issues = (compiled.value.errors ?? []).map((e) => ({
    path: '/structuredContent' + e.instancePath,
    message: describeAjvError(e),
    code: `schema_${e.keyword}`,
  }));
  return problem(
    'call',
    'bad_output',
    `"${name}" returned structuredContent that does not match its output schema: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}.`,
    issues,
  );
}

function describeRequestError(
  error: unknown,
  step: McpStep,
  what: string,
  options: McpClientOptions,
  problem: MakeProblem,
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
