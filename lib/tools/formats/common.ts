/**
 * What the provider format modules (`formats/<provider>.ts`) share. Reading: the
 * located-but-unchecked tool (`RawTool`), the detector contract (`DeclarationShape`) and the
 * helpers that find the list of tools in a file and say, with a path, why an item is not this
 * shape; `lib/tools/import.ts` tries the detectors and checks content. Rendering: the
 * description for formats without a title.
 */
import { joinPointer, type Issue } from '../../result';
import { isJsonObject } from '../json-schema';
import type { DeclarationFormat, ToolDeclaration } from '../types';

/** One declaration located in the input, before its content is checked. */
export interface RawTool {
  path: string;
  name: unknown;
  namePath: string;
  title?: unknown;
  description?: unknown;
  descriptionPath: string;
  schema: unknown;
  schemaPath: string;
  /** Gemini `parameters` are OpenAPI-subset and are read back into JSON Schema. */
  schemaDialect: 'json-schema' | 'gemini';
  outputSchema?: unknown;
  outputSchemaPath?: string;
  outputDialect?: 'json-schema' | 'gemini';
  annotations?: unknown;
}

/** A file shape the importer recognises. */
export interface DeclarationShape {
  format: DeclarationFormat;
  /** How the shape is named to a person, with a minimal example. */
  label: string;
  /**
   * Either the located declarations, or why the input is not this shape (with paths).
   * `claimed` says the first tool did match, so the input is this shape with bad items.
   */
  detect(input: unknown): Detection;
}

export type Detection = { tools: RawTool[] } | { problems: Issue[]; claimed?: boolean };

/** A value in the input and where it is. */
export interface Item {
  value: unknown;
  path: string;
}

/** Why something is not the shape being tried. */
export function problem(path: string, message: string): Issue {
  return { path, message, code: 'shape_mismatch' };
}

/** A short reading of a value for messages: `an array`, `the string "abc"`, `number 3`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** A JSON-RPC response wrapping a result, e.g. a raw MCP `tools/list` answer. */
export function unwrapJsonRpc(input: unknown): Item {
  if (isJsonObject(input) && typeof input.jsonrpc === 'string' && 'result' in input) {
    return { value: input.result, path: '/result' };
  }
  return { value: input, path: '' };
}

/**
 * The list of tool objects at the top of the input: an array, `{tools: [...]}`, or a single
 * tool object (as a one-item list) when `single` says it looks like one.
 */
export function getToolList(
  input: Item,
  single: (value: Record<string, unknown>) => boolean,
): Item[] | Issue {
  const { value, path } = input;
  if (Array.isArray(value)) return value.map((v, i) => ({ value: v, path: joinPointer(path, i) }));
  if (isJsonObject(value)) {
    if (Array.isArray(value.tools)) {
      const base = joinPointer(path, 'tools');
      return value.tools.map((v, i) => ({ value: v, path: joinPointer(base, i) }));
    }
    if (single(value)) return [{ value, path }];
    return problem(path, 'expected a list of tools (an array, or an object with a "tools" array)');
  }
  return problem(path, `expected a list of tools, found ${describeValue(value)}`);
}

/**
 * Check every item with `check`. When the first item matches, the input claims this shape and
 * every bad item is reported; otherwise a few problems are enough to explain the mismatch.
 */
export function detectItems(items: Item[], check: (item: Item) => Issue | RawTool): Detection {
  const tools: RawTool[] = [];
  const problems: Issue[] = [];
  let claimed = false;
  for (const [index, item] of items.entries()) {
    const result = check(item);
    if ('message' in result) {
      problems.push(result);
      if (!claimed && problems.length >= 3) break;
    } else {
      if (index === 0) claimed = true;
      tools.push(result);
    }
  }
  return problems.length > 0 ? { problems, claimed } : { tools };
}

/**
 * The problem with an item that is not a tool object. Callers test the item itself
 * (`isJsonObject(item.value)`): an Issue is a JSON object too, so returning "the tool or an
 * Issue" let callers read the Issue as the tool and report a member it cannot have.
 */
export function notToolObject(item: Item): Issue {
  return problem(item.path, `expected a tool object, found ${describeValue(item.value)}`);
}

/** The problem with an OpenAI tool whose `type` is not `"function"`, or undefined when it is. */
export function checkFunctionType(tool: Record<string, unknown>, path: string): Issue | undefined {
  if (tool.type === 'function') return undefined;
  return problem(
    joinPointer(path, 'type'),
    tool.type === undefined
      ? 'missing (expected "function")'
      : `expected "function", found ${describeValue(tool.type)}`,
  );
}

/** A description for providers that have no separate title: the description, else the title. */
export function getDescription(tool: ToolDeclaration): string | undefined {
  if (tool.description !== '') return tool.description;
  return tool.title !== undefined && tool.title !== '' ? tool.title : undefined;
}
