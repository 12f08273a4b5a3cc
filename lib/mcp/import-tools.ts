import 'server-only';
/**
 * An MCP server's `tools/list` answer (all pages joined) read into canonical declarations by the
 * same importer as uploaded files, so an MCP tool and a file tool are the same thing afterwards.
 */
import { err, ok, type Result } from '../result';
import { importDeclarations } from '../tools/import';
import type { ToolDeclaration, ToolSource } from '../tools/types';

/** Read the joined `tools` arrays of every page; issues are located as `/tools/<index>/…`. */
export function importMcpToolList(raw: readonly unknown[], source: ToolSource): Result<ToolDeclaration[]> {
  if (raw.length === 0) return ok([]);
  const imported = importDeclarations({ tools: raw }, { source });
  if (!imported.ok) {
    // The answer is MCP by construction; the importer's notes on why it is not Gemini, OpenAI, …
    // would only bury the one that matters.
    const mcpOnly = imported.error.filter(
      (issue) => issue.code === 'unrecognised_format' && /MCP/.test(issue.message),
    );
    const unrecognised = imported.error.some((issue) => issue.code === 'unrecognised_format');
    return err(
      unrecognised && mcpOnly.length
        ? mcpOnly.map((issue) => ({ ...issue, code: 'malformed_list' }))
        : imported.error,
    );
  }
  if (imported.value.format !== 'mcp') {
    return err([
      {
        path: '/tools',
        message: `the tools do not have the MCP shape {name, description, inputSchema} (they read as ${imported.value.format})`,
        code: 'malformed_list',
      },
    ]);
  }
  return ok(imported.value.tools);
}
