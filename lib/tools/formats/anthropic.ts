/** Anthropic Messages API client tools: `[{name, description, input_schema}]`. Detection and rendering. */
import { joinPointer } from '../../result';
import { isJsonObject } from '../json-schema';
import type { ConversionIssue, JsonSchema, ToolDeclaration } from '../types';
import {
  describeValue,
  detectItems,
  getDescription,
  getToolList,
  notToolObject,
  problem,
  reportUncarried,
  type DeclarationShape,
} from './common';

/** An Anthropic Messages API client tool. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonSchema;
}

export const anthropicShape: DeclarationShape = {
  format: 'anthropic',
  label: 'Anthropic tools ([{"name","description","input_schema"}])',
  detect(input) {
    const items = getToolList({ value: input, path: '' }, (v) => 'input_schema' in v && 'name' in v);
    if (!Array.isArray(items)) return { problems: [items] };
    return detectItems(items, (item) => {
      if (!isJsonObject(item.value)) return notToolObject(item);
      const tool = item.value;
      if (!('input_schema' in tool)) return problem(joinPointer(item.path, 'input_schema'), 'missing');
      if (tool.type !== undefined && tool.type !== 'custom') {
        return problem(
          joinPointer(item.path, 'type'),
          `expected no type or "custom", found ${describeValue(tool.type)}`,
        );
      }
      return {
        path: item.path,
        name: tool.name,
        namePath: joinPointer(item.path, 'name'),
        description: tool.description,
        descriptionPath: joinPointer(item.path, 'description'),
        schema: tool.input_schema,
        schemaPath: joinPointer(item.path, 'input_schema'),
        schemaDialect: 'json-schema',
      };
    });
  },
};

/**
 * Render one tool for Anthropic's Messages API: `{name, description, input_schema}`, which takes
 * JSON Schema as it is. Title, output schema and MCP metadata have no field; their absence is
 * reported on `opts.issues`.
 */
export function renderAnthropicTool(
  tool: ToolDeclaration,
  opts: { name?: string; issues?: ConversionIssue[] } = {},
): AnthropicTool {
  reportUncarried(opts.issues, tool, 'Anthropic', []);
  const out: Partial<AnthropicTool> = { name: opts.name ?? tool.name };
  const description = getDescription(tool);
  if (description !== undefined) out.description = description;
  out.input_schema = tool.inputSchema;
  return out as AnthropicTool;
}
