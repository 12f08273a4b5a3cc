/**
 * Reading JSON Schema the way the node contract needs it (docs/design.md §2): local `$ref` resolution,
 * the schema → parameter type mapping, zero values and the ordered list of object properties.
 * Pure; shared by lib/tools (renderers, prompt catalogue) and lib/workflow (node parameters).
 */
import { decodePointerSegment } from '../result';
import { createLookupTable, hasMember } from './json-value';
import type { JsonSchema, ParamType } from './types';

/** The longest `$ref` chain followed before giving up; real schemas stay far below it. */
const MAX_REF_HOPS = 64;

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decode one JSON Pointer segment taken from a URI fragment (percent-encoding, then RFC 6901). */
export function decodeFragmentSegment(segment: string): string {
  let decoded = segment;
  if (segment.includes('%')) {
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // A lone `%` is not an escape; keep the segment as written.
    }
  }
  return decodePointerSegment(decoded);
}

/** Follow one fragment pointer (`#/$defs/a`) from `root`; undefined when any step is missing. */
function getByPointer(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === '#' || ref === '#/') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const segment = decodeFragmentSegment(raw);
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (isJsonObject(current)) {
      if (!hasMember(current, segment)) return undefined;
      current = current[segment];
    } else {
      return undefined;
    }
  }
  return isJsonObject(current) ? current : undefined;
}

/**
 * Resolve a local reference (`#/$defs/…`, `#/definitions/…`, any `#/…` JSON Pointer with
 * `~0`/`~1` and percent escapes) against `root`. When the target is itself only a `$ref`, the
 * chain is followed; a cycle or a dangling/remote reference gives `undefined`.
 */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  const seen = new Set<string>();
  let current = ref;
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    if (seen.has(current)) return undefined;
    seen.add(current);
    const target = getByPointer(root, current);
    if (target === undefined) return undefined;
    const next = target.$ref;
    if (typeof next !== 'string' || Object.keys(target).length !== 1) return target;
    current = next;
  }
  return undefined;
}

/**
 * The effective schema of `schema`: `$ref` chains are followed, and keywords written next to a
 * `$ref` (a property's `description` or `default`) win over the target's, because they are the
 * more specific annotation. A dangling, remote or cyclic reference is dropped and the keywords
 * beside it are kept (with nothing else, the type then reads as `any`).
 */
export function resolveSchema(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (typeof schema.$ref !== 'string') return schema;
  let merged: JsonSchema = schema;
  const seen = new Set<string>();
  for (let hop = 0; hop < MAX_REF_HOPS && typeof merged.$ref === 'string'; hop++) {
    const { $ref: ref, ...siblings } = merged;
    const target = seen.has(ref as string) ? undefined : getByPointer(root, ref as string);
    if (target === undefined) {
      // Dangling, remote or cyclic: drop the reference, keep what is written beside it.
      return siblings;
    }
    seen.add(ref as string);
    merged = { ...target, ...siblings };
  }
  return merged;
}

const TYPE_NAMES = createLookupTable<ParamType>({
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
});

/** The parameter type of a JSON value (for `enum`/`const` typing); null gives `any`. */
export function getValueType(value: unknown): ParamType {
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    case 'object':
      if (value === null) return 'any';
      return Array.isArray(value) ? 'list' : 'dict';
    default:
      return 'any';
  }
}

/** The parameter type of a JSON Schema type name; unknown names (also "constructor") give `any`. */
function getTypeName(type: string): ParamType {
  return TYPE_NAMES[type] ?? 'any';
}

function isNullSchema(schema: JsonSchema): boolean {
  return schema.type === 'null';
}

function getTypeOf(schema: JsonSchema, root: JsonSchema, depth: number): ParamType {
  if (depth > MAX_REF_HOPS) return 'any';
  const resolved = resolveSchema(schema, root);
  const { type } = resolved;
  if (typeof type === 'string') return getTypeName(type);
  if (Array.isArray(type)) {
    const first = type.find((t) => t !== 'null');
    return typeof first === 'string' ? getTypeName(first) : 'any';
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = resolved[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      if (!isJsonObject(branch) || isNullSchema(branch)) continue;
      const branchType = getTypeOf(branch, root, depth + 1);
      if (branchType !== 'any') return branchType;
    }
  }
  if (Array.isArray(resolved.allOf)) {
    for (const branch of resolved.allOf) {
      if (!isJsonObject(branch)) continue;
      const branchType = getTypeOf(branch, root, depth + 1);
      if (branchType !== 'any') return branchType;
    }
  }
  if (Array.isArray(resolved.enum)) {
    // A leading null in an enum is the "nullable" marker, not the type.
    const first = resolved.enum.find((v) => v !== null);
    return getValueType(first);
  }
  if ('const' in resolved) return getValueType(resolved.const);
  return 'any';
}

/**
 * Map a property schema to a node parameter type exactly as docs/design.md §2.4 says: `$ref` resolved
 * first; a type array or `anyOf`/`oneOf` takes its first non-null type; no type but
 * `enum`/`const` takes the type of the first (non-null) value; otherwise `any`.
 */
export function getParamType(schema: JsonSchema, root: JsonSchema): ParamType {
  return getTypeOf(schema, root, 0);
}

/** The zero value of a parameter type (docs/design.md §2.3 rule 4); a fresh object/array on every call. */
export function getZeroValue(type: ParamType): unknown {
  switch (type) {
    case 'str':
      return '';
    case 'int':
    case 'float':
      return 0;
    case 'bool':
      return false;
    case 'list':
      return [];
    case 'dict':
      return {};
    case 'any':
      return null;
  }
}

/** One declared property of an object schema, in declaration order. */
export interface ObjectProperty {
  name: string;
  /** The property's schema as written (not resolved: keep `$ref` so callers can resolve lazily). */
  schema: JsonSchema;
}

/** An object schema's properties in declaration order and the names it requires. */
export interface ObjectProperties {
  properties: ObjectProperty[];
  required: Set<string>;
}

function collectProperties(
  schema: JsonSchema,
  root: JsonSchema,
  into: ObjectProperties,
  index: Map<string, number>,
  depth: number,
): void {
  if (depth > MAX_REF_HOPS) return;
  const resolved = resolveSchema(schema, root);
  if (Array.isArray(resolved.allOf)) {
    for (const branch of resolved.allOf) {
      if (isJsonObject(branch)) collectProperties(branch, root, into, index, depth + 1);
    }
  }
  if (isJsonObject(resolved.properties)) {
    for (const [name, propSchema] of Object.entries(resolved.properties)) {
      const schemaOrEmpty = isJsonObject(propSchema) ? propSchema : {};
      const at = index.get(name);
      if (at === undefined) {
        index.set(name, into.properties.length);
        into.properties.push({ name, schema: schemaOrEmpty });
      } else {
        // A later allOf branch narrowing the same property: keep the first position.
        into.properties[at] = { name, schema: { ...into.properties[at].schema, ...schemaOrEmpty } };
      }
    }
  }
  if (Array.isArray(resolved.required)) {
    for (const name of resolved.required) if (typeof name === 'string') into.required.add(name);
  }
}

/**
 * The properties of an object schema in declaration order plus its `required` set, following
 * `$ref` and simple `allOf` compositions (branch properties merged in order).
 */
export function getObjectProperties(schema: JsonSchema, root: JsonSchema): ObjectProperties {
  const result: ObjectProperties = { properties: [], required: new Set() };
  collectProperties(schema, root, result, new Map(), 0);
  return result;
}
