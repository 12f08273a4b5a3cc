/**
 * Tool declarations: import from any provider shape, render to any provider shape, aliases for
 * provider name rules, OpenAI strict conversion, canonical JSON and content hashes. Pure.
 */
export type {
  DeclarationFormat,
  JsonSchema,
  ConversionIssue,
  ParamType,
  RenderTarget,
  ToolDeclaration,
  ToolSource,
} from './types';
export { DEFAULT_SYSTEM_PARAMS } from './types';
export {
  importDeclarations,
  parseDeclarationsText,
  type ImportOptions,
  type ImportedDeclarations,
} from './import';
export { parseJsonText, getLineColumn } from './json-text';
export {
  convertTools,
  renderTools,
  type ConvertedTools,
  type RenderOptions,
  type RenderedTools,
} from './render';
export {
  renderChatTool,
  renderResponsesTool,
  renderGeminiDeclarations,
  renderAnthropicTool,
  renderMcpTool,
  type ToolRenderOptions,
  type GeminiRenderOptions,
  type StrictOption,
  type ChatTool,
  type ResponsesTool,
  type AnthropicTool,
  type McpTool,
  type GeminiTool,
  type GeminiFunctionDeclaration,
} from './formats';
export { renderToolCatalogue, type CatalogueOptions } from './catalogue';
export {
  createToolAliases,
  getToolNamePattern,
  OPENAI_TOOL_NAME_PATTERN,
  GEMINI_TOOL_NAME_PATTERN,
  type ToolAliases,
} from './aliases';
export { toStrictSchema, type StrictSchemaResult } from './strict-schema';
export {
  toGeminiSchema,
  fromGeminiSchema,
  type GeminiSchemaResult,
  type GeminiTypeCase,
} from './gemini-schema';
export { canonicalJson, hashDeclaration } from './canonical-json';
export { sha256, sha256Hex } from './sha256';
export {
  getParamType,
  getObjectProperties,
  resolveLocalRef,
  resolveSchema,
  isJsonObject,
} from './json-schema';
