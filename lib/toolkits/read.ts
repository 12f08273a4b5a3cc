/**
 * Reading a toolkit's declarations from a file as uploaded or pasted: any format the core knows,
 * checked for the number of tools a toolkit may hold. Pure; the routes store the result.
 */
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import { getStorableIssues } from '../tools/storable';
import { importDeclarations, parseDeclarationsText } from '../tools/import';
import type { DeclarationFormat, ToolDeclaration, ToolSource } from '../tools/types';

/** Most tools one toolkit may hold. */
export const MAX_TOOLKIT_TOOLS = 2000;

/** A declarations file as uploaded or pasted: its text, or already-parsed JSON. */
export type DeclarationsInput = { text: string } | { declarations: unknown };

/** Reads declarations in any format the core knows; issues are located in the input. */
export function readDeclarations(
  input: DeclarationsInput,
  toolkitName: string,
): Result<{ format: DeclarationFormat; tools: ToolDeclaration[] }> {
  const source: ToolSource = { kind: 'file', toolkit: toolkitName };
  const imported =
    'text' in input
      ? parseDeclarationsText(input.text, { source })
      : importDeclarations(input.declarations, { source });
  if (!imported.ok) return imported;
  const limited = checkToolCount(imported.value.tools);
  if (!limited.ok) return limited;
  const unstorable = getDeclarationStorageIssues(imported.value.tools);
  return unstorable.length ? err(unstorable) : imported;
}

/**
 * Why declarations cannot be stored (lib/tools/storable.ts: nested deeper than a declaration may,
 * or text the database cannot hold), one issue per problem, located as in an MCP `tools/list`
 * answer (`/tools/<index>/inputSchema/…`), whatever format they were read from.
 */
export function getDeclarationStorageIssues(tools: readonly ToolDeclaration[]): Issue[] {
  return tools.flatMap((tool, i) =>
    getStorableIssues(tool, { at: joinPointer('/tools', i), what: `Tool "${tool.name}"` }),
  );
}

function checkToolCount(tools: readonly ToolDeclaration[]): Result<true> {
  if (tools.length === 0) {
    return err([
      { path: '', code: 'no_tools', message: 'The file declares no tools; a toolkit needs at least one.' },
    ]);
  }
  if (tools.length > MAX_TOOLKIT_TOOLS) {
    return err([
      {
        path: '',
        code: 'too_many_tools',
        message: `The file declares ${tools.length} tools; a toolkit holds at most ${MAX_TOOLKIT_TOOLS}. Split it.`,
      },
    ]);
  }
  return ok(true);
}
