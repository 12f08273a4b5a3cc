/**
 * The scalar keywords of Gemini's subset: the type (one, from Gemini's list), string-only enums,
 * the formats Gemini documents per type, string and number bounds, `default` and `example`. What
 * Gemini cannot take moves into the description or is dropped, and either is reported when it
 * carried meaning.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { createLookupTable } from './json-value';
import { appendDescription, report, type ToGeminiContext } from './gemini-context';
import type { JsonSchema } from './types';

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

/**
 * Keywords read only on the type they belong to, and reported there when they carry meaning; on
 * a schema of another type they constrain nothing and go without a word.
 */
const TYPE_BOUND_KEYWORDS = new Set([
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'uniqueItems',
  'contains',
  'patternProperties',
  'prefixItems',
]);

/** The type a schema without `type` has, told by its properties, items or enum values. */
export function inferType(node: JsonSchema): string | undefined {
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

/** Write `type` into `out` as Gemini names it; a type Gemini does not know becomes a string. */
export function setType(out: JsonSchema, type: string | undefined, path: string, ctx: ToGeminiContext): void {
  if (type === undefined) return;
  if (JSON_TYPES.has(type)) {
    out.type = ctx.typeName(type);
    return;
  }
  report(
    ctx,
    joinPointer(path, 'type'),
    'gemini_bad_type',
    `Unknown type "${type}"; Gemini gets a string here. Use one of string, number, integer, boolean, array, object.`,
  );
  out.type = ctx.typeName('string');
}

/** `enum` / `const` as Gemini takes them: enums are strings; non-string enums use format "enum". */
export function convertEnum(
  out: JsonSchema,
  node: JsonSchema,
  type: string | undefined,
  path: string,
  ctx: ToGeminiContext,
): void {
  let values: unknown[] | undefined;
  if (Array.isArray(node.enum)) values = node.enum;
  else if ('const' in node) values = [node.const];
  if (values === undefined) return;
  if (values.includes(null)) out.nullable = true;
  const kept = values.filter((v) => v !== null);
  const scalar = kept.filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
  if (scalar.length < kept.length) {
    report(
      ctx,
      joinPointer(path, Array.isArray(node.enum) ? 'enum' : 'const'),
      'gemini_enum_values',
      'Gemini enums hold strings only; object or array values were left out of the enum.',
    );
  }
  if (scalar.length === 0) return;
  if (type === 'boolean') {
    appendDescription(out, `one of: ${scalar.map((v) => JSON.stringify(v)).join(', ')}`);
  } else {
    out.enum = scalar.map((v) => String(v));
    if (type !== undefined && type !== 'string') out.format = 'enum';
  }
}

/** Keep a format Gemini documents for `type`; move any other into the description. */
export function convertFormat(
  out: JsonSchema,
  node: JsonSchema,
  type: string | undefined,
  path: string,
  ctx: ToGeminiContext,
): void {
  if (typeof node.format !== 'string' || out.format !== undefined) return;
  const allowed = (type !== undefined && GEMINI_FORMATS[type]) || [];
  if (allowed.includes(node.format)) {
    out.format = node.format;
    return;
  }
  appendDescription(out, `format: ${node.format}`);
  report(
    ctx,
    joinPointer(path, 'format'),
    'gemini_dropped_keyword',
    `Gemini does not support format "${node.format}" here; it was moved into the description.`,
  );
}

/**
 * Copy the bounds of a string or a number Gemini takes; exclusive bounds and `multipleOf` move
 * into the description.
 */
export function copyScalarBounds(
  out: JsonSchema,
  node: JsonSchema,
  type: string | undefined,
  path: string,
  ctx: ToGeminiContext,
): void {
  if (type === 'string') {
    for (const key of ['minLength', 'maxLength', 'pattern'] as const)
      if (node[key] !== undefined) out[key] = node[key];
  }
  if (type !== 'number' && type !== 'integer') return;
  for (const key of ['minimum', 'maximum'] as const) if (typeof node[key] === 'number') out[key] = node[key];
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

/**
 * Copy `default` and `example` (or the first of `examples`); `asJsonText` when the schema is sent
 * as a string holding JSON, so the values are written that way too.
 */
export function copyExamples(out: JsonSchema, node: JsonSchema, asJsonText: boolean): void {
  const asText = (value: unknown) => (asJsonText ? JSON.stringify(value) : value);
  if ('default' in node) out.default = asText(node.default);
  if ('example' in node) out.example = asText(node.example);
  else if (Array.isArray(node.examples) && node.examples.length > 0) out.example = asText(node.examples[0]);
}

/** Gemini needs a type: a schema that still has none is sent as a string. */
export function requireType(out: JsonSchema, path: string, ctx: ToGeminiContext): void {
  if (out.type !== undefined) return;
  out.type = ctx.typeName('string');
  report(
    ctx,
    path,
    'gemini_untyped',
    'This schema has no type and Gemini needs one; it was sent as a string, so the model can no longer send numbers, booleans, lists or objects here. Add a "type".',
  );
}

/** Report each keyword of `node` that carried meaning and that no step took over. */
export function reportUnknownKeywords(node: JsonSchema, path: string, ctx: ToGeminiContext): void {
  const meaningful = Object.keys(node).filter(
    (key) =>
      !HANDLED_KEYWORDS.has(key) &&
      !ANNOTATION_KEYWORDS.has(key) &&
      !key.startsWith('x-') &&
      !TYPE_BOUND_KEYWORDS.has(key),
  );
  for (const key of meaningful) {
    report(
      ctx,
      joinPointer(path, key),
      'gemini_dropped_keyword',
      `Gemini does not support "${key}"; it was dropped.`,
    );
  }
}
