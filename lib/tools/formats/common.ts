/**
 * What the provider format modules (`formats/<provider>.ts`) share. Reading: the
 * located-but-unchecked tool (`RawTool`), the detector contract (`DeclarationShape`) and the
 * helpers that find the list of tools in a file and say, with a path, why an item is not this
 * shape; `lib/tools/import.ts` tries the detectors and checks content. Rendering: the
 * description for formats without a title.
 */
import { joinPointer, type Issue } from '../../result';
import { isJsonObject } from '../json-schema';
import type { ConversionIssue, DeclarationFormat, ToolDeclaration } from '../types';

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
  /** MCP only: `icons`, `execution` and `_meta`, kept as sent (checked for their JSON kind). */
  icons?: unknown;
  execution?: unknown;
  meta?: unknown;
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

/**
 * Report a schema converter's issues (paths inside one schema) as conversion issues of `tool`,
 * located under `base` (`/inputSchema`, `/outputSchema`).
 */
export function reportSchemaIssues(
  sink: ConversionIssue[] | undefined,
  tool: ToolDeclaration,
  base: string,
  issues: readonly Issue[],
  severity: ConversionIssue['severity'],
  messagePrefix = '',
): void {
  if (!sink) return;
  for (const issue of issues) {
    sink.push({
      tool: tool.name,
      path: base + issue.path,
      code: issue.code ?? 'changed',
      message: messagePrefix + issue.message,
      severity,
    });
  }
}

/** Fields of a declaration that some formats have no place for. */
export type OptionalField = 'title' | 'outputSchema' | 'annotations' | 'icons' | 'execution' | '_meta';

const FIELD_WORDS: Record<Exclude<OptionalField, 'title' | 'outputSchema'>, string> = {
  annotations: 'annotations (hints such as readOnlyHint)',
  icons: 'icons',
  execution: 'execution settings',
  _meta: '_meta',
};

/**
 * Report the fields of `tool` that `format` has no place for (those not in `carried`): the
 * output schema is a `loss` when it names outputs (a workflow built from the file would have
 * only "result"); the title is a note (sent as the description when there is none); the MCP
 * metadata fields are notes.
 */
export function reportUncarried(
  sink: ConversionIssue[] | undefined,
  tool: ToolDeclaration,
  format: string,
  carried: readonly OptionalField[],
): void {
  if (!sink) return;
  const note = (
    path: string,
    code: string,
    message: string,
    severity: ConversionIssue['severity'] = 'note',
  ) => sink.push({ tool: tool.name, path, code, message, severity });
  if (!carried.includes('title') && tool.title !== undefined && tool.title !== '') {
    if (tool.description === '')
      note(
        '/title',
        'title_as_description',
        `${format} has no title field; the title was sent as the description.`,
      );
    else note('/title', 'title_dropped', `${format} has no title field; the title was left out.`);
  }
  if (!carried.includes('outputSchema') && tool.outputSchema !== undefined) {
    const properties = tool.outputSchema.properties;
    const names = isJsonObject(properties) ? Object.keys(properties) : [];
    if (names.length > 0)
      note(
        '/outputSchema',
        'output_schema_dropped',
        `${format} has no field for an output schema; it was left out, so a workflow built from this file has the one output "result" instead of ${names.map((n) => JSON.stringify(n)).join(', ')}.`,
        'loss',
      );
    else
      note(
        '/outputSchema',
        'output_schema_dropped',
        `${format} has no field for an output schema; it was left out (it names no outputs).`,
      );
  }
  for (const key of ['annotations', 'icons', 'execution', '_meta'] as const) {
    if (carried.includes(key) || tool[key] === undefined) continue;
    note(
      `/${key}`,
      `${key.replace('_', '')}_dropped`,
      `${format} has no field for the tool's ${FIELD_WORDS[key]}; left out.`,
    );
  }
}
