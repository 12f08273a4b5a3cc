/**
 * Unions in OpenAI strict mode, whose only union is `anyOf`: `oneOf` is sent as `anyOf`, tuple
 * items become an `anyOf` of the item schemas, an empty `anyOf` is given a branch, and an
 * optional value is a union with null.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { report, type ConvertChild, type StrictContext } from './strict-context';
import type { JsonSchema } from './types';

/** `oneOf` sent as `anyOf` (after any `anyOf` already there): "exactly one" becomes "at least one". */
export function sendOneOfAsAnyOf(node: JsonSchema, path: string, ctx: StrictContext): JsonSchema {
  if (!Array.isArray(node.oneOf)) return node;
  const { oneOf, ...rest } = node;
  report(
    ctx,
    joinPointer(path, 'oneOf'),
    'strict_oneof_as_anyof',
    'Strict mode has no oneOf; it was sent as anyOf, so "exactly one" became "at least one".',
  );
  return { ...rest, anyOf: [...(Array.isArray(rest.anyOf) ? rest.anyOf : []), ...oneOf] };
}

/** Convert the `anyOf` branches of `node` in place; an empty `anyOf` becomes a null branch. */
export function convertAnyOf(
  node: JsonSchema,
  path: string,
  ctx: StrictContext,
  convert: ConvertChild,
): void {
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
    node.anyOf = node.anyOf.map((branch, i) => convert(branch, joinPointer(path, 'anyOf', i)));
  }
}

/** Convert the `items` of `node` in place; tuple items (a list) become one `anyOf` of them. */
export function convertItems(
  node: JsonSchema,
  path: string,
  ctx: StrictContext,
  convert: ConvertChild,
): void {
  if (node.items === undefined) return;
  if (Array.isArray(node.items)) {
    report(
      ctx,
      joinPointer(path, 'items'),
      'strict_tuple',
      'Strict mode has no tuple arrays; the item schemas were combined with anyOf.',
    );
    node.items = { anyOf: node.items.map((item, i) => convert(item, joinPointer(path, 'items', i))) };
  } else {
    node.items = convert(node.items, joinPointer(path, 'items'));
  }
}

/** True when `schema` already accepts `null`. */
export function isNullable(schema: JsonSchema): boolean {
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => isJsonObject(b) && isNullable(b))) return true;
  return false;
}

/** Allow `null` in addition to what `schema` accepts, in the form strict mode supports. */
export function addNull(schema: JsonSchema): JsonSchema {
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
