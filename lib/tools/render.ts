/**
 * Rendering canonical declarations for a target (docs/design.md §3.3): each
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
import { reportUncarried } from './formats/common';
import type { ConversionIssue, JsonSchema, RenderTarget, ToolDeclaration } from './types';

/** Options of `renderTools`. */
export interface RenderOptions extends CatalogueOptions {
  /**
   * Name mapping for providers with name rules. When absent, aliases are made with
   * `createToolAliases(tools, { pattern: getToolNamePattern(target) })`, which is deterministic,
   * so the caller can build the same mapping to read tool calls back.
   */
  aliases?: ToolAliases;
  strict?: StrictOption;
  /**
   * Gemini: `openapi` (default) converts to the `parameters` subset; `json-schema` sends
   * `parametersJsonSchema` (and `responseJsonSchema`) unchanged.
   */
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

/** The provider's name for each target, in messages. */
const TARGET_NAMES: Record<RenderTarget, string> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  gemini: 'Gemini',
  anthropic: 'Anthropic',
  mcp: 'MCP',
  prompt: 'The prompt catalogue',
};

/** A conversion's output and everything it changed or could not carry, tool by tool. */
export interface ConvertedTools<T extends RenderTarget> {
  output: RenderedTools[T];
  issues: ConversionIssue[];
}

/**
 * Render declarations for a target and report what the conversion changed (docs/design.md §3.4: never
 * silently). Names a provider forbids are replaced by aliases (see `RenderOptions.aliases`, a
 * `note`); `omitParams` (e.g. system parameters) are left out of every target; `prompt` returns
 * the text catalogue, every other target JSON the importer reads back. Issues come in tool
 * order, each with the tool's declared name and a JSON Pointer into its declaration.
 */
export function convertTools<T extends RenderTarget>(
  allTools: readonly ToolDeclaration[],
  target: T,
  opts: RenderOptions = {},
): ConvertedTools<T> {
  const omit = new Set(opts.omitParams ?? []);
  const tools = target === 'prompt' ? allTools : allTools.map((tool) => withoutParams(tool, omit));
  const pattern = getToolNamePattern(target);
  const aliases = opts.aliases ?? (pattern ? createToolAliases(tools, { pattern }) : undefined);
  const issues: ConversionIssue[] = [];
  const nameOf = (tool: ToolDeclaration) => {
    const alias = aliases ? aliases.toAlias(tool.name) : tool.name;
    if (alias !== tool.name) {
      issues.push({
        tool: tool.name,
        path: '/name',
        code: 'renamed',
        message: `${TARGET_NAMES[target]} does not allow this name; it is sent as "${alias}" (calls to "${alias}" mean this tool).`,
        severity: 'note',
      });
    }
    return alias;
  };
  const rendered: RenderedTools[RenderTarget] = (() => {
    switch (target) {
      case 'openai-chat':
        return tools.map((tool) => renderChatTool(tool, { name: nameOf(tool), strict: opts.strict, issues }));
      case 'openai-responses':
        return tools.map((tool) =>
          renderResponsesTool(tool, { name: nameOf(tool), strict: opts.strict, issues }),
        );
      case 'anthropic':
        return tools.map((tool) => renderAnthropicTool(tool, { name: nameOf(tool), issues }));
      case 'gemini': {
        // Tool by tool, so a tool's renamed note comes right before its other issues.
        const declarations = tools.flatMap((tool) => {
          nameOf(tool);
          return renderGeminiDeclarations([tool], {
            aliases,
            schema: opts.geminiSchema,
            typeCase: opts.geminiTypeCase,
            issues,
          }).functionDeclarations;
        });
        return { functionDeclarations: declarations };
      }
      case 'mcp':
        return { tools: tools.map(renderMcpTool) };
      case 'prompt':
        for (const tool of tools)
          reportUncarried(issues, tool, TARGET_NAMES.prompt, ['title', 'outputSchema']);
        return renderToolCatalogue(tools, opts);
      default:
        return exhaustiveSwitchError(target as never, 'render target');
    }
  })();
  return { output: rendered as RenderedTools[T], issues };
}

/** `convertTools` without the report: the rendered declarations only. */
export function renderTools<T extends RenderTarget>(
  tools: readonly ToolDeclaration[],
  target: T,
  opts: RenderOptions = {},
): RenderedTools[T] {
  return convertTools(tools, target, opts).output;
}
