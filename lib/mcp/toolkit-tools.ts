import 'server-only';
/** An MCP server's tools as a toolkit's declarations: listed with the toolkit's limit, named after it. */
import { ok, type Result } from '../result';
import { MAX_TOOLKIT_TOOLS } from '../toolkits/read';
import type { ToolDeclaration } from '../tools/types';
import { listMcpTools, type McpClientOptions, type McpProblem, type McpTarget } from './client';

/** Lists an MCP server's tools for a toolkit named `toolkitName` (tools carry it as their source's toolkit). */
export async function readMcpDeclarations(
  target: McpTarget,
  toolkitName: string,
  options: McpClientOptions,
): Promise<Result<ToolDeclaration[], McpProblem>> {
  const listed = await listMcpTools(target, { ...options, maxTools: MAX_TOOLKIT_TOOLS });
  if (!listed.ok) return listed;
  return ok(
    listed.value.tools.map((tool) => ({ ...tool, source: { ...tool.source!, toolkit: toolkitName } })),
  );
}
