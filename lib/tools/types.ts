/**
 * The canonical tool declaration every input format is read into and every provider format is
 * rendered from. Pure data (docs/design.md §3.1).
 */

/** A JSON Schema document or sub-schema, kept as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Parameter types of the node JSON contract (docs/design.md §2.4), as JSON Schema types map to them
 * (`getParamType`). Defined here, with the mapping, so lib/tools needs nothing from lib/workflow.
 */
export type ParamType = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'any';

/** The declaration file shapes the importer recognises (docs/design.md §3.2). */
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
  /** MCP `icons`: images a client may show for the tool (`[{src, mimeType?, sizes?, theme?}]`). */
  icons?: unknown[];
  /** MCP `execution`: how the tool runs, e.g. `{taskSupport: "optional"}` (MCP 2025-11-25). */
  execution?: Record<string, unknown>;
  /** MCP `_meta`: metadata the server attaches to the tool, kept as sent. */
  _meta?: Record<string, unknown>;
  source?: ToolSource;
}

/**
 * One thing a conversion to a provider format changed or could not carry (docs/design.md §3.4: a
 * conversion never loses meaning silently).
 */
export interface ConversionIssue {
  /** The tool's name as declared (not the alias a provider may need). */
  tool: string;
  /** JSON Pointer into the canonical declaration: `/inputSchema/properties/tags`, `/outputSchema`. */
  path: string;
  code: string;
  message: string;
  /**
   * `loss`: what the tool accepts or returns, as the provider sees it, is not what it declares
   * (a schema narrowed or widened, an output schema dropped). `note`: the tool's meaning is
   * kept (left non-strict, renamed, or metadata the format has no field for).
   */
  severity: 'loss' | 'note';
}

/** Parameters the platform injects itself; skipped when building node parameters (docs/design.md §2.2). */
export const DEFAULT_SYSTEM_PARAMS: readonly string[] = ['executor', 'storage'];

/** The provider formats (and the plain-text catalogue) declarations are rendered into. */
export type RenderTarget = 'openai-chat' | 'openai-responses' | 'gemini' | 'anthropic' | 'mcp' | 'prompt';
