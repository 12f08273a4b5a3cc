/**
 * The canonical tool declaration every input format is read into and every provider format is
 * rendered from. Pure data (DESIGN §2).
 */

/** A JSON Schema document or sub-schema, kept as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Parameter types of the node JSON contract (DESIGN §1), as JSON Schema types map to them
 * (`getParamType`). Defined here, with the mapping, so lib/tools needs nothing from lib/workflow.
 */
export type ParamType = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'any';

/** The declaration file shapes the importer recognises (DESIGN §2). */
export type DeclarationFormat = 'mcp' | 'openai-chat' | 'openai-responses' | 'gemini' | 'anthropic' | 'bare';

/** Where a declaration came from, shown on nodes and kept in exports. */
export interface ToolSource {
  kind: 'builtin' | 'file' | 'mcp-http' | 'mcp-stdio' | 'unknown';
  /** Toolkit name (or id) the tool belongs to, when known. */
  toolkit?: string;
  /** MCP server URL or configured server name, for MCP tools. */
  server?: string;
}

/** One tool, canonical. `inputSchema` is always an object schema (`type: "object"`). */
export interface ToolDeclaration {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: Record<string, unknown>;
  source?: ToolSource;
}

/** Parameters the platform injects itself; skipped when building node parameters (DESIGN §1). */
export const DEFAULT_SYSTEM_PARAMS: readonly string[] = ['executor', 'storage'];

/** The provider formats (and the plain-text catalogue) declarations are rendered into. */
export type RenderTarget = 'openai-chat' | 'openai-responses' | 'gemini' | 'anthropic' | 'mcp' | 'prompt';
