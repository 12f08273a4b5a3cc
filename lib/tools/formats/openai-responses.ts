/**
 * OpenAI Responses tools: flat `[{type:"function", name, description, parameters, strict,
 * output_schema?}]`. Detection and rendering.
 */
import { joinPointer } from '../../result';
import { isJsonObject } from '../json-schema';
import type { JsonSchema, ToolDeclaration } from '../types';
import {
  checkFunctionType,
  detectItems,
  getDescription,
  getToolList,
  notToolObject,
  problem,
  reportUncarried,
  type DeclarationShape,
} from './common';
import { getOpenAiParameters, type ToolRenderOptions } from './openai-parameters';

/** A Responses API function tool (`FunctionTool`). */
export interface ResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonSchema;
  /** The JSON value the function's (string) output encodes. */
  output_schema?: JsonSchema;
  strict: boolean;
}

export const responsesShape: DeclarationShape = {
  format: 'openai-responses',
  label: 'OpenAI Responses tools ([{"type":"function","name","description","parameters"}])',
  detect(input) {
    const items = getToolList(
      { value: input, path: '' },
      (v) => v.type === 'function' && 'name' in v && !('function' in v),
    );
    if (!Array.isArray(items)) return { problems: [items] };
    return detectItems(items, (item) => {
      if (!isJsonObject(item.value)) return notToolObject(item);
      const tool = item.value;
      const wrongType = checkFunctionType(tool, item.path);
      if (wrongType) return wrongType;
      if ('function' in tool)
        return problem(
          joinPointer(item.path, 'function'),
          'present (a Responses tool is flat: name and parameters sit beside "type")',
        );
      if (!('name' in tool)) return problem(joinPointer(item.path, 'name'), 'missing');
      return {
        path: item.path,
        name: tool.name,
        namePath: joinPointer(item.path, 'name'),
        description: tool.description ?? undefined,
        descriptionPath: joinPointer(item.path, 'description'),
        schema: tool.parameters ?? undefined,
        schemaPath: joinPointer(item.path, 'parameters'),
        schemaDialect: 'json-schema',
        outputSchema: tool.output_schema ?? undefined,
        outputSchemaPath: joinPointer(item.path, 'output_schema'),
        outputDialect: 'json-schema',
      };
    });
  },
};

/**
 * Render one tool for the OpenAI Responses API: flat `{type:"function", name, …, strict}`, with
 * the output schema as `output_schema`. Title and MCP metadata have no field; their absence is
 * reported on `opts.issues`.
 */
export function renderResponsesTool(tool: ToolDeclaration, opts: ToolRenderOptions = {}): ResponsesTool {
  const { parameters, strict } = getOpenAiParameters(tool, opts.strict, opts.issues);
  reportUncarried(opts.issues, tool, 'OpenAI Responses', ['outputSchema']);
  const out: Partial<ResponsesTool> = { type: 'function', name: opts.name ?? tool.name };
  const description = getDescription(tool);
  if (description !== undefined) out.description = description;
  out.parameters = parameters;
  if (tool.outputSchema !== undefined) out.output_schema = tool.outputSchema;
  // Always explicit: the spec marks it required and the API's default differs between endpoints.
  out.strict = strict;
  return out as ResponsesTool;
}
