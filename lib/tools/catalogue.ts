/**
 * The plain-text tool catalogue for a system prompt (an agent whose prompt lists only tool
 * names never calls them). Every tool gets its description and
 * source, and every parameter its type, required/optional, default, allowed values, constraints
 * and description, with nested object and array-item fields listed briefly. Deterministic:
 * tools in the given order, parameters in declaration order.
 */
import { decodeFragmentSegment, getObjectProperties, isJsonObject, resolveSchema } from './json-schema';
import type { JsonSchema, ToolDeclaration, ToolSource } from './types';

/** Options of `renderToolCatalogue`. */
export interface CatalogueOptions {
  /** Parameters to leave out (e.g. system parameters the platform fills in itself). */
  omitParams?: readonly string[];
  /** How many levels of nested object fields to list (default 3). */
  maxDepth?: number;
}

/** How deep a type description nests (array of map of …) before the rest is called `any`. */
const MAX_TYPE_DEPTH = 8;

/** Longest default/const value shown in full; longer ones are cut (they are only hints). */
const MAX_VALUE_LENGTH = 200;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function showValue(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json.length > MAX_VALUE_LENGTH ? `${json.slice(0, MAX_VALUE_LENGTH)}…` : json;
}

function describeSource(source: ToolSource): string {
  const parts: string[] = [source.kind];
  if (source.toolkit) parts.push(`toolkit "${source.toolkit}"`);
  if (source.server) parts.push(`server "${source.server}"`);
  return parts.join(', ');
}

interface Walk {
  root: JsonSchema;
  /** What `#` (the root) is called when a type refers back to it. */
  rootName: string;
  maxDepth: number;
  lines: string[];
}

/** The name a reference is described by: its last pointer segment (`#/$defs/Json` → `Json`). */
function getRefName(ref: string, walk: Walk): string {
  if (ref === '#' || ref === '#/') return walk.rootName;
  const name = decodeFragmentSegment(ref.slice(ref.lastIndexOf('/') + 1));
  return name.trim() === '' ? ref : name;
}

/**
 * The types a schema accepts, e.g. `string`, `array of integer`, `object or null`. `refs` are the
 * references being described around this schema: one met again is named, not expanded
 * (`string or array of Json (recursive)`), so a recursive schema describes in finite time.
 */
function describeType(raw: JsonSchema, walk: Walk, refs: readonly string[] = [], depth = 0): string {
  const ref = typeof raw.$ref === 'string' ? raw.$ref : undefined;
  if (ref !== undefined && refs.includes(ref)) return `${getRefName(ref, walk)} (recursive)`;
  if (depth > MAX_TYPE_DEPTH) return 'any';
  if (ref !== undefined) refs = [...refs, ref];
  const inner = (schema: JsonSchema) => describeType(schema, walk, refs, depth + 1);
  const schema = resolveSchema(raw, walk.root);
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  const types =
    typeof schema.type === 'string'
      ? [schema.type]
      : Array.isArray(schema.type)
        ? schema.type.filter((t): t is string => typeof t === 'string')
        : [];
  for (const type of types) {
    if (type === 'array') add(describeArray(schema, inner));
    else if (
      type === 'object' &&
      !isJsonObject(schema.properties) &&
      isJsonObject(schema.additionalProperties)
    ) {
      // An open map: say what its values are, the model cannot guess it.
      add(`object (map of ${inner(schema.additionalProperties)})`);
    } else add(type);
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) if (isJsonObject(branch)) add(inner(branch));
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) if (isJsonObject(branch)) add(inner(branch));
  }
  if (names.length === 0) {
    if (isJsonObject(schema.properties)) add('object');
    else if (schema.items !== undefined) add(describeArray(schema, inner));
    else if (Array.isArray(schema.enum) || 'const' in schema) {
      const values = Array.isArray(schema.enum) ? schema.enum : [schema.const];
      for (const value of values)
        add(
          value === null
            ? 'null'
            : Array.isArray(value)
              ? 'array'
              : typeof value === 'number'
                ? Number.isInteger(value)
                  ? 'integer'
                  : 'number'
                : typeof value,
        );
    }
  }
  // "any" only when nothing else is known; it never hides a real type in a union.
  const known = names.filter((n) => n !== 'any');
  return known.length > 0 ? known.join(' or ') : 'any';
}

function describeArray(schema: JsonSchema, describeItems: (items: JsonSchema) => string): string {
  const items = schema.items;
  if (isJsonObject(items)) return `array of ${describeItems(items)}`;
  if (Array.isArray(schema.prefixItems) || Array.isArray(items)) return 'array (tuple)';
  return 'array';
}

/** Allowed values, default and constraints of one parameter, as short phrases. */
function describeFacts(schema: JsonSchema, required: boolean): string[] {
  const facts: string[] = [required ? 'required' : 'optional'];
  if ('default' in schema) facts.push(`default ${showValue(schema.default)}`);
  if (Array.isArray(schema.enum)) facts.push(`one of ${schema.enum.map(showValue).join(' | ')}`);
  if ('const' in schema) facts.push(`always ${showValue(schema.const)}`);
  if (typeof schema.format === 'string') facts.push(`format ${schema.format}`);
  if (typeof schema.pattern === 'string') facts.push(`pattern ${schema.pattern}`);
  const range = (lo: unknown, hi: unknown, what: string) => {
    if (typeof lo === 'number' && lo === hi) facts.push(`${what} = ${lo}`);
    else if (typeof lo === 'number' && typeof hi === 'number') facts.push(`${what} ${lo}–${hi}`);
    else if (typeof lo === 'number') facts.push(`${what} ≥ ${lo}`);
    else if (typeof hi === 'number') facts.push(`${what} ≤ ${hi}`);
  };
  range(schema.minimum, schema.maximum, 'value');
  if (typeof schema.exclusiveMinimum === 'number') facts.push(`value > ${schema.exclusiveMinimum}`);
  if (typeof schema.exclusiveMaximum === 'number') facts.push(`value < ${schema.exclusiveMaximum}`);
  if (typeof schema.multipleOf === 'number') facts.push(`multiple of ${schema.multipleOf}`);
  range(schema.minLength, schema.maxLength, 'length');
  range(schema.minItems, schema.maxItems, 'items');
  if (schema.uniqueItems === true) facts.push('unique items');
  if (schema.deprecated === true) facts.push('deprecated');
  return facts;
}

/** The object schema whose fields should be listed under a parameter, if any. */
function getNestedObject(schema: JsonSchema, walk: Walk): JsonSchema | undefined {
  if (isJsonObject(schema.properties) && Object.keys(schema.properties).length > 0) return schema;
  if (Array.isArray(schema.allOf)) return schema;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const objects = branches
      .filter((b) => isJsonObject(b))
      .map((b) => resolveSchema(b as JsonSchema, walk.root))
      .filter((b) => isJsonObject(b.properties));
    // Only the unambiguous "object or null" case is expanded; real unions stay one line.
    if (objects.length === 1) return objects[0];
  }
  return undefined;
}

function writeFields(
  objectSchema: JsonSchema,
  walk: Walk,
  indent: string,
  depth: number,
  refs: readonly string[],
  omit: ReadonlySet<string>,
): void {
  const { properties, required } = getObjectProperties(objectSchema, walk.root);
  for (const { name, schema: raw } of properties) {
    if (omit.has(name)) continue;
    const ref = typeof raw.$ref === 'string' ? raw.$ref : undefined;
    const schema = resolveSchema(raw, walk.root);
    const facts = describeFacts(schema, required.has(name));
    const description =
      typeof schema.description === 'string' && schema.description.trim() !== ''
        ? `: ${oneLine(schema.description)}`
        : '';
    walk.lines.push(`${indent}- ${name} (${describeType(raw, walk)}, ${facts.join(', ')})${description}`);

    if (ref && refs.includes(ref)) {
      walk.lines.push(`${indent}  (recursive: same fields as above)`);
      continue;
    }
    let nextRefs = ref ? [...refs, ref] : refs;
    let nested = getNestedObject(schema, walk);
    let label = '';
    if (!nested && isJsonObject(schema.items)) {
      const itemRef = typeof schema.items.$ref === 'string' ? schema.items.$ref : undefined;
      if (itemRef && refs.includes(itemRef)) {
        walk.lines.push(`${indent}  (recursive: items have the same fields as above)`);
        continue;
      }
      nested = getNestedObject(resolveSchema(schema.items, walk.root), walk);
      label = 'each item: ';
      if (itemRef) nextRefs = [...nextRefs, itemRef];
    }
    if (!nested) continue;
    if (depth + 1 >= walk.maxDepth) {
      walk.lines.push(`${indent}  (${label}nested fields not listed)`);
      continue;
    }
    if (label) walk.lines.push(`${indent}  ${label.trim()}`);
    writeFields(nested, walk, `${indent}  `, depth + 1, nextRefs, new Set());
  }
}

function writeOutputs(tool: ToolDeclaration, walk: Walk): void {
  const schema = tool.outputSchema;
  if (!schema) return;
  const { properties } = getObjectProperties(schema, schema);
  if (properties.length === 0) return;
  const outputs = properties.map(
    ({ name, schema: prop }) =>
      `${name} (${describeType(prop, { ...walk, root: schema, rootName: 'outputs' })})`,
  );
  walk.lines.push(`Returns: ${outputs.join(', ')}`);
}

/**
 * The catalogue text: per tool a `## name` heading, title, description, source, a
 * `Parameters:` list (`- name (type, required|optional, default …, one of …): description`,
 * nested fields indented) and the output fields. Omitted parameters are not listed.
 */
export function renderToolCatalogue(tools: readonly ToolDeclaration[], opts: CatalogueOptions = {}): string {
  const omit = new Set(opts.omitParams ?? []);
  const lines: string[] = [`# Available tools (${tools.length})`];
  for (const tool of tools) {
    const walk: Walk = {
      root: tool.inputSchema,
      rootName: 'parameters',
      maxDepth: opts.maxDepth ?? 3,
      lines,
    };
    lines.push('', `## ${tool.name}`);
    if (tool.title) lines.push(`Title: ${oneLine(tool.title)}`);
    const description = tool.description.trim();
    lines.push(`Description: ${description === '' ? '(none given)' : description.replace(/\r?\n/g, '\n  ')}`);
    // An unknown source tells the model nothing; the toolkit or server name does.
    if (tool.source && tool.source.kind !== 'unknown') lines.push(`Source: ${describeSource(tool.source)}`);
    const before = lines.length;
    lines.push('Parameters:');
    writeFields(tool.inputSchema, walk, '', 0, [], omit);
    if (lines.length === before + 1) lines[before] = 'Parameters: none';
    writeOutputs(tool, walk);
  }
  return lines.join('\n') + '\n';
}
