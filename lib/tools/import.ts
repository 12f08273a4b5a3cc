/**
 * Reading tool declarations in any of the six shapes of DESIGN §2 into canonical
 * `ToolDeclaration`s. Each shape has a structural detector; the first shape whose detector finds
 * nothing wrong reads the file, and its content (names, schemas) is then checked. A file no
 * shape recognises gets one issue per shape saying why it is not that shape.
 */
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import { fromGeminiSchema } from './gemini-schema';
import { decodePointerSegment, isJsonObject } from './json-schema';
import { parseJsonText } from './json-text';
import type { DeclarationFormat, JsonSchema, ToolDeclaration, ToolSource } from './types';

/** Options for reading declarations. */
export interface ImportOptions {
  /** Where the declarations came from; set on every imported tool. */
  source?: ToolSource;
}

/** What the importer found: the detected shape and the canonical tools, in file order. */
export interface ImportedDeclarations {
  format: DeclarationFormat;
  tools: ToolDeclaration[];
}

/** One declaration located in the input, before its content is checked. */
interface RawTool {
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

interface Shape {
  format: DeclarationFormat;
  /** How the shape is named to a person, with a minimal example. */
  label: string;
  /**
   * Either the located declarations, or why the input is not this shape (with paths).
   * `claimed` says the first tool did match, so the input is this shape with bad items.
   */
  detect(input: unknown): Detection;
}

type Detection = { tools: RawTool[] } | { problems: Issue[]; claimed?: boolean };

interface Item {
  value: unknown;
  path: string;
}

function problem(path: string, message: string): Issue {
  return { path, message, code: 'shape_mismatch' };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** A JSON-RPC response wrapping a result, e.g. a raw MCP `tools/list` answer. */
function unwrapJsonRpc(input: unknown): Item {
  if (isJsonObject(input) && typeof input.jsonrpc === 'string' && 'result' in input) {
    return { value: input.result, path: '/result' };
  }
  return { value: input, path: '' };
}

/**
 * The list of tool objects at the top of the input: an array, `{tools: [...]}`, or a single
 * tool object (as a one-item list) when `single` says it looks like one.
 */
function getToolList(input: Item, single: (value: Record<string, unknown>) => boolean): Item[] | Issue {
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
function detectItems(items: Item[], check: (item: Item) => Issue | RawTool): Detection {
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
function notToolObject(item: Item): Issue {
  return problem(item.path, `expected a tool object, found ${describeValue(item.value)}`);
}

function mcpTool(item: Item): Issue | RawTool {
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
  };
}

const MCP: Shape = {
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
    return detectItems(items, mcpTool);
  },
};

const CHAT: Shape = {
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
      if (tool.type !== 'function')
        return problem(
          joinPointer(item.path, 'type'),
          tool.type === undefined
            ? 'missing (expected "function")'
            : `expected "function", found ${describeValue(tool.type)}`,
        );
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

const RESPONSES: Shape = {
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
      if (tool.type !== 'function')
        return problem(
          joinPointer(item.path, 'type'),
          tool.type === undefined
            ? 'missing (expected "function")'
            : `expected "function", found ${describeValue(tool.type)}`,
        );
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

function geminiDeclaration(item: Item): Issue | RawTool {
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

const GEMINI: Shape = {
  format: 'gemini',
  label: 'Gemini function declarations ({"functionDeclarations":[{"name","description","parameters"}]})',
  detect(input) {
    const items: Item[] = [];
    if (isJsonObject(input) && getGeminiDeclarations(input, '')) {
      items.push(...getGeminiDeclarations(input, '')!);
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
    return detectItems(items, geminiDeclaration);
  },
};

const ANTHROPIC: Shape = {
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

/** Keys that mark another shape; a bare declaration has none of them. */
const OTHER_SHAPE_KEYS = [
  'type',
  'function',
  'input_schema',
  'inputSchema',
  'functionDeclarations',
  'function_declarations',
];

const BARE: Shape = {
  format: 'bare',
  label: 'a bare list of declarations ([{"name","description","parameters"}])',
  detect(input) {
    const items = getToolList(
      { value: input, path: '' },
      (v) => 'name' in v && 'parameters' in v && !OTHER_SHAPE_KEYS.some((k) => k in v),
    );
    if (!Array.isArray(items)) return { problems: [items] };
    return detectItems(items, (item) => {
      if (!isJsonObject(item.value)) return notToolObject(item);
      const tool = item.value;
      if (!('name' in tool)) return problem(joinPointer(item.path, 'name'), 'missing');
      const other = OTHER_SHAPE_KEYS.find((k) => k in tool);
      if (other)
        return problem(
          joinPointer(item.path, other),
          'present (a bare declaration has only name, description and parameters)',
        );
      return {
        path: item.path,
        name: tool.name,
        namePath: joinPointer(item.path, 'name'),
        title: tool.title,
        description: tool.description,
        descriptionPath: joinPointer(item.path, 'description'),
        schema: tool.parameters,
        schemaPath: joinPointer(item.path, 'parameters'),
        schemaDialect: 'json-schema',
      };
    });
  },
};

const SHAPES: readonly Shape[] = [MCP, CHAT, RESPONSES, GEMINI, ANTHROPIC, BARE];

function issue(path: string, code: string, message: string): Issue {
  return { path, code, message };
}

/** How many `$ref`/`allOf` steps the empty-name check follows (as getObjectProperties does). */
const MAX_NAME_WALK = 64;

interface NameWalk {
  root: JsonSchema;
  /** Where `root` is in the input. */
  rootPath: string;
  what: 'parameters' | 'output';
  issues: Issue[];
  seen: Set<unknown>;
}

/**
 * Report every parameter (or output) named "": the names getObjectProperties reads, i.e. the
 * root's "properties" and those of its allOf branches and $ref targets, each where it is
 * written. Workflow files require names of at least one character, so a tool with such a
 * name would make workflows that cannot be exported and imported again.
 */
function checkEmptyNames(node: unknown, path: string, walk: NameWalk): void {
  if (!isJsonObject(node) || walk.seen.has(node) || walk.seen.size > MAX_NAME_WALK) return;
  walk.seen.add(node);
  if (isJsonObject(node.properties) && Object.hasOwn(node.properties, '')) {
    const kind = walk.what === 'parameters' ? 'A parameter' : 'An output';
    walk.issues.push(
      issue(
        joinPointer(path, 'properties', ''),
        'empty_property_name',
        `${kind} has an empty name (""); workflow files need names of at least one character. Rename it.`,
      ),
    );
  }
  if (Array.isArray(node.allOf)) {
    node.allOf.forEach((branch, i) => checkEmptyNames(branch, joinPointer(path, 'allOf', i), walk));
  }
  const ref = node.$ref;
  if (typeof ref === 'string' && (ref === '#' || ref.startsWith('#/'))) {
    const segments = ref.length > 2 ? ref.slice(2).split('/').map(decodePointerSegment) : [];
    let target: unknown = walk.root;
    for (const segment of segments) {
      if (Array.isArray(target))
        target = /^(0|[1-9]\d*)$/.test(segment) ? target[Number(segment)] : undefined;
      else target = isJsonObject(target) && Object.hasOwn(target, segment) ? target[segment] : undefined;
    }
    checkEmptyNames(target, joinPointer(walk.rootPath, ...segments), walk);
  }
}

/** Check and copy a parameters/output schema; it must be an object schema. */
function readSchema(
  raw: unknown,
  path: string,
  dialect: 'json-schema' | 'gemini',
  what: 'parameters' | 'output',
  issues: Issue[],
): JsonSchema | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isJsonObject(raw)) {
    issues.push(
      issue(
        path,
        'bad_schema',
        `The ${what} schema must be a JSON object such as {"type":"object","properties":{…}}; found ${describeValue(raw)}.`,
      ),
    );
    return undefined;
  }
  const schema: JsonSchema = dialect === 'gemini' ? fromGeminiSchema(raw) : structuredClone(raw);
  const type = schema.type;
  if (type !== undefined && type !== 'object') {
    issues.push(
      issue(
        joinPointer(path, 'type'),
        'non_object_schema',
        `The ${what} schema must describe an object (type "object"), found type ${JSON.stringify(type)}. Wrap the value in an object property.`,
      ),
    );
    return undefined;
  }
  if (schema.properties !== undefined) {
    if (!isJsonObject(schema.properties)) {
      issues.push(
        issue(
          joinPointer(path, 'properties'),
          'bad_schema',
          `"properties" must be an object mapping parameter names to schemas; found ${describeValue(schema.properties)}.`,
        ),
      );
      return undefined;
    }
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (!isJsonObject(prop) && typeof prop !== 'boolean') {
        issues.push(
          issue(
            joinPointer(path, 'properties', name),
            'bad_schema',
            `The schema of parameter "${name}" must be an object (or true/false); found ${describeValue(prop)}.`,
          ),
        );
      }
    }
  }
  if (
    schema.required !== undefined &&
    (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))
  ) {
    issues.push(
      issue(
        joinPointer(path, 'required'),
        'bad_schema',
        '"required" must be an array of parameter names (strings).',
      ),
    );
  }
  checkEmptyNames(schema, path, { root: schema, rootPath: path, what, issues, seen: new Set() });
  // The canonical form always states the object type, first, as MCP requires.
  return type === undefined ? { type: 'object', ...schema } : schema;
}

function readTool(
  raw: RawTool,
  source: ToolSource | undefined,
  issues: Issue[],
): ToolDeclaration | undefined {
  const before = issues.length;
  if (raw.name === undefined)
    issues.push(issue(raw.namePath, 'missing_name', 'The tool has no name; add a non-empty "name".'));
  else if (typeof raw.name !== 'string')
    issues.push(
      issue(raw.namePath, 'bad_name', `The tool name must be a string, found ${describeValue(raw.name)}.`),
    );
  else if (raw.name.trim() === '')
    issues.push(issue(raw.namePath, 'empty_name', 'The tool name is empty; give the tool a name.'));

  if (raw.description !== undefined && raw.description !== null && typeof raw.description !== 'string') {
    issues.push(
      issue(
        raw.descriptionPath,
        'bad_description',
        `The description must be a string, found ${describeValue(raw.description)}.`,
      ),
    );
  }
  const inputSchema = readSchema(raw.schema, raw.schemaPath, raw.schemaDialect, 'parameters', issues);
  const outputSchema =
    raw.outputSchemaPath !== undefined
      ? readSchema(
          raw.outputSchema,
          raw.outputSchemaPath,
          raw.outputDialect ?? 'json-schema',
          'output',
          issues,
        )
      : undefined;
  if (raw.annotations !== undefined && raw.annotations !== null && !isJsonObject(raw.annotations)) {
    issues.push(
      issue(
        joinPointer(raw.path, 'annotations'),
        'bad_annotations',
        `"annotations" must be an object, found ${describeValue(raw.annotations)}.`,
      ),
    );
  }
  if (raw.title !== undefined && raw.title !== null && typeof raw.title !== 'string') {
    issues.push(
      issue(
        joinPointer(raw.path, 'title'),
        'bad_title',
        `"title" must be a string, found ${describeValue(raw.title)}.`,
      ),
    );
  }
  if (issues.length > before) return undefined;

  const tool: ToolDeclaration = {
    name: raw.name as string,
    description: typeof raw.description === 'string' ? raw.description : '',
    // A declaration without parameters takes none (OpenAI: "omitting parameters defines a
    // function with an empty parameter list").
    inputSchema: inputSchema ?? { type: 'object', properties: {} },
  };
  if (typeof raw.title === 'string') tool.title = raw.title;
  if (outputSchema) tool.outputSchema = outputSchema;
  if (isJsonObject(raw.annotations)) tool.annotations = structuredClone(raw.annotations);
  if (source) tool.source = { ...source };
  return tool;
}

/**
 * Detect the shape of parsed declarations (DESIGN §2: MCP tools/list result — also inside a
 * JSON-RPC response —, OpenAI Chat, OpenAI Responses, Gemini, Anthropic, bare list) and read
 * them into canonical declarations. Errors carry JSON Pointer paths into `input`: an
 * unrecognised input gets one `unrecognised_format` issue per shape tried; recognised input gets
 * content issues (missing/empty/duplicate names, non-object schemas).
 */
export function importDeclarations(input: unknown, opts: ImportOptions = {}): Result<ImportedDeclarations> {
  if (Array.isArray(input) && input.length === 0) return ok({ format: 'bare', tools: [] });

  const attempts: { shape: Shape; problems: Issue[] }[] = [];
  for (const shape of SHAPES) {
    const detected = shape.detect(input);
    if ('problems' in detected && detected.claimed) {
      // The file is this shape but some tools are malformed: say so, tool by tool.
      return err(
        detected.problems.map((p) =>
          issue(
            p.path,
            'bad_declaration',
            `${p.message}; the file reads as ${shape.label}, so every tool must have that shape. Fix this tool.`,
          ),
        ),
      );
    }
    if ('problems' in detected) {
      attempts.push({ shape, problems: detected.problems });
      continue;
    }
    const issues: Issue[] = [];
    const tools: ToolDeclaration[] = [];
    const seen = new Map<string, string>();
    for (const raw of detected.tools) {
      const tool = readTool(raw, opts.source, issues);
      if (!tool) continue;
      const earlier = seen.get(tool.name);
      if (earlier !== undefined) {
        issues.push(
          issue(
            raw.namePath,
            'duplicate_name',
            `Tool name "${tool.name}" is already used at ${earlier}; tool names must be unique. Rename or remove one of them.`,
          ),
        );
        continue;
      }
      seen.set(tool.name, raw.namePath);
      tools.push(tool);
    }
    return issues.length > 0 ? err(issues) : ok({ format: shape.format, tools });
  }

  const summary = issue(
    '',
    'unrecognised_format',
    `These are not tool declarations in any known shape. Tried ${SHAPES.length} shapes (each listed below with why it did not match); convert the file to one of them.`,
  );
  const perShape = attempts.map(({ shape, problems }) =>
    issue(
      problems[0]?.path ?? '',
      'unrecognised_format',
      `Not ${shape.label}: ${problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ')}.`,
    ),
  );
  return err([summary, ...perShape]);
}

/**
 * Parse declaration file text (JSON) and import it. A JSON syntax error is reported with its
 * line and column; everything else as `importDeclarations`.
 */
export function parseDeclarationsText(text: string, opts: ImportOptions = {}): Result<ImportedDeclarations> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  return importDeclarations(parsed.value, opts);
}
