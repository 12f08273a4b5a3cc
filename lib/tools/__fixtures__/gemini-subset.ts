/**
 * A checker for Gemini's function-declaration schema subset (Gemini API `Schema`), used by
 * tests to prove converted schemas contain nothing Gemini rejects.
 */
import type { JsonSchema } from '../types';

/** Every key Gemini's `Schema` object accepts (Gemini API reference, v1beta `Schema`). */
const GEMINI_SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);

/** Paths of every key or type outside Gemini's subset, or of a structure Gemini rejects. */
export function findGeminiViolations(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return [`${path}: not an object`];
  const node = schema as JsonSchema;
  const found: string[] = [];
  for (const key of Object.keys(node)) if (!GEMINI_SCHEMA_KEYS.has(key)) found.push(`${path}/${key}`);
  if (node.type !== undefined && !GEMINI_TYPES.has(node.type as string))
    found.push(`${path}/type: ${JSON.stringify(node.type)}`);
  if ((node.properties !== undefined || node.required !== undefined) && node.type !== 'OBJECT')
    found.push(`${path}: properties on non-OBJECT`);
  if (node.type === 'ARRAY' && node.items === undefined) found.push(`${path}: ARRAY without items`);
  // "properties: should be non-empty for OBJECT type"
  if (node.type === 'OBJECT' && Object.keys((node.properties as object) ?? {}).length === 0)
    found.push(`${path}: OBJECT without properties`);
  if (node.type === undefined && !Array.isArray(node.anyOf)) found.push(`${path}: no type`);
  if (Array.isArray(node.enum) && node.enum.some((v) => typeof v !== 'string'))
    found.push(`${path}/enum: non-string value`);
  if (Array.isArray(node.required)) {
    for (const name of node.required)
      if (!(name in ((node.properties as object) ?? {}))) found.push(`${path}/required: ${name} undeclared`);
  }
  if (node.properties)
    for (const [name, sub] of Object.entries(node.properties as object))
      found.push(...findGeminiViolations(sub, `${path}/properties/${name}`));
  if (node.items !== undefined) found.push(...findGeminiViolations(node.items, `${path}/items`));
  if (Array.isArray(node.anyOf))
    node.anyOf.forEach((b, i) => found.push(...findGeminiViolations(b, `${path}/anyOf/${i}`)));
  return found;
}
