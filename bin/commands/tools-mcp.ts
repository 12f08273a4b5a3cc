/**
 * The MCP half of `toolflow tools`: read declarations from a live MCP server instead of a file.
 * `--mcp-url URL` (Streamable HTTP, or SSE for older servers), `--mcp-stdio "CMD"` (a command the
 * operator types on their own machine) or `--mcp-server NAME` (a server from toolflow.config.json
 * or TOOLFLOW_MCP_SERVERS).
 *
 * The CLI is the operator's own process, not the web server fetching a URL a browser sent, so
 * private and loopback URLs are allowed here (a local server on 127.0.0.1 is the usual case).
 */
import { allowServerOnlyImports } from '../../lib/server-context';
import type { McpClientOptions, McpTarget } from '../../lib/mcp/client';
import type { ToolDeclaration } from '../../lib/tools';
import { printIssues, UsageError, type CliIo } from '../io';

/** The options this adds to `toolflow tools`. */
export const MCP_OPTIONS = {
  'mcp-url': { type: 'string' },
  'mcp-stdio': { type: 'string' },
  'mcp-server': { type: 'string' },
  timeout: { type: 'string' },
} as const;

export const MCP_USAGE = `  --mcp-url URL          read the tools from an MCP server over HTTP (instead of --in)
  --mcp-stdio "CMD"      start CMD and read its tools over stdio, e.g.
                         "npx -y @modelcontextprotocol/server-memory"
  --mcp-server NAME      a stdio server configured in toolflow.config.json "mcpServers"
                         (or TOOLFLOW_MCP_SERVERS)
  --timeout SECONDS      limit for each MCP step (default 30)
`;

export interface McpOptionValues {
  'mcp-url'?: string;
  'mcp-stdio'?: string;
  'mcp-server'?: string;
  timeout?: string;
}

/** True when the command line asks for an MCP server rather than a file. */
export function hasMcpSource(values: McpOptionValues): boolean {
  return (
    values['mcp-url'] !== undefined || values['mcp-stdio'] !== undefined || values['mcp-server'] !== undefined
  );
}

async function loadMcp() {
  // lib/mcp is `server-only`; the CLI is server code too (see lib/server-context.ts).
  allowServerOnlyImports();
  const [client, config, spaces] = await Promise.all([
    import('../../lib/mcp/client'),
    import('../../lib/mcp/config'),
    import('../../lib/mcp/sample-spaces'),
  ]);
  return { ...client, ...config, ...spaces };
}

/**
 * Connect to the server the options name and list its tools. Problems are printed (which server,
 * which step, why) and give `undefined`; a bad combination of options is a UsageError.
 */
export async function readMcpTools(
  values: McpOptionValues & { in?: string },
  io: CliIo,
): Promise<ToolDeclaration[] | undefined> {
  const given = (['in', 'mcp-url', 'mcp-stdio', 'mcp-server'] as const).filter(
    (k) => values[k] !== undefined,
  );
  if (given.length > 1) throw new UsageError(`give only one of ${given.map((k) => '--' + k).join(', ')}.`);
  const seconds = values.timeout === undefined ? 30 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`--timeout must be a positive number of seconds, not "${values.timeout}".`);
  }

  const mcp = await loadMcp();
  let target: McpTarget;
  if (values['mcp-url'] !== undefined) {
    target = { kind: 'http', url: values['mcp-url'] };
  } else if (values['mcp-stdio'] !== undefined) {
    const words = mcp.splitCommandLine(values['mcp-stdio']);
    if (!words.ok) throw new UsageError(`--mcp-stdio: ${words.error[0].message}`);
    const [command, ...args] = words.value;
    target = { kind: 'stdio', command, args };
  } else {
    // On the operator's own machine, a runnable sample acts in the local space.
    const configured = await mcp.getConfiguredStdioTarget(values['mcp-server']!, {
      space: mcp.LOCAL_SAMPLE_SPACE,
    });
    if (!configured.ok) {
      printIssues(io, '--mcp-server', configured.error);
      return undefined;
    }
    target = configured.value;
  }

  const options: McpClientOptions = {
    timeoutMs: Math.round(seconds * 1000),
    maxBytes: 10_000_000,
    allowPrivate: true,
  };
  const listed = await mcp.listMcpTools(target, options);
  if (!listed.ok) {
    io.stderr(`toolflow: ${listed.error.message}\n`);
    if (listed.error.issues) printIssues(io, mcp.getServerLabel(target), listed.error.issues);
    return undefined;
  }
  for (const warning of listed.value.warnings) {
    io.stderr(`toolflow: warning: ${listed.value.server} ${warning.path}: ${warning.message}\n`);
  }
  return listed.value.tools;
}
