/**
 * Reading tool declarations in any of the six shapes of docs/design.md §3.2 into canonical
 * `ToolDeclaration`s. Each shape (`formats/<provider>.ts`) has a structural detector; the first
 * shape whose detector finds nothing wrong reads the file, and its content (names, schemas) is
 * then checked here, the same way for every shape. A file no shape recognises gets one issue per
 * shape saying why it is not that shape.
 */
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import { DECLARATION_SHAPES, type DeclarationShape, type RawTool } from './formats';
import { describeValue } from './formats/common';
import { fromGeminiSchema } from './gemini-schema';
import { decodeFragmentSegment, isJsonObject } from './json-schema';
import { getJsonDepth, MAX_JSON_DEPTH, parseJsonText, tooDeepIssue } from './json-text';
import { getMember } from './json-value';
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
  if (isJsonObject(node.properties) && getMember(node.properties, '') !== undefined) {
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
    const segments = ref.length > 2 ? ref.slice(2).split('/').map(decodeFragmentSegment) : [];
    let target: unknown = walk.root;
    for (const segment of segments) {
      if (Array.isArray(target))
        target = /^(0|[1-9]\d*)$/.test(segment) ? target[Number(segment)] : undefined;
      else target = isJsonObject(target) ? getMember(target, segment) : undefined;
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
  for (const [key, value, kind] of [
    ['icons', raw.icons, 'array'],
    ['execution', raw.execution, 'object'],
    ['_meta', raw.meta, 'object'],
  ] as const) {
    if (value === undefined || value === null) continue;
    if (kind === 'array' ? !Array.isArray(value) : !isJsonObject(value)) {
      issues.push(
        issue(
          joinPointer(raw.path, key),
          `bad_${key.replace('_', '')}`,
          `"${key}" must be ${kind === 'array' ? 'an array' : 'an object'}, found ${describeValue(value)}.`,
        ),
      );
    }
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
  if (Array.isArray(raw.icons)) tool.icons = structuredClone(raw.icons);
  if (isJsonObject(raw.execution)) tool.execution = structuredClone(raw.execution);
  if (isJsonObject(raw.meta)) tool._meta = structuredClone(raw.meta);
  if (source) tool.source = { ...source };
  return tool;
}

/**
 * Detect the shape of parsed declarations (docs/design.md §3.2: MCP tools/list result — also inside a
 * JSON-RPC response —, OpenAI Chat, OpenAI Responses, Gemini, Anthropic, bare list) and read
 * them into canonical declarations. Errors carry JSON Pointer paths into `input`: an
 * unrecognised input gets one `unrecognised_format` issue per shape tried; recognised input gets
 * content issues (missing/empty/duplicate names, non-object schemas).
 */
export function importDeclarations(input: unknown, opts: ImportOptions = {}): Result<ImportedDeclarations> {
  if (Array.isArray(input) && input.length === 0) return ok({ format: 'bare', tools: [] });
  // Checked first, without recursion: deeper input would exhaust the stack of what walks it.
  const depth = getJsonDepth(input);
  if (depth > MAX_JSON_DEPTH) return err([tooDeepIssue(depth)]);

  const attempts: { shape: DeclarationShape; problems: Issue[] }[] = [];
  for (const shape of DECLARATION_SHAPES) {
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
    `These are not tool declarations in any known shape. Tried ${DECLARATION_SHAPES.length} shapes (each listed below with why it did not match); convert the file to one of them.`,
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
