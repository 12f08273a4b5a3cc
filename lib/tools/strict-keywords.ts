/**
 * Which keywords OpenAI strict mode accepts, and what happens to the others: a malformed
 * structural keyword is dropped, a constraint strict mode rejects is dropped and reported (a
 * number kept as a hint in the description), an unsupported format or a `default` moves into the
 * description, and an annotation goes without a word.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { appendDescription, report, type StrictContext } from './strict-context';
import type { JsonSchema } from './types';

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

/** Every keyword strict mode accepts (after the conversions in strict-schema.ts). */
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

/** Drop each structural keyword of `node` whose value has the wrong shape (an enum that is no list…). */
export function dropMalformedKeywords(node: JsonSchema, path: string, ctx: StrictContext): void {
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
}

/**
 * Remove from `node` every keyword strict mode rejects, saying which carried meaning; length and
 * property-count limits, an unsupported format and a `default` stay readable in the description.
 */
export function dropUnsupportedKeywords(node: JsonSchema, path: string, ctx: StrictContext): void {
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
}
