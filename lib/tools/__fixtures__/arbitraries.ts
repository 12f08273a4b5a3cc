/**
 * fast-check generators of tool declarations with realistic JSON Schemas (scalars with
 * descriptions, enums and defaults, nullable unions, arrays, nested objects, $defs refs).
 * Used by the renderer and round-trip property tests.
 */
import fc from 'fast-check';
import type { JsonSchema, ToolDeclaration } from '../types';

const text = fc.string({ maxLength: 40 });
const paramName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);

const scalar: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.record({ type: fc.constant('string'), description: text }, { requiredKeys: ['type'] }),
  fc.record({
    type: fc.constant('string'),
    enum: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record(
    {
      type: fc.constant('integer'),
      minimum: fc.integer({ min: -5, max: 5 }),
      default: fc.integer({ min: 5, max: 50 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('number'),
      description: text,
      // JSON has no -0: it would come back as 0 from any file or request body.
      default: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((x) => x + 0),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('boolean'), default: fc.boolean() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant(['string', 'null']), description: text }, { requiredKeys: ['type'] }),
  fc.record(
    { anyOf: fc.constant([{ type: 'integer' }, { type: 'null' }]), description: text },
    { requiredKeys: ['anyOf'] },
  ),
  fc.record({ type: fc.constant('string'), format: fc.constantFrom('date-time', 'uri', 'email') }),
);

const propertySchema: fc.Arbitrary<JsonSchema> = fc.letrec<{ schema: JsonSchema; object: JsonSchema }>(
  (tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.record(
        { type: fc.constant('array'), items: scalar, description: text },
        { requiredKeys: ['type', 'items'] },
      ),
      tie('object'),
      fc.record({ type: fc.constant('array'), items: tie('object') }),
    ),
    object: fc
      .uniqueArray(fc.tuple(paramName, tie('schema')), {
        minLength: 1,
        maxLength: 4,
        selector: ([name]) => name,
      })
      .chain((entries) =>
        fc.record({
          type: fc.constant('object'),
          properties: fc.constant(Object.fromEntries(entries)),
          required: fc.subarray(entries.map(([name]) => name)),
        }),
      ),
  }),
).schema;

/** An object parameters schema with 0–6 properties, sometimes using a `$defs` reference. */
export const parametersSchema: fc.Arbitrary<JsonSchema> = fc
  .tuple(
    fc.uniqueArray(fc.tuple(paramName, propertySchema), { maxLength: 6, selector: ([name]) => name }),
    fc.boolean(),
  )
  .chain(([entries, withRef]) =>
    fc.subarray(entries.map(([name]) => name)).map((required) => {
      const schema: JsonSchema = { type: 'object', properties: Object.fromEntries(entries) };
      if (required.length > 0) schema.required = required;
      if (withRef) {
        (schema.properties as JsonSchema).location = { $ref: '#/$defs/location', description: 'Where' };
        schema.$defs = {
          location: {
            type: 'object',
            properties: { lat: { type: 'number' }, lon: { type: 'number' } },
            required: ['lat', 'lon'],
          },
        };
      }
      return schema;
    }),
  );

/** Declarations whose names every provider accepts. */
export const safeDeclaration: fc.Arbitrary<ToolDeclaration> = fc.record({
  name: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,40}$/),
  description: text,
  inputSchema: parametersSchema,
});

/** Declarations with any names (dots, slashes, unicode, very long): renderers must alias them. */
export const anyNameDeclaration: fc.Arbitrary<ToolDeclaration> = fc
  .record({
    name: fc.oneof(
      fc.string({ minLength: 1, maxLength: 100 }),
      fc.constantFrom('github.create_issue', 'fs/read', 'météo', 'x'.repeat(90)),
    ),
    title: fc.option(text, { nil: undefined }),
    description: text,
    inputSchema: parametersSchema,
  })
  .map((decl) => {
    if (decl.title === undefined) delete decl.title;
    return decl;
  });

/** A list of declarations with distinct names. */
export function declarationList(
  decl: fc.Arbitrary<ToolDeclaration>,
  maxLength = 5,
): fc.Arbitrary<ToolDeclaration[]> {
  return fc.uniqueArray(decl, { maxLength, selector: (d) => d.name });
}
