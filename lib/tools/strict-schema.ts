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
 * The conversion's steps live by keyword family: references, allOf and definitions in
 * strict-refs.ts, kept and dropped keywords in strict-keywords.ts, types and enums in
 * strict-types.ts, unions in strict-unions.ts, objects in strict-objects.ts.
 */
import type { Issue } from '../result';
import { isJsonObject } from './json-schema';
import { report, type StrictContext } from './strict-context';
import { dropMalformedKeywords, dropUnsupportedKeywords } from './strict-keywords';
import { closeObject, dropObjectKeywords, isObjectSchema } from './strict-objects';
import { convertDefinitions, mergeAllOfReported, settleRefs } from './strict-refs';
import { settleContainerType, settleEnum, settleTypeNames } from './strict-types';
import { convertAnyOf, convertItems, sendOneOfAsAnyOf } from './strict-unions';
import type { JsonSchema } from './types';

const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

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

/**
 * Convert one schema. `refs` are the references inlined around it (a `$ref` with keywords beside
 * it is inlined, as is an allOf branch): one met again inside itself is not inlined again. The
 * steps run in a fixed order, which is also the order of the issues they report.
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
  const settled = settleRefs({ ...raw }, path, ctx, refs);
  if (settled.kind === 'final') return settled.schema;
  let node = settled.node;
  refs = settled.refs;
  if (Array.isArray(node.allOf)) {
    ({ node, refs } = mergeAllOfReported(node, path, ctx, refs));
    // A merged branch may bring a $ref of its own beside the other keywords: inline it as above
    // (the references already inlined here are carried, so this ends).
    if (typeof node.$ref === 'string') return convert(node, path, ctx, depth, refs);
  }
  node = sendOneOfAsAnyOf(node, path, ctx);

  dropMalformedKeywords(node, path, ctx);
  settleTypeNames(node, path, ctx);
  dropUnsupportedKeywords(node, path, ctx);
  settleEnum(node, path, ctx);
  settleContainerType(node, path, ctx);

  const convertChild = (child: unknown, at: string) => convert(child, at, ctx, depth, refs);
  convertAnyOf(node, path, ctx, convertChild);
  convertItems(node, path, ctx, convertChild);
  if (isObjectSchema(node)) {
    closeObject(node, path, ctx, depth, (child, at) => convert(child, at, ctx, depth + 1, refs));
  } else {
    dropObjectKeywords(node, path, ctx);
  }
  convertDefinitions(node, path, convertChild);
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
