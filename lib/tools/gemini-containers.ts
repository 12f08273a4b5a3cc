/**
 * Arrays and objects in Gemini's subset: `items` is required on ARRAY and is one schema (tuples
 * become an `anyOf`); `properties` must be non-empty on OBJECT, `required` may name only declared
 * properties, and there is no `additionalProperties` or `patternProperties`.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { setJsonMember } from './json-value';
import { appendDescription, report, type ConvertChild, type ToGeminiContext } from './gemini-context';
import type { JsonSchema } from './types';

/** Convert the items and item counts of the array `node` into `out`. */
export function convertArray(
  out: JsonSchema,
  node: JsonSchema,
  path: string,
  ctx: ToGeminiContext,
  convert: ConvertChild,
): void {
  if (Array.isArray(node.items) || Array.isArray(node.prefixItems)) {
    report(
      ctx,
      joinPointer(path, Array.isArray(node.items) ? 'items' : 'prefixItems'),
      'gemini_tuple',
      'Gemini has no tuple arrays; the item schemas were combined with anyOf.',
    );
    const tuple = (Array.isArray(node.items) ? node.items : node.prefixItems) as unknown[];
    const itemPath = joinPointer(path, Array.isArray(node.items) ? 'items' : 'prefixItems');
    const converted = tuple.map((item, i) => convert(item, joinPointer(itemPath, i)));
    out.items = converted.length === 1 ? converted[0] : { anyOf: converted };
  } else if (node.items !== undefined && node.items !== true) {
    out.items = convert(node.items, joinPointer(path, 'items'));
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

/**
 * Convert the properties of the object `node` into `out`. Returns true when the object declares
 * none (below the root): Gemini rejects that, so it is sent as a string holding JSON instead.
 */
export function convertObject(
  out: JsonSchema,
  node: JsonSchema,
  path: string,
  ctx: ToGeminiContext,
  convert: ConvertChild,
): boolean {
  let jsonText = false;
  const properties = isJsonObject(node.properties) ? node.properties : {};
  const names = Object.keys(properties);
  if (names.length > 0) {
    const converted: JsonSchema = {};
    for (const name of names) {
      const propPath = joinPointer(path, 'properties', name);
      setJsonMember(converted, name, convert(properties[name], propPath));
    }
    out.properties = converted;
    copyRequired(out, node, names, path, ctx);
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
  reportOpenKeys(node, path, ctx);
  return jsonText;
}

/** `required`, keeping only names of declared properties (Gemini rejects others). */
function copyRequired(
  out: JsonSchema,
  node: JsonSchema,
  names: string[],
  path: string,
  ctx: ToGeminiContext,
): void {
  if (!Array.isArray(node.required)) return;
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

/** Report the schemas of extra keys that Gemini has no keyword for. */
function reportOpenKeys(node: JsonSchema, path: string, ctx: ToGeminiContext): void {
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
