/**
 * Gemini function declarations: `{functionDeclarations:[{name, description, parameters |
 * parametersJsonSchema, response | responseJsonSchema}]}` (also `function_declarations`, a list
 * of Gemini Tool objects, or a request's `tools`). Detection and rendering; the OpenAPI-subset
 * schema conversion itself is `lib/tools/gemini-schema.ts`.
 */
import { joinPointer, type Issue } from '../../result';
import { createToolAliases, getToolNamePattern, type ToolAliases } from '../aliases';
import { toGeminiSchema, type GeminiTypeCase } from '../gemini-schema';
import { isJsonObject } from '../json-schema';
import type { ConversionIssue, JsonSchema, ToolDeclaration } from '../types';
import {
  describeValue,
  detectItems,
  getDescription,
  getToolList,
  notToolObject,
  problem,
  reportSchemaIssues,
  reportUncarried,
  type DeclarationShape,
  type Item,
  type RawTool,
} from './common';

/** One Gemini `FunctionDeclaration`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  parametersJsonSchema?: JsonSchema;
  response?: JsonSchema;
  responseJsonSchema?: JsonSchema;
}

/** A Gemini `Tool` holding function declarations. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

function readGeminiDeclaration(item: Item): Issue | RawTool {
  if (!isJsonObject(item.value)) return notToolObject(item);
  const decl = item.value;
  if (!('name' in decl)) return problem(joinPointer(item.path, 'name'), 'missing');
  const jsonSchemaKey =
    'parametersJsonSchema' in decl
      ? 'parametersJsonSchema'
      : 'parameters_json_schema' in decl
        ? 'parameters_json_schema'
        : undefined;
  const responseJsonKey =
    'responseJsonSchema' in decl
      ? 'responseJsonSchema'
      : 'response_json_schema' in decl
        ? 'response_json_schema'
        : undefined;
  return {
    path: item.path,
    name: decl.name,
    namePath: joinPointer(item.path, 'name'),
    description: decl.description,
    descriptionPath: joinPointer(item.path, 'description'),
    schema: jsonSchemaKey ? decl[jsonSchemaKey] : decl.parameters,
    schemaPath: joinPointer(item.path, jsonSchemaKey ?? 'parameters'),
    schemaDialect: jsonSchemaKey ? 'json-schema' : 'gemini',
    outputSchema: responseJsonKey ? decl[responseJsonKey] : decl.response,
    outputSchemaPath: joinPointer(item.path, responseJsonKey ?? 'response'),
    outputDialect: responseJsonKey ? 'json-schema' : 'gemini',
  };
}

/** `functionDeclarations` (REST) or `function_declarations` (Python SDK) of one Gemini Tool. */
function getGeminiDeclarations(tool: Record<string, unknown>, path: string): Item[] | undefined {
  for (const key of ['functionDeclarations', 'function_declarations']) {
    const list = tool[key];
    if (Array.isArray(list)) {
      const base = joinPointer(path, key);
      return list.map((value, i) => ({ value, path: joinPointer(base, i) }));
    }
  }
  return undefined;
}

export const geminiShape: DeclarationShape = {
  format: 'gemini',
  label: 'Gemini function declarations ({"functionDeclarations":[{"name","description","parameters"}]})',
  detect(input) {
    const items: Item[] = [];
    const direct = isJsonObject(input) ? getGeminiDeclarations(input, '') : undefined;
    if (direct) {
      items.push(...direct);
    } else {
      // A list of Gemini Tool objects, alone or as a request's "tools"; tools of other kinds
      // (googleSearch, codeExecution) declare no functions and are skipped.
      const list = getToolList({ value: input, path: '' }, () => false);
      if (!Array.isArray(list)) {
        return {
          problems: [
            problem('', 'expected an object with "functionDeclarations" (or "function_declarations")'),
          ],
        };
      }
      let found = false;
      for (const tool of list) {
        const declarations = isJsonObject(tool.value)
          ? getGeminiDeclarations(tool.value, tool.path)
          : undefined;
        if (declarations) {
          found = true;
          items.push(...declarations);
        }
      }
      if (!found) {
        const item = list[0];
        if (item !== undefined && !isJsonObject(item.value)) {
          return {
            problems: [
              problem(
                item.path,
                `expected a Gemini tool object with "functionDeclarations", found ${describeValue(item.value)}`,
              ),
            ],
          };
        }
        const first = item?.path ?? '';
        return {
          problems: [
            problem(
              joinPointer(first, 'functionDeclarations'),
              'missing (no Gemini tool with "functionDeclarations" found)',
            ),
          ],
        };
      }
    }
    return detectItems(items, readGeminiDeclaration);
  },
};

/** Options of `renderGeminiDeclarations`. */
export interface GeminiRenderOptions {
  aliases?: ToolAliases;
  /**
   * `openapi` (default): `parameters` and `response` in Gemini's OpenAPI subset, what the
   * conversion changes reported; `json-schema`: `parametersJsonSchema` and
   * `responseJsonSchema`, the schemas as declared.
   */
  schema?: 'openapi' | 'json-schema';
  typeCase?: GeminiTypeCase;
  /** Where what the conversion changed is reported (see `ConversionIssue`). */
  issues?: ConversionIssue[];
}

function hasProperties(schema: JsonSchema): boolean {
  return isJsonObject(schema.properties) && Object.keys(schema.properties).length > 0;
}

/** One declaration in Gemini's OpenAPI subset, with what the conversion changed reported. */
function renderOpenApiSchemas(
  tool: ToolDeclaration,
  decl: GeminiFunctionDeclaration,
  opts: GeminiRenderOptions,
): void {
  // Checked after conversion: parameters given through a root allOf or $ref have no root
  // "properties" until the converter has merged or inlined them.
  const parameters = toGeminiSchema(tool.inputSchema, { typeCase: opts.typeCase });
  reportSchemaIssues(opts.issues, tool, '/inputSchema', parameters.issues, 'loss');
  if (hasProperties(parameters.schema)) decl.parameters = parameters.schema;
  if (tool.outputSchema === undefined) return;
  const response = toGeminiSchema(tool.outputSchema, { typeCase: opts.typeCase });
  if (hasProperties(response.schema)) {
    reportSchemaIssues(opts.issues, tool, '/outputSchema', response.issues, 'loss');
    decl.response = response.schema;
  } else {
    opts.issues?.push({
      tool: tool.name,
      path: '/outputSchema',
      code: 'gemini_empty_response',
      message:
        'The output schema declares no properties and Gemini rejects an OBJECT without properties, so "response" was left out (the outputs are "result" either way).',
      severity: 'note',
    });
  }
}

/**
 * Render tools as one Gemini `Tool`: `{functionDeclarations:[…]}`. In `openapi` mode the
 * schemas are converted with `toGeminiSchema`; a tool without parameters leaves `parameters`
 * unset, as Gemini rejects an empty OBJECT. The output schema is `response` (or
 * `responseJsonSchema`); title and MCP metadata have no field, which is reported.
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
      if (tool.outputSchema !== undefined) decl.responseJsonSchema = tool.outputSchema;
    } else {
      renderOpenApiSchemas(tool, decl, opts);
    }
    reportUncarried(opts.issues, tool, 'Gemini', ['outputSchema']);
    return decl;
  });
  return { functionDeclarations };
}
