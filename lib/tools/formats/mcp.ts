/**
 * MCP: a `tools/list` result (`{tools:[{name, title?, description, inputSchema, outputSchema?,
 * annotations?}]}`), also inside a JSON-RPC response. Detection and rendering; names are never
 * aliased, MCP allows them all.
 */
import { joinPointer, type Issue } from '../../result';
import { isJsonObject } from '../json-schema';
import type { JsonSchema, ToolDeclaration } from '../types';
import {
  describeValue,
  detectItems,
  getToolList,
  notToolObject,
  problem,
  unwrapJsonRpc,
  type DeclarationShape,
  type Item,
  type RawTool,
} from './common';

/** An MCP `Tool` as listed by `tools/list`. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: Record<string, unknown>;
  icons?: unknown[];
  execution?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

function readMcpTool(item: Item): Issue | RawTool {
  if (!isJsonObject(item.value)) return notToolObject(item);
  const tool = item.value;
  if (!('inputSchema' in tool)) {
    return problem(joinPointer(item.path, 'inputSchema'), 'missing (an MCP tool has "inputSchema")');
  }
  return {
    path: item.path,
    name: tool.name,
    namePath: joinPointer(item.path, 'name'),
    title: tool.title,
    description: tool.description,
    descriptionPath: joinPointer(item.path, 'description'),
    schema: tool.inputSchema,
    schemaPath: joinPointer(item.path, 'inputSchema'),
    schemaDialect: 'json-schema',
    outputSchema: tool.outputSchema,
    outputSchemaPath: joinPointer(item.path, 'outputSchema'),
    outputDialect: 'json-schema',
    annotations: tool.annotations,
    icons: tool.icons,
    execution: tool.execution,
    meta: tool._meta,
  };
}

export const mcpShape: DeclarationShape = {
  format: 'mcp',
  label: 'an MCP tools/list result ({"tools":[{"name","description","inputSchema"}]})',
  detect(input) {
    const root = unwrapJsonRpc(input);
    if (
      isJsonObject(root.value) &&
      isJsonObject(root.value.error) &&
      root.path === '' &&
      'jsonrpc' in root.value
    ) {
      return { problems: [problem('/error', 'this is a JSON-RPC error response, not a tools/list result')] };
    }
    if (!isJsonObject(root.value) && !Array.isArray(root.value)) {
      return {
        problems: [problem(root.path, `expected {"tools": [...]}, found ${describeValue(root.value)}`)],
      };
    }
    const items = getToolList(root, (v) => 'inputSchema' in v && 'name' in v);
    if (!Array.isArray(items)) return { problems: [items] };
    return detectItems(items, readMcpTool);
  },
};

/**
 * Render one tool as an MCP `Tool`: every field of the MCP Tool schema the declaration has
 * (title, output schema, annotations, icons, execution, `_meta`) is carried, so MCP to MCP
 * loses nothing. Names are not aliased: MCP allows them all.
 */
export function renderMcpTool(tool: ToolDeclaration): McpTool {
  const out: McpTool = { name: tool.name } as McpTool;
  if (tool.title !== undefined) out.title = tool.title;
  out.description = tool.description;
  out.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) out.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  if (tool.icons !== undefined) out.icons = tool.icons;
  if (tool.execution !== undefined) out.execution = tool.execution;
  if (tool._meta !== undefined) out._meta = tool._meta;
  return out;
}
