/**
 * Gemini's function-declaration `parameters` use "a select subset of an OpenAPI 3.0 schema
 * object" (Gemini API `Schema`): type, format, title, description, nullable, enum (strings),
 * properties, required, items, anyOf, min/max items/length/properties, minimum, maximum,
 * pattern, default, example, propertyOrdering. No `$ref`, no `additionalProperties`, no type
 * arrays; `properties`/`required` only on OBJECT, `items` required on ARRAY, and an OBJECT
 * with empty `properties` is rejected ("should be non-empty for OBJECT type").
 * This module converts JSON Schema into that subset (reporting what it cannot carry over) and
 * reads the subset back into JSON Schema. The conversion's steps live by keyword family:
 * references and unions in gemini-unions.ts, scalar keywords in gemini-keywords.ts, arrays and
 * objects in gemini-containers.ts.
 */
import type { Issue } from '../result';
import { convertArray, convertObject } from './gemini-containers';
import { report, type ToGeminiContext } from './gemini-context';
import {
  convertEnum,
  convertFormat,
  copyExamples,
  copyScalarBounds,
  inferType,
  reportUnknownKeywords,
  requireType,
  setType,
} from './gemini-keywords';
import { cutRecursion, mergeAllOfReported, reportUnresolvedRef, settleUnions } from './gemini-unions';
import { isJsonObject } from './json-schema';
import { createLookupTable, hasMember, setJsonMember } from './json-value';
import { inlineRef } from './schema-walk';
import type { JsonSchema } from './types';

/** How Gemini type names are written: the API's enum names (`STRING`) or lowercase. */
export type GeminiTypeCase = 'upper' | 'lower';

/** A JSON Schema converted to Gemini's subset, with what could not be carried over. */
export interface GeminiSchemaResult {
  schema: JsonSchema;
  /** Constraints dropped or approximated, located by JSON Pointer into the input schema. */
  issues: Issue[];
}

/**
 * Convert one schema. `refStack` are the references inlined around it: one met again inside
 * itself is recursion. The steps run in a fixed order, which is also the order of the issues
 * they report.
 */
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
    if (inlined.kind === 'recursive') return cutRecursion(inlined, path, ctx);
    reportUnresolvedRef(ctx, path, inlined.ref);
    node = inlined.siblings;
  }
  if (Array.isArray(node.allOf)) {
    const { merged, refs } = mergeAllOfReported(node, path, ctx, refStack);
    node = merged;
    refStack = refs;
  }
  const convertChild = (child: unknown, at: string) => convertNode(child, at, ctx, refStack);
  const settled = settleUnions(node, path, ctx, convertChild);
  if (settled.kind === 'converted') return settled.schema;
  node = settled.node;

  const type = settled.type ?? inferType(node);
  const out: JsonSchema = {};
  setType(out, type, path, ctx);
  if (typeof node.description === 'string') out.description = node.description;
  else if (typeof node.title === 'string' && node.title !== '') out.description = node.title;
  if (settled.nullable) out.nullable = true;
  convertEnum(out, node, type, path, ctx);
  convertFormat(out, node, type, path, ctx);
  copyScalarBounds(out, node, type, path, ctx);
  if (type === 'array') convertArray(out, node, path, ctx, convertChild);
  /** An object Gemini cannot declare, sent as JSON text instead. */
  const jsonText = type === 'object' && convertObject(out, node, path, ctx, convertChild);
  copyExamples(out, node, jsonText);
  requireType(out, path, ctx);
  reportUnknownKeywords(node, path, ctx);
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
