/**
 * Gemini's function-declaration `parameters` use "a select subset of an OpenAPI 3.0 schema
 * object" (Gemini API `Schema`): type, format, title, description, nullable, enum (strings),
 * properties, required, items, anyOf, min/max items/length/properties, minimum, maximum,
 * pattern, default, example, propertyOrdering. No `$ref`, no `additionalProperties`, no type
 * arrays; `properties`/`required` only on OBJECT, `items` required on ARRAY, and an OBJECT
 * with empty `properties` is rejected ("should be non-empty for OBJECT type").
 * This module converts JSON Schema into that subset (reporting what it cannot carry over) and
 * reads the subset back into JSON Schema.
 */
import { joinPointer, type Issue } from '../result';
import { isJsonObject } from './json-schema';
import { createLookupTable, hasMember, setJsonMember } from './json-value';
import { inlineRef, mergeAllOf } from './schema-walk';
import type { JsonSchema } from './types';

/** How Gemini type names are written: the API's enum names (`STRING`) or lowercase. */
export type GeminiTypeCase = 'upper' | 'lower';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Formats Gemini documents per type; others are dropped (older models reject them). */
const GEMINI_FORMATS = createLookupTable<readonly string[]>({
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
});

/** Keywords that only annotate; dropped without a report. */
const ANNOTATION_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  '$defs',
  'definitions',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'examples',
  'title',
]);

/** Keywords handled by the converter itself. */
const HANDLED_KEYWORDS = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'const',
  'properties',
  'required',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'minProperties',
  'maxProperties',
  'default',
  'example',
  'additionalProperties',
]);

/** A JSON Schema converted to Gemini's subset, with what could not be carried over. */
export interface GeminiSchemaResult {
  schema: JsonSchema;
  /** Constraints dropped or approximated, located by JSON Pointer into the input schema. */
  issues: Issue[];
}

interface ToGeminiContext {
  root: JsonSchema;
  issues: Issue[];
  typeName: (jsonType: string) => string;
}

function report(ctx: ToGeminiContext, path: string, code: string, message: string): void {
  ctx.issues.push({ path, code, message });
}

function isNullBranch(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (value.type === 'null') return true;
  return Array.isArray(value.type) && value.type.length === 1 && value.type[0] === 'null';
}

function reportRecursiveRef(ctx: ToGeminiContext, path: string, ref: string): void {
  report(
    ctx,
    joinPointer(path, '$ref'),
    'gemini_recursive_ref',
    `Recursive reference "${ref}" cannot be inlined for Gemini (it has no $ref); the recursion was cut here and the rest is sent as a string holding JSON. Send the schema as parametersJsonSchema to keep it.`,
  );
}

/** Report what merging `allOf` gave up: recursive, dangling or invalid branches, conflicts. */
function mergeAllOfReported(
  node: JsonSchema,
  path: string,
  ctx: ToGeminiContext,
  refStack: readonly string[],
): { merged: JsonSchema; refs: readonly string[] } {
  const merge = mergeAllOf(node, ctx.root, refStack);
  for (const { index, ref } of merge.recursive)
    reportRecursiveRef(ctx, joinPointer(path, 'allOf', index), ref);
  for (const { index, ref } of merge.unresolved) {
    report(
      ctx,
      joinPointer(path, 'allOf', index, '$ref'),
      'gemini_unresolved_ref',
      `Reference "${ref}" does not resolve to a local definition; only the keywords beside it were kept. Fix the reference.`,
    );
  }
  for (const index of merge.invalid) {
    report(
      ctx,
      joinPointer(path, 'allOf', index),
      'gemini_bad_schema',
      'This allOf branch is not a schema object; it was left out for Gemini. Replace it with an object schema.',
    );
  }
  for (const { index, key } of merge.conflicts) {
    report(
      ctx,
      joinPointer(path, 'allOf', index, key),
      'gemini_allof_conflict',
      `"allOf" branches disagree on "${key}"; Gemini has no allOf, so the first value was kept. Simplify the schema or send it as parametersJsonSchema.`,
    );
  }
  return merge;
}

function inferType(node: JsonSchema): string | undefined {
  if (isJsonObject(node.properties)) return 'object';
  if (node.items !== undefined) return 'array';
  const values = Array.isArray(node.enum)
    ? node.enum.filter((v) => v !== null)
    : 'const' in node
      ? [node.const]
      : [];
  const first = values[0];
  if (typeof first === 'string') return 'string';
  if (typeof first === 'boolean') return 'boolean';
  if (typeof first === 'number') return Number.isInteger(first) ? 'integer' : 'number';
  return undefined;
}

function appendDescription(out: JsonSchema, note: string): void {
  out.description =
    typeof out.description === 'string' && out.description !== '' ? `${out.description} (${note})` : note;
}

function convertNode(
  raw: unknown,
  path: string,
  ctx: ToGeminiContext,
  refStack: readonly string[],
): JsonSchema {
  // `true` accepts anything: an untyped schema, handled (and reported) as one below.
  if (raw === true || raw === undefined) raw = {};
  if (!isJsonObject(raw)) {
    report(
      ctx,
      path,
      'gemini_bad_schema',
      'This schema is not an object (or `true`); Gemini gets a string here. Replace it with an object schema.',
    );
    return { type: ctx.typeName('string') };
  }
  let node: JsonSchema = raw;

  if (typeof node.$ref === 'string') {
    const inlined = inlineRef(node, ctx.root, refStack);
    if (inlined.kind === 'inlined') return convertNode(inlined.node, path, ctx, inlined.refs);
    if (inlined.kind === 'recursive') {
      reportRecursiveRef(ctx, path, inlined.ref);
      // Gemini cannot nest the shape again, nor take an OBJECT without properties: the
      // recursive part travels as JSON text.
      const cut: JsonSchema = { type: ctx.typeName('string') };
      const description =
        typeof inlined.siblings.description === 'string' ? inlined.siblings.description : undefined;
      cut.description = description
        ? `${description} (recursive: same shape as its parent, written as a JSON string)`
        : 'Recursive: same shape as its parent, written as a JSON string.';
      return cut;
    }
    report(
      ctx,
      joinPointer(path, '$ref'),
      'gemini_unresolved_ref',
      `Reference "${inlined.ref}" does not resolve to a local definition; only the keywords beside it were kept. Fix the reference.`,
    );
    node = inlined.siblings;
  }

  if (Array.isArray(node.allOf)) {
    const { merged, refs } = mergeAllOfReported(node, path, ctx, refStack);
    node = merged;
    refStack = refs;
  }

  let nullable = node.nullable === true;
  let types: string[] = [];
  if (typeof node.type === 'string') types = [node.type];
  else if (Array.isArray(node.type)) types = node.type.filter((t): t is string => typeof t === 'string');
  if (types.includes('null')) {
    nullable = true;
    types = types.filter((t) => t !== 'null');
  }

  // anyOf/oneOf: a null branch is `nullable`; one remaining branch is folded into this node.
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (!Array.isArray(branches)) continue;
    const { [keyword]: _drop, ...rest } = node;
    const nonNull = branches
      .map((branch, index) => ({ branch, index }))
      .filter(({ branch }) => {
        if (isNullBranch(branch)) {
          nullable = true;
          return false;
        }
        return true;
      });
    if (nonNull.length === 1 && types.length === 0) {
      // Fold the one real branch into this node; keywords written here (a description, a
      // default) annotate it and win over the branch's own.
      const only = nonNull[0].branch;
      const folded = convertNode(isJsonObject(only) ? { ...only, ...rest } : rest, path, ctx, refStack);
      if (nullable) folded.nullable = true;
      return folded;
    }
    if (nonNull.length > 1) {
      if (keyword === 'oneOf') {
        report(
          ctx,
          joinPointer(path, keyword),
          'gemini_oneof_as_anyof',
          'Gemini has no oneOf; it was sent as anyOf, so "exactly one" became "at least one".',
        );
      }
      const out: JsonSchema = {};
      if (typeof rest.description === 'string') out.description = rest.description;
      else if (typeof rest.title === 'string') out.description = rest.title;
      out.anyOf = nonNull.map(({ branch, index }) =>
        convertNode(branch, joinPointer(path, keyword, index), ctx, refStack),
      );
      if (nullable) out.nullable = true;
      if ('default' in rest) out.default = rest.default;
      return out;
    }
    node = rest;
  }

  if (types.length > 1) {
    // Gemini has no type arrays: one anyOf branch per type, annotations on the outside.
    const { type: _type, description, title, default: dflt, ...rest } = node;
    const out: JsonSchema = {};
    if (typeof description === 'string') out.description = description;
    else if (typeof title === 'string') out.description = title;
    out.anyOf = types.map((t) => convertNode({ ...rest, type: t }, path, ctx, refStack));
    if (nullable) out.nullable = true;
    if (dflt !== undefined) out.default = dflt;
    return out;
  }

  const type = types[0] ?? inferType(node);
  const out: JsonSchema = {};
  /** An object Gemini cannot declare, sent as JSON text instead. */
  let jsonText = false;
  if (type !== undefined) {
    if (!JSON_TYPES.has(type)) {
      report(
        ctx,
        joinPointer(path, 'type'),
        'gemini_bad_type',
        `Unknown type "${type}"; Gemini gets a string here. Use one of string, number, integer, boolean, array, object.`,
      );
      out.type = ctx.typeName('string');
    } else {
      out.type = ctx.typeName(type);
    }
  }
  if (typeof node.description === 'string') out.description = node.description;
  else if (typeof node.title === 'string' && node.title !== '') out.description = node.title;
  if (nullable) out.nullable = true;

  // enum / const: Gemini enums are strings; non-string enums use format "enum".
  let values: unknown[] | undefined;
  if (Array.isArray(node.enum)) values = node.enum;
  else if ('const' in node) values = [node.const];
  if (values !== undefined) {
    if (values.includes(null)) out.nullable = true;
    const kept = values.filter((v) => v !== null);
    const scalar = kept.filter(
      (v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
    );
    if (scalar.length < kept.length) {
      report(
        ctx,
        joinPointer(path, Array.isArray(node.enum) ? 'enum' : 'const'),
        'gemini_enum_values',
        'Gemini enums hold strings only; object or array values were left out of the enum.',
      );
    }
    if (scalar.length > 0) {
      if (type === 'boolean') {
        appendDescription(out, `one of: ${scalar.map((v) => JSON.stringify(v)).join(', ')}`);
      } else {
        out.enum = scalar.map((v) => String(v));
        if (type !== undefined && type !== 'string') out.format = 'enum';
      }
    }
  }

  if (typeof node.format === 'string' && out.format === undefined) {
    const allowed = (type !== undefined && GEMINI_FORMATS[type]) || [];
    if (allowed.includes(node.format)) out.format = node.format;
    else {
      appendDescription(out, `format: ${node.format}`);
      report(
        ctx,
        joinPointer(path, 'format'),
        'gemini_dropped_keyword',
        `Gemini does not support format "${node.format}" here; it was moved into the description.`,
      );
    }
  }

  if (type === 'string') {
    for (const key of ['minLength', 'maxLength', 'pattern'] as const)
      if (node[key] !== undefined) out[key] = node[key];
  }
  if (type === 'number' || type === 'integer') {
    for (const key of ['minimum', 'maximum'] as const)
      if (typeof node[key] === 'number') out[key] = node[key];
    for (const key of ['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
      if (typeof node[key] === 'number') {
        appendDescription(out, `${key}: ${node[key]}`);
        report(
          ctx,
          joinPointer(path, key),
          'gemini_dropped_keyword',
          `Gemini does not support "${key}"; it was moved into the description.`,
        );
      }
    }
  }
  if (type === 'array') {
    if (Array.isArray(node.items) || Array.isArray(node.prefixItems)) {
      report(
        ctx,
        joinPointer(path, Array.isArray(node.items) ? 'items' : 'prefixItems'),
        'gemini_tuple',
        'Gemini has no tuple arrays; the item schemas were combined with anyOf.',
      );
      const tuple = (Array.isArray(node.items) ? node.items : node.prefixItems) as unknown[];
      const itemPath = joinPointer(path, Array.isArray(node.items) ? 'items' : 'prefixItems');
      const converted = tuple.map((item, i) => convertNode(item, joinPointer(itemPath, i), ctx, refStack));
      out.items = converted.length === 1 ? converted[0] : { anyOf: converted };
    } else if (node.items !== undefined && node.items !== true) {
      out.items = convertNode(node.items, joinPointer(path, 'items'), ctx, refStack);
    } else {
      // Gemini requires `items` on ARRAY; an untyped list is offered as a list of strings.
      report(
        ctx,
        path,
        'gemini_untyped_items',
        'Gemini requires an item type for arrays; this array declares none, so it was sent as a list of strings. Add "items" to the schema.',
      );
      out.items = { type: ctx.typeName('string') };
    }
    for (const key of ['minItems', 'maxItems'] as const) if (node[key] !== undefined) out[key] = node[key];
    for (const key of ['uniqueItems', 'contains'] as const) {
      if (node[key] !== undefined && node[key] !== false) {
        report(
          ctx,
          joinPointer(path, key),
          'gemini_dropped_keyword',
          `Gemini does not support "${key}"; it was dropped.`,
        );
      }
    }
  }
  if (type === 'object') {
    const properties = isJsonObject(node.properties) ? node.properties : {};
    const names = Object.keys(properties);
    if (names.length > 0) {
      const converted: JsonSchema = {};
      for (const name of names) {
        const propPath = joinPointer(path, 'properties', name);
        setJsonMember(converted, name, convertNode(properties[name], propPath, ctx, refStack));
      }
      out.properties = converted;
      if (Array.isArray(node.required)) {
        const required = node.required.filter((n): n is string => typeof n === 'string' && names.includes(n));
        if (required.length < node.required.length) {
          report(
            ctx,
            joinPointer(path, 'required'),
            'gemini_required_unknown',
            'Gemini rejects required names that are not declared properties; those names were dropped. Declare them under "properties".',
          );
        }
        if (required.length > 0) out.required = required;
      }
    } else if (path !== '') {
      // Gemini rejects an OBJECT without properties ("properties: should be non-empty for
      // OBJECT type"), so an open object travels as JSON text. At the root this is just a tool
      // without parameters; renderers leave `parameters` unset.
      jsonText = true;
      out.type = ctx.typeName('string');
      appendDescription(out, 'a JSON object, written as a JSON string');
      report(
        ctx,
        path,
        'gemini_free_form_object',
        'Gemini rejects an object without declared properties, so this one is sent as a string holding JSON: the tool receives text where it expects an object. Declare its properties, or use parametersJsonSchema (CLI: --gemini-schema parametersJsonSchema) to keep it an object.',
      );
    }
    for (const key of ['minProperties', 'maxProperties'] as const)
      if (node[key] !== undefined) out[key] = node[key];
    if (
      node.additionalProperties !== undefined &&
      node.additionalProperties !== false &&
      node.additionalProperties !== true
    ) {
      report(
        ctx,
        joinPointer(path, 'additionalProperties'),
        'gemini_dropped_keyword',
        'Gemini has no additionalProperties; the schema of the extra keys was dropped.',
      );
    }
    if (isJsonObject(node.patternProperties)) {
      report(
        ctx,
        joinPointer(path, 'patternProperties'),
        'gemini_dropped_keyword',
        'Gemini has no patternProperties; it was dropped.',
      );
    }
  }
  const asText = (value: unknown) => (jsonText ? JSON.stringify(value) : value);
  if ('default' in node) out.default = asText(node.default);
  if ('example' in node) out.example = asText(node.example);
  else if (Array.isArray(node.examples) && node.examples.length > 0) out.example = asText(node.examples[0]);

  if (out.type === undefined) {
    out.type = ctx.typeName('string');
    report(
      ctx,
      path,
      'gemini_untyped',
      'This schema has no type and Gemini needs one; it was sent as a string, so the model can no longer send numbers, booleans, lists or objects here. Add a "type".',
    );
  }
  const meaningful = Object.keys(node).filter(
    (key) =>
      !HANDLED_KEYWORDS.has(key) &&
      !ANNOTATION_KEYWORDS.has(key) &&
      !key.startsWith('x-') &&
      ![
        'exclusiveMinimum',
        'exclusiveMaximum',
        'multipleOf',
        'uniqueItems',
        'contains',
        'patternProperties',
        'prefixItems',
      ].includes(key),
  );
  for (const key of meaningful) {
    report(
      ctx,
      joinPointer(path, key),
      'gemini_dropped_keyword',
      `Gemini does not support "${key}"; it was dropped.`,
    );
  }
  return out;
}

/**
 * Convert a JSON Schema (draft-07 or 2020-12) into Gemini's OpenAPI-3.0 subset: local `$ref`
 * inlined (recursion cut and reported), `allOf` merged, null unions as `nullable: true`, type
 * arrays as `anyOf`, enums as strings, unsupported keywords dropped (and reported when they
 * carried meaning). Types are uppercase (`STRING`) unless `typeCase: 'lower'`.
 */
export function toGeminiSchema(
  schema: JsonSchema,
  opts: { typeCase?: GeminiTypeCase } = {},
): GeminiSchemaResult {
  const upper = opts.typeCase !== 'lower';
  const ctx: ToGeminiContext = {
    root: schema,
    issues: [],
    typeName: (t) => (upper ? t.toUpperCase() : t),
  };
  return { schema: convertNode(schema, '', ctx, []), issues: ctx.issues };
}

/** snake_case spellings (Python SDK dumps) of Gemini Schema fields. */
const SNAKE_TO_CAMEL = createLookupTable({
  any_of: 'anyOf',
  max_items: 'maxItems',
  min_items: 'minItems',
  max_length: 'maxLength',
  min_length: 'minLength',
  max_properties: 'maxProperties',
  min_properties: 'minProperties',
  property_ordering: 'propertyOrdering',
});

const INT64_FIELDS = new Set([
  'maxItems',
  'minItems',
  'maxLength',
  'minLength',
  'maxProperties',
  'minProperties',
]);

/**
 * Read a Gemini OpenAPI-subset schema back into JSON Schema: lowercase types, `nullable` as a
 * null union, `format: "enum"` values restored to numbers for numeric types, `propertyOrdering`
 * applied to the property order, int64 strings as numbers, snake_case field names accepted.
 */
export function fromGeminiSchema(schema: unknown): JsonSchema {
  if (!isJsonObject(schema)) return {};
  const node: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) setJsonMember(node, SNAKE_TO_CAMEL[key] ?? key, value);

  const out: JsonSchema = {};
  const type =
    typeof node.type === 'string' && node.type !== 'TYPE_UNSPECIFIED' ? node.type.toLowerCase() : undefined;
  const nullable = node.nullable === true;
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'type':
        if (type !== undefined) out.type = nullable && type !== 'null' ? [type, 'null'] : type;
        // Some files put plain JSON Schema under `parameters`: keep a type array as written.
        else if (Array.isArray(value))
          out.type = value.map((t) => (typeof t === 'string' ? t.toLowerCase() : t));
        break;
      case 'nullable':
        break;
      case 'format':
        if (value !== 'enum') out.format = value;
        break;
      case 'enum': {
        if (!Array.isArray(value)) break;
        const numeric = type === 'integer' || type === 'number';
        const values = value.map((v) =>
          numeric && typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))
            ? Number(v)
            : type === 'boolean' && (v === 'true' || v === 'false')
              ? v === 'true'
              : v,
        );
        out.enum = nullable ? [...values, null] : values;
        break;
      }
      case 'properties': {
        if (!isJsonObject(value)) break;
        const ordering = Array.isArray(node.propertyOrdering)
          ? node.propertyOrdering.filter((n): n is string => typeof n === 'string' && hasMember(value, n))
          : [];
        const names = [...ordering, ...Object.keys(value).filter((n) => !ordering.includes(n))];
        const properties: JsonSchema = {};
        for (const name of names) setJsonMember(properties, name, fromGeminiSchema(value[name]));
        out.properties = properties;
        break;
      }
      case 'propertyOrdering':
        break;
      case 'items':
        out.items = fromGeminiSchema(value);
        break;
      case 'anyOf':
        if (Array.isArray(value)) {
          const branches = value.map((branch) => fromGeminiSchema(branch));
          out.anyOf = nullable && type === undefined ? [...branches, { type: 'null' }] : branches;
        }
        break;
      case 'example':
        out.examples = [value];
        break;
      default:
        setJsonMember(
          out,
          key,
          INT64_FIELDS.has(key) && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
        );
    }
  }
  return out;
}
