import 'server-only';
/** An MCP server's tools as a toolkit's declarations: listed with the toolkit's limit, named after it. */
import { err, ok, type Result } from '../result';
import { getDeclarationStorageIssues, MAX_TOOLKIT_TOOLS } from '../toolkits/read';
import type { ToolDeclaration } from '../tools/types';
import {
  getServerLabel,
  listMcpTools,
  type McpClientOptions,
  type McpProblem,
  type McpTarget,
} from './client';

/**
 * Lists an MCP server's tools for a toolkit named `toolkitName` (tools carry it as their source's
 * toolkit); tools the database cannot store are a problem of the listing, with their paths.
 */
export async function readMcpDeclarations(
  target: McpTarget,
  toolkitName: string,
  options: McpClientOptions,
): Promise<Result<ToolDeclaration[], McpProblem>> {
  const listed = await listMcpTools(target, { ...options, maxTools: MAX_TOOLKIT_TOOLS });
  if (!listed.ok) return listed;
  const tools = listed.value.tools.map((tool) => ({
    ...tool,
    source: { ...tool.source!, toolkit: toolkitName },
  }));
  const unstorable = getDeclarationStorageIssues(tools);
  if (unstorable.length) {
    const server = getServerLabel(target);
    return err({
      server,
      step: 'list',
      code: 'unstorable_tools',
      message: `MCP server ${server}: its tools cannot be stored: ${unstorable[0].path}: ${unstorable[0].message}`,
      issues: unstorable,
    });
  }
  return ok(tools);
}
