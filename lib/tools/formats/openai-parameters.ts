/**
 * What the two OpenAI formats (Chat Completions and Responses) share: the `parameters` they
 * send, converted for strict mode when asked.
 */
import { toStrictSchema } from '../strict-schema';
import type { JsonSchema, ToolDeclaration } from '../types';

/** `true` always sends strict schemas; `'auto'` only when the conversion lost nothing. */
export type StrictOption = boolean | 'auto';

/** Options shared by the per-tool OpenAI renderers. */
export interface ToolRenderOptions {
  /** The provider-side name; defaults to the tool's name. */
  name?: string;
  /** OpenAI strict mode (Chat and Responses only). Default false. */
  strict?: StrictOption;
}

/** The parameters to send and whether they are strict. */
export function getOpenAiParameters(
  tool: ToolDeclaration,
  strict: StrictOption | undefined,
): { parameters: JsonSchema; strict: boolean } {
  if (!strict) return { parameters: tool.inputSchema, strict: false };
  const converted = toStrictSchema(tool.inputSchema);
  if (strict === 'auto' && converted.issues.length > 0)
    return { parameters: tool.inputSchema, strict: false };
  return { parameters: converted.schema, strict: true };
}
