/**
 * OpenAI strict mode (Structured Outputs for function calling): the schema must be a subset of
 * JSON Schema where every object lists all its properties in `required`, sets
 * `additionalProperties: false`, and optional values are expressed as a union with null.
 * Supported keywords (OpenAI "Supported schemas"): type (incl. arrays), enum, const, anyOf,
 * $ref/$defs (also recursive), description, title; strings `pattern` and `format` (date-time,
 * time, date, duration, email, hostname, ipv4, ipv6, uuid); numbers `multipleOf`, `minimum`,
 * `maximum`, `exclusiveMinimum`, `exclusiveMaximum`; arrays `minItems`, `maxItems`. The API
 * checks against this list, so anything else is rejected: `default`, `minLength`/`maxLength`
 * (the openai-node docs name these), allOf, not, if/then/else, dependent*, oneOf (sent as
 * anyOf), patternProperties, propertyNames, unevaluated*, min/maxProperties, contains,
 * uniqueItems, prefixItems; a root that is not an object; an array without `items`. Limits: 5000
 * properties, 10 levels of object nesting, 1000 enum values in all, 15,000 characters of string
 * values in an enum of more than 250.
 */
import { joinPointer, type Issue } from '../result';
import { isJsonObject, resolveLocalRef } from './json-schema';
import { setJsonMember } from './json-value';
import { inlineRef, mergeAllOf } from './schema-walk';
import type { JsonSchema } from './types';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Keywords strict mode rejects; each is dropped and reported, with a hint kept in the description. */
const UNSUPPORTED_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'prefixItems',
  'additionalItems',
] as const;

/** Every keyword strict mode accepts (after the conversions below). */
const SUPPORTED_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/** Keywords that only annotate: removed without a report (they constrain nothing). */
const ANNOTATION_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  'examples',
  'example',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentEncoding',
  'contentMediaType',
]);

const MAX_PROPERTIES = 5000;
/** How many references in a row are inlined at one place (each must be new, so cycles stop sooner). */
const MAX_INLINE_HOPS = 64;
const MAX_OBJECT_DEPTH = 10;
const MAX_ENUM_VALUES = 1000;
/** An enum of more than this many values may hold at most MAX_ENUM_TEXT characters of strings. */
const MAX_LONG_ENUM = 250;
const MAX_ENUM_TEXT = 15_000;

/** What the structural keywords must hold; a malformed one is dropped (and reported). */
const KEYWORD_SHAPES: Record<string, { test: (value: unknown) => boolean; what: string }> = {
  $ref: { test: (v) => typeof v === 'string', what: 'a reference string such as "#/$defs/name"' },
  enum: { test: Array.isArray, what: 'an array of the allowed values' },
  anyOf: { test: Array.isArray, what: 'an array of schemas' },
  required: { test: Array.isArray, what: 'an array of property names' },
  properties: { test: isJsonObject, what: 'an object mapping names to schemas' },
  $defs: { test: isJsonObject, what: 'an object mapping names to schemas' },
  definitions: { test: isJsonObject, what: 'an object mapping names to schemas' },
  items: { test: (v) => isJsonObject(v) || Array.isArray(v) || typeof v === 'boolean', what: 'a schema' },
  additionalProperties: {
    test: (v) => isJsonObject(v) || typeof v === 'boolean',
    what: 'a schema or a boolean',
  },
};

/** A schema converted for OpenAI strict mode, with what could not be converted faithfully. */
export interface StrictSchemaResult {
  schema: JsonSchema;
  /** Each place where meaning was lost or changed, by JSON Pointer into the input schema. */
  issues: Issue[];
  /**
   * JSON Pointers (into the input schema) of properties that were optional and became null
   * unions: a model in strict mode sends `null` for them, which means "not given".
   */
  nullableOptional: string[];
}

interface StrictContext {
  root: JsonSchema;
  issues: Issue[];
  nullableOptional: string[];
  propertyCount: number;
  /** Enum values in the whole schema (the limit counts them all). */
}

function report(ctx: StrictContext, path: string, code: string, message: string): void {
  ctx.issues.push({ path, code, message });
}

function isNullable(schema: JsonSchema): boolean {
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => isJsonObject(b) && isNullable(b))) return true;
  return false;
}

/** Allow `null` in addition to what `schema` accepts, in the form strict mode supports. */
function addNull(schema: JsonSchema): JsonSchema {
  if (isNullable(schema)) return schema;
  if (typeof schema.type === 'string' && schema.$ref === undefined) {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    if ('const' in schema) {
      delete out.const;
      out.enum = [schema.const, null];
    }
    return out;
  }
  if (Array.isArray(schema.type) && schema.$ref === undefined) {
    const out: JsonSchema = { ...schema, type: [...schema.type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.$ref === undefined && schema.type === undefined && Array.isArray(schema.enum)) {
    return { ...schema, enum: [...schema.enum, null] };
  }
  if (schema.$ref === undefined && schema.type === undefined && 'const' in schema) {
    const { const: value, ...rest } = schema;
    return { ...rest, enum: [value, null] };
  }
  // A $ref: wrap, keeping the annotations on the outside.
  const { description, title, default: dflt, ...inner } = schema;
  const out: JsonSchema = {};
  if (description !== undefined) out.description = description;
  if (title !== undefined) out.title = title;
  out.anyOf = [inner, { type: 'null' }];
  if (dflt !== undefined) out.default = dflt;
  return out;
}

function appendDescription(out: JsonSchema, note: string): void {
  out.description =
    typeof out.description === 'string' && out.description !== '' ? `${out.description} (${note})` : note;
}

function getJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isObjectSchema(node: JsonSchema): boolean {
  return (
    node.type === 'object' ||
    (Array.isArray(node.type) && node.type.includes('object')) ||
    (node.type === undefined && !Array.isArray(node.anyOf) && isJsonObject(node.properties))
  );
}

/**
 * Convert one schema. `refs` are the references inlined around it (a `$ref` with keywords beside
 * it is inlined, as is an allOf branch): one met again inside itself is not inlined again.
 */
function convert(
  raw: unknown,
  path: string,
  ctx: StrictContext,
  depth: number,
  refs: readonly string[] = [],
): JsonSchema {
  if (raw === true) raw = {};
  if (!isJsonObject(raw)) {
    report(
      ctx,
      path,
      'strict_bad_schema',
      'This schema is not an object; strict mode cannot use it. Replace it with an object schema.',
    );
    return { type: 'null' };
  }
  let node: JsonSchema = { ...raw };

  // A target may itself hold a $ref beside other keywords: inline until none is left.
  for (let hop = 0; typeof node.$ref === 'string' && hop <= MAX_INLINE_HOPS; hop++) {
    if (Object.keys(node).length === 1) break;
    // Strict mode rejects keywords beside a $ref; inline the target, the siblings win.
    const inlined = inlineRef(node, ctx.root, refs);
    if (inlined.kind === 'recursive') {
      // Inlining the target would put it inside itself, again and again: keep the bare
      // reference (strict mode supports recursion through $ref) and drop what is beside it.
      const dropped = Object.keys(inlined.siblings).map((k) => JSON.stringify(k));
      report(
        ctx,
        joinPointer(path, '$ref'),
        'strict_recursive_ref',
        `Reference "${inlined.ref}" refers to a schema it is part of, so it cannot be inlined, and strict mode allows nothing beside a $ref: ${dropped.join(', ')} beside it ${dropped.length === 1 ? 'was' : 'were'} dropped. Move them into the referenced schema.`,
      );
      return { $ref: inlined.ref };
    }
    if (inlined.kind === 'unresolved') {
      report(
        ctx,
        joinPointer(path, '$ref'),
        'strict_unresolved_ref',
        `Reference "${inlined.ref}" does not resolve to a local definition; it was dropped. Fix the reference.`,
      );
      node = inlined.siblings;
    } else {
      node = inlined.node;
      refs = inlined.refs;
    }
  }
  if (typeof node.$ref === 'string') {
    if (node.$ref === '#' || resolveLocalRef(ctx.root, node.$ref) !== undefined) return node;
    report(
      ctx,
      joinPointer(path, '$ref'),
      'strict_unresolved_ref',
      `Reference "${node.$ref}" does not resolve to a local definition; strict mode cannot send it, so the value was narrowed to string, number, boolean or null. Fix the reference.`,
    );
    return { type: ['string', 'number', 'boolean', 'null'] };
  }

  if (Array.isArray(node.allOf)) {
    const merge = mergeAllOf(node, ctx.root, refs);
    for (const { index, ref } of merge.recursive) {
      report(
        ctx,
        joinPointer(path, 'allOf', index, '$ref'),
        'strict_recursive_ref',
        `Reference "${ref}" refers to a schema it is part of, so this allOf branch cannot be merged into it; it was left out.`,
      );
    }
    for (const { index, ref } of merge.unresolved) {
      report(
        ctx,
        joinPointer(path, 'allOf', index, '$ref'),
        'strict_unresolved_ref',
        `Reference "${ref}" does not resolve to a local definition; it was dropped. Fix the reference.`,
      );
    }
    for (const index of merge.invalid) {
      report(
        ctx,
        joinPointer(path, 'allOf', index),
        'strict_bad_schema',
        'This allOf branch is not a schema object; strict mode has no allOf, so it was left out.',
      );
    }
    for (const { index, key } of merge.conflicts) {
      report(
        ctx,
        joinPointer(path, 'allOf', index, key),
        'strict_allof',
        `Strict mode has no allOf, and its branches disagree on "${key}"; the first value was kept. Flatten the schema.`,
      );
    }
    node = merge.merged;
    refs = merge.refs;
    // A merged branch may bring a $ref of its own beside the other keywords: inline it as above
    // (the references already inlined here are carried, so this ends).
    if (typeof node.$ref === 'string') return convert(node, path, ctx, depth, refs);
  }

  if (Array.isArray(node.oneOf)) {
    const { oneOf, ...rest } = node;
    report(
      ctx,
      joinPointer(path, 'oneOf'),
      'strict_oneof_as_anyof',
      'Strict mode has no oneOf; it was sent as anyOf, so "exactly one" became "at least one".',
    );
    node = { ...rest, anyOf: [...(Array.isArray(rest.anyOf) ? rest.anyOf : []), ...oneOf] };
  }

  for (const [key, { test, what }] of Object.entries(KEYWORD_SHAPES)) {
    if (!(key in node) || test(node[key])) continue;
    report(
      ctx,
      joinPointer(path, key),
      'strict_bad_schema',
      `"${key}" must be ${what}; this one is not, so it was dropped.`,
    );
    delete node[key];
  }
  const typed = ['type', 'enum', 'const', 'anyOf', '$ref', 'properties', 'items'].some((key) => key in node);
  if (!typed) {
    report(
      ctx,
      path,
      'strict_any_value',
      'Strict mode needs a type; this schema accepts any value, so it was narrowed to string, number, boolean or null. Give it a type.',
    );
    node.type = ['string', 'number', 'boolean', 'null'];
  }

  if (node.type !== undefined) {
    const listed: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
    const valid = listed.filter((t): t is string => typeof t === 'string' && JSON_TYPES.has(t));
    if (valid.length < listed.length || valid.length === 0) {
      const narrowed = valid.length === 0;
      report(
        ctx,
        joinPointer(path, 'type'),
        'strict_bad_type',
        `${listed
          .filter((t) => !valid.includes(t as string))
          .map((t) => JSON.stringify(t))
          .join(
            ', ',
          )} ${listed.length - valid.length === 1 ? 'is' : 'are'} no JSON Schema type; ${narrowed ? 'the value was narrowed to string, number, boolean or null' : 'left out'}. Use string, number, integer, boolean, object, array or null.`,
      );
      node.type = narrowed ? ['string', 'number', 'boolean', 'null'] : valid.length === 1 ? valid[0] : valid;
    }
  }

  for (const key of UNSUPPORTED_KEYWORDS) {
    if (!(key in node)) continue;
    const value = node[key];
    delete node[key];
    if (key === 'uniqueItems' && value === false) continue;
    if (
      (key === 'minLength' || key === 'maxLength' || key === 'minProperties' || key === 'maxProperties') &&
      typeof value === 'number'
    ) {
      appendDescription(node, `${key}: ${value}`);
    }
    report(
      ctx,
      joinPointer(path, key),
      'strict_unsupported_keyword',
      `Strict mode does not support "${key}"; it was dropped${typeof value === 'number' ? ' (kept as a hint in the description)' : ''}.`,
    );
  }

  if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) {
    appendDescription(node, `format: ${node.format}`);
    report(
      ctx,
      joinPointer(path, 'format'),
      'strict_unsupported_keyword',
      `Strict mode does not support format "${node.format}"; it was moved into the description.`,
    );
    delete node.format;
  }
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (typeof node[key] === 'boolean') {
      report(
        ctx,
        joinPointer(path, key),
        'strict_unsupported_keyword',
        `Draft-04 boolean "${key}" is not supported; it was dropped. Use a number (draft-06+).`,
      );
      delete node[key];
    }
  }
  if ('default' in node) {
    // Strict mode rejects `default`. The model still needs it to choose well, so it moves into
    // the description; a null default says nothing beyond "nullable" (OpenAI's SDK drops it).
    if (node.default !== null) appendDescription(node, `default: ${JSON.stringify(node.default)}`);
    delete node.default;
  }
  for (const key of Object.keys(node)) {
    if (SUPPORTED_KEYWORDS.has(key)) continue;
    delete node[key];
    if (ANNOTATION_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    report(
      ctx,
      joinPointer(path, key),
      'strict_unsupported_keyword',
      `Strict mode does not support "${key}"; it was dropped.`,
    );
  }
  if (Array.isArray(node.enum) && node.enum.length === 0) {
    // Accepts no value at all; strict mode needs at least one.
    report(
      ctx,
      joinPointer(path, 'enum'),
      'strict_empty_enum',
      'An empty enum accepts no value, which strict mode cannot express; only null is accepted here now. Give the enum its values.',
    );
    node.enum = [null];
  }
  if (node.type === undefined && node.$ref === undefined && (Array.isArray(node.enum) || 'const' in node)) {
    // Enums without a type are not accepted everywhere; state the type of the values.
    const values = Array.isArray(node.enum) ? node.enum : [node.const];
    const types = [...new Set(values.map(getJsonType))];
    node.type = types.length === 1 ? types[0] : types;
  }

  if (Array.isArray(node.enum)) {
    const text = node.enum.reduce<number>((sum, v) => sum + (typeof v === 'string' ? v.length : 0), 0);
    if (node.enum.length > MAX_LONG_ENUM && text > MAX_ENUM_TEXT) {
      report(
        ctx,
        joinPointer(path, 'enum'),
        'strict_limit',
        `Strict mode allows at most ${MAX_ENUM_TEXT} characters in the values of an enum of more than ${MAX_LONG_ENUM} values; this one has ${text}.`,
      );
    }
  }
  // A schema given only by `properties` or `items` is an object or an array; strict mode
  // wants the type said.
  if (node.type === undefined && node.$ref === undefined && !Array.isArray(node.anyOf)) {
    if (isJsonObject(node.properties)) node.type = 'object';
    else if (node.items !== undefined) node.type = 'array';
  }
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (isArray && node.items === undefined) {
    report(
      ctx,
      path,
      'strict_untyped_items',
      'Strict mode needs an item type for arrays ("array schema missing items"); this array declares none, so its items were narrowed to string, number, boolean or null. Add "items".',
    );
    node.items = { type: ['string', 'number', 'boolean', 'null'] };
  }

  if (Array.isArray(node.anyOf) && node.anyOf.length === 0) {
    report(
      ctx,
      joinPointer(path, 'anyOf'),
      'strict_empty_anyof',
      'An empty anyOf accepts no value, which strict mode cannot express; only null is accepted here now. Give it its branches.',
    );
    node.anyOf = [{ type: 'null' }];
  }
  if (Array.isArray(node.anyOf)) {
    node.anyOf = node.anyOf.map((branch, i) =>
      convert(branch, joinPointer(path, 'anyOf', i), ctx, depth, refs),
    );
  }

  if (node.items !== undefined) {
    if (Array.isArray(node.items)) {
      report(
        ctx,
        joinPointer(path, 'items'),
        'strict_tuple',
        'Strict mode has no tuple arrays; the item schemas were combined with anyOf.',
      );
      node.items = {
        anyOf: node.items.map((item, i) => convert(item, joinPointer(path, 'items', i), ctx, depth, refs)),
      };
    } else {
      node.items = convert(node.items, joinPointer(path, 'items'), ctx, depth, refs);
    }
  }

  if (isObjectSchema(node)) {
    // Reported once, at the first object past the limit, not again for each deeper one.
    if (depth === MAX_OBJECT_DEPTH) {
      report(
        ctx,
        path,
        'strict_limit',
        `Strict mode allows at most ${MAX_OBJECT_DEPTH} levels of object nesting; this object is deeper.`,
      );
    }
    const properties = isJsonObject(node.properties) ? node.properties : {};
    const names = Object.keys(properties);
    const extra = node.additionalProperties;
    if (extra !== undefined && extra !== false) {
      if (names.length === 0) {
        report(
          ctx,
          joinPointer(path, 'additionalProperties'),
          'strict_free_form_object',
          'Strict mode cannot express an open map (additionalProperties); the model could only send {}. Declare the keys as properties, or do not use strict mode for this tool.',
        );
      } else {
        report(
          ctx,
          joinPointer(path, 'additionalProperties'),
          'strict_closed_object',
          'Strict mode requires additionalProperties: false; extra keys beyond the declared properties can no longer be sent.',
        );
      }
    } else if (names.length === 0 && path !== '') {
      report(
        ctx,
        path,
        'strict_free_form_object',
        'This object declares no properties; in strict mode the model can only send {}. Declare its properties, or do not use strict mode for this tool.',
      );
    }
    const required = new Set(
      Array.isArray(node.required) ? node.required.filter((n): n is string => typeof n === 'string') : [],
    );
    const converted: JsonSchema = {};
    for (const name of names) {
      const propPath = joinPointer(path, 'properties', name);
      let propSchema = convert(properties[name], propPath, ctx, depth + 1, refs);
      if (!required.has(name)) {
        if (!isNullable(propSchema)) ctx.nullableOptional.push(propPath);
        propSchema = addNull(propSchema);
      }
      setJsonMember(converted, name, propSchema);
    }
    ctx.propertyCount += names.length;
    node.properties = converted;
    node.required = names;
    node.additionalProperties = false;
  } else {
    // Object keywords constrain only objects; on a value that cannot be one they say nothing,
    // and strict mode rejects them there. Beside an untyped anyOf they did constrain the object
    // branches, so dropping them is said.
    const objectKeys = ['properties', 'required', 'additionalProperties'].filter((key) => key in node);
    if (node.type === undefined && Array.isArray(node.anyOf) && objectKeys.length > 0) {
      report(
        ctx,
        joinPointer(path, objectKeys[0]),
        'strict_bad_schema',
        `Strict mode accepts ${objectKeys.map((k) => `"${k}"`).join(', ')} only on a schema of type "object"; beside this anyOf they were dropped. Move them into the anyOf branch that is an object.`,
      );
    }
    delete node.properties;
    delete node.required;
    delete node.additionalProperties;
  }

  for (const key of ['$defs', 'definitions'] as const) {
    const defs = node[key];
    if (!isJsonObject(defs)) continue;
    const out: JsonSchema = {};
    for (const [name, def] of Object.entries(defs))
      setJsonMember(out, name, convert(def, joinPointer(path, key, name), ctx, depth, refs));
    node[key] = out;
  }
  return node;
}

/** Enum values in all of a converted schema (properties, items, anyOf and definitions). */
function countEnumValues(schema: JsonSchema): number {
  let count = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isJsonObject(node)) continue;
    if (Array.isArray(node.enum)) count += node.enum.length;
    for (const key of ['properties', '$defs', 'definitions'] as const) {
      const members = node[key];
      if (isJsonObject(members)) stack.push(...Object.values(members));
    }
    if (node.items !== undefined) stack.push(node.items);
    if (Array.isArray(node.anyOf)) stack.push(...node.anyOf);
  }
  return count;
}

/**
 * Convert a tool's parameters schema for OpenAI strict mode: all properties required (optional
 * ones become null unions), `additionalProperties: false` on every object, recursively
 * (through properties, items, anyOf, $defs). What cannot be expressed is reported with a
 * path and code (`strict_*`), never silently dropped; a root that is not an object is reported.
 */
export function toStrictSchema(schema: JsonSchema): StrictSchemaResult {
  const ctx: StrictContext = {
    root: schema,
    issues: [],
    nullableOptional: [],
    propertyCount: 0,
  };
  const out = convert(schema, '', ctx, 0);
  if (!isObjectSchema(out) || Array.isArray(out.anyOf)) {
    report(
      ctx,
      '',
      'strict_root',
      'Strict mode needs the parameters root to be an object schema (not anyOf). Make the root {"type":"object", "properties": …}.',
    );
  }
  // Counted on the output: making an optional enum nullable adds a null value to it.
  const enumCount = countEnumValues(out);
  if (enumCount > MAX_ENUM_VALUES) {
    report(
      ctx,
      '',
      'strict_limit',
      `Strict mode allows at most ${MAX_ENUM_VALUES} enum values in a schema; this one has ${enumCount}.`,
    );
  }
  if (ctx.propertyCount > MAX_PROPERTIES) {
    report(
      ctx,
      '',
      'strict_limit',
      `Strict mode allows at most ${MAX_PROPERTIES} properties in total; this schema has ${ctx.propertyCount}.`,
    );
  }
  return { schema: out, issues: ctx.issues, nullableOptional: ctx.nullableOptional };
}
