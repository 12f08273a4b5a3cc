/**
 * The provider formats, one module each (detect, read and render): MCP, OpenAI Chat Completions,
 * OpenAI Responses, Gemini, Anthropic, and the bare list (read only). The `prompt` text
 * catalogue is `lib/tools/catalogue.ts`.
 */
import { anthropicShape } from './anthropic';
import { bareShape } from './bare';
import type { DeclarationShape } from './common';
import { geminiShape } from './gemini';
import { mcpShape } from './mcp';
import { chatShape } from './openai-chat';
import { responsesShape } from './openai-responses';

/** The shapes in the order they are tried: the first that finds nothing wrong reads the file. */
export const DECLARATION_SHAPES: readonly DeclarationShape[] = [
  mcpShape,
  chatShape,
  responsesShape,
  geminiShape,
  anthropicShape,
  bareShape,
];

export type { DeclarationShape, RawTool } from './common';
export { renderMcpTool, type McpTool } from './mcp';
export { renderChatTool, type ChatTool } from './openai-chat';
export { renderResponsesTool, type ResponsesTool } from './openai-responses';
export type { StrictOption, ToolRenderOptions } from './openai-parameters';
export {
  renderGeminiDeclarations,
  type GeminiFunctionDeclaration,
  type GeminiRenderOptions,
  type GeminiTool,
} from './gemini';
export { renderAnthropicTool, type AnthropicTool } from './anthropic';
