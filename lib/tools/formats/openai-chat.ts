/**
 * OpenAI Chat Completions tools: `[{type:"function", function:{name, description, parameters,
 * strict?}}]`. Detection and rendering.
 */
import { joinPointer } from '../../result';
import { isJsonObject } from '../json-schema';
import type { JsonSchema, ToolDeclaration } from '../types';
import {
  checkFunctionType,
  describeValue,
  detectItems,
  getDescription,
  getToolList,
  notToolObject,
  problem,
  reportUncarried,
  type DeclarationShape,
} from './common';
import { getOpenAiParameters, type ToolRenderOptions } from './openai-parameters';

/** A Chat Completions function tool (`ChatCompletionTool`). */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean };
}

export const chatShape: DeclarationShape = {
  format: 'openai-chat',
  label:
    'OpenAI Chat Completions tools ([{"type":"function","function":{"name","description","parameters"}}])',
  detect(input) {
    const items = getToolList(
      { value: input, path: '' },
      (v) => v.type === 'function' && isJsonObject(v.function),
    );
    if (!Array.isArray(items)) return { problems: [items] };
    return detectItems(items, (item) => {
      if (!isJsonObject(item.value)) return notToolObject(item);
      const tool = item.value;
      const wrongType = checkFunctionType(tool, item.path);
      if (wrongType) return wrongType;
      const fn = tool.function;
      const fnPath = joinPointer(item.path, 'function');
      if (fn === undefined) return problem(fnPath, 'missing');
      if (!isJsonObject(fn)) return problem(fnPath, `expected an object, found ${describeValue(fn)}`);
      return {
        path: fnPath,
        name: fn.name,
        namePath: joinPointer(fnPath, 'name'),
        description: fn.description,
        descriptionPath: joinPointer(fnPath, 'description'),
        schema: fn.parameters,
        schemaPath: joinPointer(fnPath, 'parameters'),
        schemaDialect: 'json-schema',
      };
    });
  },
};

/**
 * Render one tool for OpenAI Chat Completions: `{type:"function", function:{…}}`. Chat tools
 * have no title, output schema or MCP metadata; their absence is reported on `opts.issues`.
 */
export function renderChatTool(tool: ToolDeclaration, opts: ToolRenderOptions = {}): ChatTool {
  const { parameters, strict } = getOpenAiParameters(tool, opts.strict, opts.issues);
  reportUncarried(opts.issues, tool, 'OpenAI Chat Completions', []);
  // Built key by key so the JSON reads name, description, parameters, strict.
  const fn: Partial<ChatTool['function']> = { name: opts.name ?? tool.name };
  const description = getDescription(tool);
  if (description !== undefined) fn.description = description;
  fn.parameters = parameters;
  if (opts.strict !== undefined) fn.strict = strict;
  return { type: 'function', function: fn as ChatTool['function'] };
}
