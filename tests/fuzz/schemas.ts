/**
 * Random JSON Schemas and tool declarations for the fuzz targets: nested objects, `$ref` into
 * `$defs`/`definitions` (dangling, remote, cyclic and self references too), type arrays,
 * `anyOf`/`oneOf` with null, `enum`/`const`, defaults of the wrong type, boolean schemas, junk
 * keyword values and hostile property names. Everything is JSON-normalised, as a file would be.
 */
import fc from 'fast-check';
import type { JsonSchema, ToolDeclaration } from '../../lib/tools/types';
import { fuzzName, fuzzText, normalizeJson, objectFrom, smallJson, type Json } from './json';

/** `$defs` every generated root carries, so references have real, cyclic and chained targets. */
const DEF_TARGETS: Record<string, Json> = {
  Str: { type: 'string', description: 'a string def', default: 'from-def' },
  Num: { type: ['number', 'null'], default: 1.5 },
  Obj: { type: 'object', properties: { x: { type: 'integer' } }, default: { x: 1 } },
  Chain: { $ref: '#/$defs/Str' },
  Cyc1: { $ref: '#/$defs/Cyc2' },
  Cyc2: { $ref: '#/$defs/Cyc1' },
  Self: { $ref: '#/$defs/Self' },
  Tree: {
    type: 'object',
    properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } },
  },
  'a/b': { type: 'boolean', default: 'not a boolean' },
};

/** References a validator can follow: plain, chained, recursive and escaped. */
const cleanRef = fc.constantFrom(
  '#/$defs/Str',
  '#/$defs/Num',
  '#/$defs/Obj',
  '#/$defs/Chain',
  '#/$defs/Tree',
  '#/$defs/a~1b',
  '#/definitions/Legacy',
);

/** References nothing can follow: cyclic, dangling, remote, malformed. */
const wildRef: fc.Arbitrary<unknown> = fc.oneof(
  cleanRef,
  fc.constantFrom<unknown>(
    '#/$defs/Cyc1',
    '#/$defs/Self',
    '#/$defs/Missing',
    '#/definitions/Missing',
    '#/properties/a',
    '#',
    '#/$defs/Str/type',
    'https://example.com/schema.json#/x',
    'Str',
    '#/$defs/%',
    42,
    null,
  ),
);

const cleanType = fc.constantFrom<unknown>(
  'string',
  'integer',
  'number',
  'boolean',
  'array',
  'object',
  'null',
);
const wildType = fc.oneof(
  cleanType,
  fc.constantFrom<unknown>('date', '', 7, null, 'String', '__proto__', 'constructor', 'toString'),
);

const keywordJunk = fc.oneof(smallJson, fuzzText);

/**
 * A property schema, nested up to a few levels. `wild` adds what no validator accepts (unknown
 * types, dangling and cyclic references, keywords with junk values); the clean ones compile, so
 * the value checks behind the four rules get exercised too.
 */
function createPropertySchema(wild: boolean): fc.Arbitrary<unknown> {
  const typeName = wild ? wildType : cleanType;
  const ref = wild ? wildRef : cleanRef;
  return fc.letrec<{ schema: unknown; object: unknown }>((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ type: typeName, description: fuzzText, default: smallJson }, { requiredKeys: ['type'] }),
      fc.record(
        {
          type: wild ? fc.array(typeName, { maxLength: 3 }) : fc.uniqueArray(typeName, { maxLength: 3 }),
          default: smallJson,
        },
        { requiredKeys: ['type'] },
      ),
      fc.record(
        {
          anyOf: fc.array(fc.oneof(fc.constant({ type: 'null' }), tie('schema')), {
            minLength: wild ? 0 : 1,
            maxLength: 3,
          }),
          default: smallJson,
        },
        { requiredKeys: ['anyOf'] },
      ),
      fc.record({
        oneOf: fc.array(fc.oneof(fc.constant({ type: 'null' }), tie('schema')), {
          minLength: wild ? 0 : 1,
          maxLength: 3,
        }),
      }),
      fc.record(
        {
          enum: wild
            ? fc.array(smallJson, { maxLength: 4 })
            : fc.uniqueArray(smallJson, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }),
          default: smallJson,
        },
        { requiredKeys: ['enum'] },
      ),
      fc.record({ const: smallJson, description: fuzzText }, { requiredKeys: ['const'] }),
      fc.record({ $ref: ref, description: fuzzText, default: smallJson }, { requiredKeys: ['$ref'] }),
      fc.record({ type: fc.constant('array'), items: tie('schema') }, { requiredKeys: ['type'] }),
      fc.record({ allOf: fc.array(tie('schema'), { minLength: wild ? 0 : 1, maxLength: 2 }) }),
      tie('object'),
      fc.constantFrom<unknown>({}, true, false),
      ...(wild
        ? [
            fc.dictionary(
              fc.constantFrom('type', 'enum', 'anyOf', 'default', 'properties', 'items', '$ref', 'required'),
              keywordJunk,
              { maxKeys: 3 },
            ),
          ]
        : []),
    ),
    object: fc.array(fc.tuple(fuzzName, tie('schema')), { maxLength: 4 }).chain((entries) =>
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.constant(objectFrom(entries)),
          required: fc.subarray([...new Set(entries.map(([n]) => n))]),
          default: smallJson,
        },
        { requiredKeys: ['type', 'properties'] },
      ),
    ),
  })).schema;
}

/** Property schemas that compile. */
export const cleanPropertySchema = createPropertySchema(false);
/** Property schemas with junk no validator accepts. */
export const wildPropertySchema = createPropertySchema(true);
/** Either kind. */
export const propertySchema: fc.Arbitrary<unknown> = fc.oneof(cleanPropertySchema, wildPropertySchema);

function someRef(value: unknown, test: (ref: string) => boolean): boolean {
  if (Array.isArray(value)) return value.some((v) => someRef(v, test));
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.$ref === 'string' && test(record.$ref)) return true;
  return Object.keys(record).some((k) => someRef(record[k], test));
}

/** The `$defs` entries `schema` reaches through `#/$defs/…` references, transitively. */
function pickReferenced(defs: Record<string, Json>, schema: unknown): Record<string, Json> {
  const names = Object.keys(defs);
  const refOf = (name: string) => `#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const picked = new Set<string>();
  let frontier: unknown[] = [schema];
  while (frontier.length > 0) {
    const next: unknown[] = [];
    for (const name of names) {
      if (picked.has(name)) continue;
      if (frontier.some((v) => someRef(v, (r) => r === refOf(name) || r.startsWith(`${refOf(name)}/`)))) {
        picked.add(name);
        next.push(defs[name]);
      }
    }
    frontier = next;
  }
  return Object.fromEntries(names.filter((n) => picked.has(n)).map((n) => [n, defs[n]]));
}

/** How the root object schema lists its properties. */
export type RootShape = 'plain' | 'allOf' | 'ref' | 'junk';

/** An input schema and how it was built (the oracle is exact for `plain` roots). */
export interface GeneratedSchema {
  shape: RootShape;
  schema: JsonSchema;
}

const dialect = fc.constantFrom<unknown>(
  undefined,
  'http://json-schema.org/draft-07/schema#',
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2019-09/schema',
  'http://json-schema.org/draft-04/schema#',
);

/** A tool's input schema: properties with hostile names, `$defs`, `required` with junk in it. */
export const inputSchema: fc.Arbitrary<GeneratedSchema> = fc
  .record({
    entries: fc
      .boolean()
      .chain((wild) =>
        fc.array(fc.tuple(fuzzName, wild ? wildPropertySchema : cleanPropertySchema), { maxLength: 7 }),
      ),
    shape: fc.constantFrom<RootShape>('plain', 'plain', 'plain', 'plain', 'allOf', 'ref', 'junk'),
    extraRequired: fc.oneof(
      { weight: 4, arbitrary: fc.array(fuzzName, { maxLength: 2 }) },
      { weight: 1, arbitrary: fc.array(smallJson, { maxLength: 2 }) },
    ),
    requiredPick: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
    schemaUri: dialect,
    additional: fc.option(fc.oneof(fc.boolean(), cleanPropertySchema), { nil: undefined }),
    junkProperties: fc.constantFrom<unknown>(null, [], 'props', 3, [{ type: 'string' }]),
  })
  .map(({ entries, shape, extraRequired, requiredPick, schemaUri, additional, junkProperties }) => {
    const names = entries.map(([n]) => n);
    const required = [...new Set([...names.filter((_, i) => requiredPick[i]), ...extraRequired])];
    const defs = { ...DEF_TARGETS };
    const base: Record<string, unknown> = {};
    if (schemaUri !== undefined) base.$schema = schemaUri;
    base.type = 'object';
    let schema: Record<string, unknown>;
    switch (shape) {
      case 'plain':
        schema = { ...base, properties: objectFrom(entries), required };
        break;
      case 'allOf': {
        const half = Math.ceil(entries.length / 2);
        schema = {
          ...base,
          allOf: [
            { properties: objectFrom(entries.slice(0, half)), required },
            { properties: objectFrom(entries.slice(half)) },
          ],
        };
        break;
      }
      case 'ref':
        defs.Root = {
          type: 'object',
          properties: objectFrom(entries) as { [k: string]: Json },
          required,
        } as Json;
        schema = { ...base, $ref: '#/$defs/Root' };
        break;
      case 'junk':
        schema = { ...base, properties: junkProperties, required: 'all' };
        break;
    }
    // Only the definitions something refers to (and what they refer to): smaller schemas
    // hash, compile and validate faster, so the budget buys more cases.
    schema.$defs = pickReferenced(defs as Record<string, Json>, schema);
    if (someRef(schema, (r) => r.startsWith('#/definitions/'))) {
      schema.definitions = { Legacy: { type: 'integer', default: 3 } };
    }
    if (additional !== undefined) schema.additionalProperties = additional;
    return { shape, schema: normalizeJson<JsonSchema>(schema) };
  });

/** An output schema: properties become ports; junk or absent gives the one `result` port. */
export const outputSchema: fc.Arbitrary<JsonSchema | undefined> = fc.oneof(
  fc.constant(undefined),
  fc
    .array(fc.tuple(fuzzName, propertySchema), { maxLength: 3 })
    .map((entries) => normalizeJson<JsonSchema>({ type: 'object', properties: objectFrom(entries) })),
  fc.constantFrom<JsonSchema>({}, { type: 'object' }, { properties: [] } as unknown as JsonSchema),
);

/** A tool name: ordinary, provider-hostile (dots, slashes, unicode, long) or prototype keys. */
export const toolName: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'github.create_issue',
      'fs/read',
      'météo',
      '工具',
      'a b',
      'x'.repeat(90),
      'update_step',
      'connect',
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }) },
);

/** A declaration with a generated input schema (shape kept for the oracle). */
export interface GeneratedDeclaration {
  shape: RootShape;
  declaration: ToolDeclaration;
}

export const declaration: fc.Arbitrary<GeneratedDeclaration> = fc
  .record(
    {
      name: toolName,
      title: fuzzText,
      description: fuzzText,
      input: inputSchema,
      output: outputSchema,
      annotations: fc.constantFrom({ readOnlyHint: true }, { title: 'x', destructiveHint: false }),
    },
    { requiredKeys: ['name', 'description', 'input', 'output'] },
  )
  .map(({ name, title, description, input, output, annotations }) => {
    const decl: ToolDeclaration = { name, description, inputSchema: input.schema };
    if (title !== undefined) decl.title = title;
    if (output !== undefined) decl.outputSchema = output;
    if (annotations !== undefined) decl.annotations = annotations;
    return { shape: input.shape, declaration: decl };
  });

/** Declarations with distinct names (names that trim to nothing are left out). */
export function declarationList(maxLength: number): fc.Arbitrary<ToolDeclaration[]> {
  return fc
    .uniqueArray(declaration, { maxLength, selector: (d) => d.declaration.name })
    .map((list) => list.map((d) => d.declaration).filter((d) => d.name.trim() !== ''));
}
