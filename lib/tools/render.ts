/**
 * Rendering canonical declarations for each provider (DESIGN §2 "Tool declarations out"):
 * Chat Completions nests under `function`, Responses is flat, Gemini uses its OpenAPI subset (or
 * `parametersJsonSchema`), Anthropic uses `input_schema`, MCP the tools/list shape, and `prompt`
 * the plain-text catalogue for models without native function calling.
 */
import { exhaustiveSwitchError } from '../result';
import { createToolAliases, getToolNamePattern, type ToolAliases } from './aliases';
import { renderToolCatalogue, type CatalogueOptions } from './catalogue';
import { toGeminiSchema, type GeminiTypeCase } from './gemini-schema';
import { isJsonObject } from './json-schema';
import { toStrictSchema } from './strict-schema';
import type { JsonSchema, RenderTarget, ToolDeclaration } from './types';

/** `true` always sends strict schemas; `'auto'` only when the conversion lost nothing. */
export type StrictOption = boolean | 'auto';

/** Options shared by the per-tool renderers. */
export interface ToolRenderOptions {
  /** The provider-side name; defaults to the tool's name. */
  name?: string;
  /** OpenAI strict mode (Chat and Responses only). Default false. */
  strict?: StrictOption;
}

/** Options of `renderTools`. */
export interface RenderOptions extends CatalogueOptions {
  /**
   * Name mapping for providers with name rules. When absent, aliases are made with
   * `createToolAliases(tools, { pattern: getToolNamePattern(target) })`, which is deterministic,
   * so the caller can build the same mapping to read tool calls back.
   */
  aliases?: ToolAliases;
  strict?: StrictOption;
  /** Gemini: `openapi` (default) converts to the `parameters` subset; `json-schema` sends
   * `parametersJsonSchema` unchanged. */
  geminiSchema?: 'openapi' | 'json-schema';
  geminiTypeCase?: GeminiTypeCase;
}

/** A Chat Completions function tool (`ChatCompletionTool`). */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean };
}

/** A Responses API function tool (`FunctionTool`). */
export interface ResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** An Anthropic Messages API client tool. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonSchema;
}

/** An MCP `Tool` as listed by `tools/list`. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: Record<string, unknown>;
}

/** One Gemini `FunctionDeclaration`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  parametersJsonSchema?: JsonSchema;
}

/** A Gemini `Tool` holding function declarations. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A description for providers that have no separate title: the description, else the title. */
function getDescription(tool: ToolDeclaration): string | undefined {
  if (tool.description !== '') return tool.description;
  return tool.title !== undefined && tool.title !== '' ? tool.title : undefined;
}

function getParameters(
  tool: ToolDeclaration,
  strict: StrictOption | undefined,
): { parameters: JsonSchema; strict: boolean } {
  if (!strict) return { parameters: tool.inputSchema, strict: false };
  const converted = toStrictSchema(tool.inputSchema);
  if (strict === 'auto' && converted.issues.length > 0)
    return { parameters: tool.inputSchema, strict: false };
  return { parameters: converted.schema, strict: true };
}

/** Render one tool for OpenAI Chat Completions: `{type:"function", function:{…}}`. */
export function renderChatTool(tool: ToolDeclaration, opts: ToolRenderOptions = {}): ChatTool {
  const { parameters, strict } = getParameters(tool, opts.strict);
  // Built key by key so the JSON reads name, description, parameters, strict.
  const fn: Partial<ChatTool['function']> = { name: opts.name ?? tool.name };
  const description = getDescription(tool);
  if (description !== undefined) fn.description = description;
  fn.parameters = parameters;
  if (opts.strict !== undefined) fn.strict = strict;
  return { type: 'function', function: fn as ChatTool['function'] };
}

/** Render one tool for the OpenAI Responses API: flat `{type:"function", name, …, strict}`. */
export function renderResponsesTool(tool: ToolDeclaration, opts: ToolRenderOptions = {}): ResponsesTool {
  const { parameters, strict } = getParameters(tool, opts.strict);
  const out: Partial<ResponsesTool> = { type: 'function', name: opts.name ?? tool.name };
  const description = getDescription(tool);
  if (description !== undefined) out.description = description;
  out.parameters = parameters;
  // Always explicit: the spec marks it required and the API's default differs between endpoints.
  out.strict = strict;
  return out as ResponsesTool;
}

/** Render one tool for Anthropic's Messages API: `{name, description, input_schema}`. */
export function renderAnthropicTool(
  tool: ToolDeclaration,
  opts: Pick<ToolRenderOptions, 'name'> = {},
): AnthropicTool {
  const out: Partial<AnthropicTool> = { name: opts.name ?? tool.name };
  const description = getDescription(tool);
  if (description !== undefined) out.description = description;
  out.input_schema = tool.inputSchema;
  return out as AnthropicTool;
}

/** Render one tool as an MCP `Tool` (names are not aliased: MCP allows them all). */
export function renderMcpTool(tool: ToolDeclaration): McpTool {
  const out: McpTool = { name: tool.name } as McpTool;
  if (tool.title !== undefined) out.title = tool.title;
  out.description = tool.description;
  out.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) out.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  return out;
}

/** Options of `renderGeminiDeclarations`. */
export interface GeminiRenderOptions {
  aliases?: ToolAliases;
  /** `openapi` (default): `parameters` in Gemini's subset; `json-schema`: `parametersJsonSchema`. */
  schema?: 'openapi' | 'json-schema';
  typeCase?: GeminiTypeCase;
}

function hasProperties(schema: JsonSchema): boolean {
  return isJsonObject(schema.properties) && Object.keys(schema.properties).length > 0;
}

/**
 * Render tools as one Gemini `Tool`: `{functionDeclarations:[…]}`. In `openapi` mode the
 * parameters are converted with `toGeminiSchema` (see its issues for what was lost); a tool
 * without parameters leaves `parameters` unset, as Gemini rejects an empty OBJECT.
 */
export function renderGeminiDeclarations(
  tools: readonly ToolDeclaration[],
  opts: GeminiRenderOptions = {},
): GeminiTool {
  const aliases = opts.aliases ?? createToolAliases(tools, { pattern: getToolNamePattern('gemini') });
  const functionDeclarations = tools.map((tool) => {
    const decl: GeminiFunctionDeclaration = { name: aliases.toAlias(tool.name) };
    const description = getDescription(tool);
    if (description !== undefined) decl.description = description;
    if (opts.schema === 'json-schema') {
      decl.parametersJsonSchema = tool.inputSchema;
    } else {
      // Checked after conversion: parameters given through a root allOf or $ref have no root
      // "properties" until the converter has merged or inlined them.
      const parameters = toGeminiSchema(tool.inputSchema, { typeCase: opts.typeCase }).schema;
      if (hasProperties(parameters)) decl.parameters = parameters;
    }
    return decl;
  });
  return { functionDeclarations };
}

/** The tool without the given top-level parameters (system parameters the platform fills). */
function withoutParams(tool: ToolDeclaration, omit: ReadonlySet<string>): ToolDeclaration {
  const properties = tool.inputSchema.properties;
  if (omit.size === 0 || !isJsonObject(properties) || !Object.keys(properties).some((name) => omit.has(name)))
    return tool;
  const inputSchema: JsonSchema = {
    ...tool.inputSchema,
    properties: Object.fromEntries(Object.entries(properties).filter(([name]) => !omit.has(name))),
  };
  if (Array.isArray(tool.inputSchema.required))
    inputSchema.required = tool.inputSchema.required.filter((name) => !omit.has(name as string));
  return { ...tool, inputSchema };
}

/** What `renderTools` returns per target. */
export interface RenderedTools {
  'openai-chat': ChatTool[];
  'openai-responses': ResponsesTool[];
  gemini: GeminiTool;
  anthropic: AnthropicTool[];
  mcp: { tools: McpTool[] };
  prompt: string;
}

/**
 * Render declarations for a target. Names a provider forbids are replaced by aliases (see
 * `RenderOptions.aliases`); `omitParams` (e.g. system parameters) are left out of every
 * target; `prompt` returns the text catalogue, every other target JSON the importer reads back.
 */
export function renderTools<T extends RenderTarget>(
  allTools: readonly ToolDeclaration[],
  target: T,
  opts: RenderOptions = {},
): RenderedTools[T] {
  const omit = new Set(opts.omitParams ?? []);
  const tools = target === 'prompt' ? allTools : allTools.map((tool) => withoutParams(tool, omit));
  const pattern = getToolNamePattern(target);
  const aliases = opts.aliases ?? (pattern ? createToolAliases(tools, { pattern }) : undefined);
  const nameOf = (tool: ToolDeclaration) => (aliases ? aliases.toAlias(tool.name) : tool.name);
  const rendered: RenderedTools[RenderTarget] = (() => {
    switch (target) {
      case 'openai-chat':
        return tools.map((tool) => renderChatTool(tool, { name: nameOf(tool), strict: opts.strict }));
      case 'openai-responses':
        return tools.map((tool) => renderResponsesTool(tool, { name: nameOf(tool), strict: opts.strict }));
      case 'anthropic':
        return tools.map((tool) => renderAnthropicTool(tool, { name: nameOf(tool) }));
      case 'gemini':
        return renderGeminiDeclarations(tools, {
          aliases,
          schema: opts.geminiSchema,
          typeCase: opts.geminiTypeCase,
        });
      case 'mcp':
        return { tools: tools.map(renderMcpTool) };
      case 'prompt':
        return renderToolCatalogue(tools, opts);
      default:
        return exhaustiveSwitchError(target as never, 'render target');
    }
  })();
  return rendered as RenderedTools[T];
}
