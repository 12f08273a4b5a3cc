/**
 * Rendering canonical declarations for a target (DESIGN §2 "Tool declarations out"): each
 * provider's renderer lives in `formats/<provider>.ts`; this picks one, gives tools the names
 * the provider allows, leaves out system parameters, and renders the `prompt` catalogue.
 */
import { exhaustiveSwitchError } from '../result';
import { createToolAliases, getToolNamePattern, type ToolAliases } from './aliases';
import { renderToolCatalogue, type CatalogueOptions } from './catalogue';
import {
  renderAnthropicTool,
  renderChatTool,
  renderGeminiDeclarations,
  renderMcpTool,
  renderResponsesTool,
  type AnthropicTool,
  type ChatTool,
  type GeminiTool,
  type McpTool,
  type ResponsesTool,
  type StrictOption,
} from './formats';
import type { GeminiTypeCase } from './gemini-schema';
import { isJsonObject } from './json-schema';
import type { JsonSchema, RenderTarget, ToolDeclaration } from './types';

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
