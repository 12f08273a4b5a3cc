/**
 * Objects in OpenAI strict mode: every property listed in `required` (an optional one becomes a
 * union with null, which the model sends for "not given"), `additionalProperties: false`, and at
 * most ten levels of nesting. Object keywords on a schema that is no object are dropped.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { setJsonMember } from './json-value';
import { report, type ConvertChild, type StrictContext } from './strict-context';
import { addNull, isNullable } from './strict-unions';
import type { JsonSchema } from './types';

const MAX_OBJECT_DEPTH = 10;

/** True when `node` describes an object: typed so, or given only by its `properties`. */
export function isObjectSchema(node: JsonSchema): boolean {
  return (
    node.type === 'object' ||
    (Array.isArray(node.type) && node.type.includes('object')) ||
    (node.type === undefined && !Array.isArray(node.anyOf) && isJsonObject(node.properties))
  );
}

/**
 * Close the object `node` in place: its properties converted (`convertProperty`, one level
 * deeper) and all required, optional ones made nullable, no other keys allowed. `depth` is the
 * object nesting of `node` itself. What closing it takes away is reported.
 */
export function closeObject(
  node: JsonSchema,
  path: string,
  ctx: StrictContext,
  depth: number,
  convertProperty: ConvertChild,
): void {
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
  reportClosing(node, path, ctx, names.length);
  const required = new Set(
    Array.isArray(node.required) ? node.required.filter((n): n is string => typeof n === 'string') : [],
  );
  const converted: JsonSchema = {};
  for (const name of names) {
    const propPath = joinPointer(path, 'properties', name);
    let propSchema = convertProperty(properties[name], propPath);
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
}

/** Say what `additionalProperties: false` takes from an object with `propertyCount` properties. */
function reportClosing(node: JsonSchema, path: string, ctx: StrictContext, propertyCount: number): void {
  const extra = node.additionalProperties;
  if (extra !== undefined && extra !== false) {
    if (propertyCount === 0) {
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
  } else if (propertyCount === 0 && path !== '') {
    report(
      ctx,
      path,
      'strict_free_form_object',
      'This object declares no properties; in strict mode the model can only send {}. Declare its properties, or do not use strict mode for this tool.',
    );
  }
}

/** Remove the object keywords from `node`, which is no object (strict mode rejects them there). */
export function dropObjectKeywords(node: JsonSchema, path: string, ctx: StrictContext): void {
  // On a value that cannot be an object they say nothing. Beside an untyped anyOf they did
  // constrain the object branches, so dropping them is said.
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
