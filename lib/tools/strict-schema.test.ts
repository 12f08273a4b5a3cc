import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { findStrictViolations } from './__fixtures__/openai-strict';
import { toStrictSchema } from './strict-schema';
import type { JsonSchema } from './types';

/** The strict-mode rules a converted schema must meet everywhere (OpenAI "Supported schemas"). */
describe('toStrictSchema', () => {
  describe('makes every property required', () => {
    it('turns optional properties into null unions and lists them', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
          days: { type: 'integer' },
          mode: { const: 'fast' },
          shape: { $ref: '#/$defs/shape', description: 'Shape' },
          point: { $ref: '#/$defs/point' },
        },
        required: ['city'],
        $defs: {
          shape: { type: 'string', enum: ['round', 'square'] },
          point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        },
      });
      expect(result.issues).toEqual([]);
      expect(result.schema).toEqual({
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: ['string', 'null'], enum: ['c', 'f', null], description: 'default: "c"' },
          days: { type: ['integer', 'null'] },
          mode: { type: ['string', 'null'], enum: ['fast', null] },
          shape: { type: ['string', 'null'], enum: ['round', 'square', null], description: 'Shape' },
          point: { anyOf: [{ $ref: '#/$defs/point' }, { type: 'null' }] },
        },
        required: ['city', 'unit', 'days', 'mode', 'shape', 'point'],
        additionalProperties: false,
        $defs: {
          shape: { type: 'string', enum: ['round', 'square'] },
          point: {
            type: 'object',
            properties: { x: { type: 'number' } },
            required: ['x'],
            additionalProperties: false,
          },
        },
      });
      expect(result.nullableOptional).toEqual([
        '/properties/unit',
        '/properties/days',
        '/properties/mode',
        '/properties/shape',
        '/properties/point',
      ]);
      expect(findStrictViolations(result.schema)).toEqual([]);
    });

    it('leaves already nullable optional properties alone and does not list them', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] }, b: { type: ['number', 'null'] } },
      });
      expect(result.schema.properties).toEqual({
        a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        b: { type: ['number', 'null'] },
      });
      expect(result.nullableOptional).toEqual([]);
    });

    it('recurses through nested objects, array items, anyOf and $defs', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, note: { type: 'string' } },
              required: ['id'],
            },
          },
          either: { anyOf: [{ type: 'object', properties: { x: { type: 'number' } } }, { type: 'string' }] },
        },
        required: ['items', 'either'],
      });
      expect(result.issues).toEqual([]);
      expect(findStrictViolations(result.schema)).toEqual([]);
      expect(result.nullableOptional).toEqual([
        '/properties/items/items/properties/note',
        '/properties/either/anyOf/0/properties/x',
      ]);
    });

    it('accepts exactly the values the original accepts, plus null for optional properties', () => {
      const original = {
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: 'integer', minimum: 1 },
          c: { type: 'string', enum: ['x', 'y'] },
        },
        required: ['a'],
      };
      const strict = toStrictSchema(original).schema;
      const ajv = new Ajv({ strict: false });
      const validate = ajv.compile(strict);
      expect(validate({ a: 'hi', b: null, c: null })).toBe(true);
      expect(validate({ a: 'hi', b: 3, c: 'x' })).toBe(true);
      expect(validate({ a: 'hi', b: 0, c: null })).toBe(false);
      expect(validate({ a: 'hi', b: null, c: 'z' })).toBe(false);
      expect(validate({ a: 'hi', b: null, c: null, extra: 1 })).toBe(false);
      expect(validate({ b: null, c: null })).toBe(false);
    });
  });

  describe('reports what it cannot convert', () => {
    it('reports open maps, pattern properties and free-form objects with paths', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: {
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          env: { type: 'object', patternProperties: { '^[A-Z]+$': { type: 'string' } } },
          config: { type: 'object' },
          opts: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
        },
        required: ['labels', 'env', 'config', 'opts'],
      });
      expect(result.issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/labels/additionalProperties', 'strict_free_form_object'],
        ['/properties/env/patternProperties', 'strict_unsupported_keyword'],
        ['/properties/env', 'strict_free_form_object'],
        ['/properties/config', 'strict_free_form_object'],
        ['/properties/opts/additionalProperties', 'strict_closed_object'],
      ]);
      expect(findStrictViolations(result.schema)).toEqual([]);
    });

    it('reports unsupported keywords, keeping numeric ones as description hints', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 2, maxLength: 5, description: 'Name' },
          link: { type: 'string', format: 'uri' },
          email: { type: 'string', format: 'email' },
          tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1 },
        },
        required: ['name', 'link', 'email', 'tags'],
      });
      expect(result.schema.properties).toEqual({
        name: { type: 'string', description: 'Name (minLength: 2) (maxLength: 5)' },
        link: { type: 'string', description: 'format: uri' },
        email: { type: 'string', format: 'email' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      });
      expect(result.issues.map((i) => i.path)).toEqual([
        '/properties/name/minLength',
        '/properties/name/maxLength',
        '/properties/link/format',
        '/properties/tags/uniqueItems',
      ]);
    });

    it('sends oneOf as anyOf, merges allOf, and reports the conversions that lose meaning', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: {
          v: { oneOf: [{ type: 'string' }, { type: 'number' }] },
          m: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { $ref: '#/$defs/b' }] },
          bad: { allOf: [{ type: 'string' }, { minLength: 1 }] },
        },
        required: ['v', 'm', 'bad'],
        $defs: { b: { type: 'object', properties: { b: { type: 'integer' } } } },
      });
      expect(result.schema.properties).toMatchObject({
        v: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        m: {
          type: 'object',
          properties: { a: { type: ['string', 'null'] }, b: { type: ['integer', 'null'] } },
          required: ['a', 'b'],
        },
      });
      // The string branches merge into one string; strict mode then drops minLength (a hint stays).
      expect(result.schema.properties).toMatchObject({
        bad: { type: 'string', description: 'minLength: 1' },
      });
      expect(result.issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/v/oneOf', 'strict_oneof_as_anyof'],
        ['/properties/bad/minLength', 'strict_unsupported_keyword'],
      ]);
      expect(findStrictViolations(result.schema)).toEqual([]);
    });

    it('narrows an untyped value and reports it', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: { anything: { description: 'Any' } },
        required: ['anything'],
      });
      expect(result.schema.properties).toEqual({
        anything: { description: 'Any', type: ['string', 'number', 'boolean', 'null'] },
      });
      expect(result.issues).toEqual([
        expect.objectContaining({ path: '/properties/anything', code: 'strict_any_value' }),
      ]);
    });

    it('inlines a $ref with siblings and reports a dangling one', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: {
          a: { $ref: '#/$defs/s', description: 'A' },
          b: { $ref: '#/$defs/nope', description: 'B' },
        },
        required: ['a', 'b'],
        $defs: { s: { type: 'string' } },
      });
      expect(result.schema.properties).toMatchObject({ a: { type: 'string', description: 'A' } });
      expect(result.issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/b/$ref', 'strict_unresolved_ref'],
        ['/properties/b', 'strict_any_value'],
      ]);
    });

    it('keeps a recursive $ref with siblings as a bare reference and reports it (fuzz counterexample)', () => {
      const result = toStrictSchema({ type: 'object', properties: { p: { $ref: '#', description: 'd' } } });
      // The root is inlined once into p (the siblings win), and the loop is cut there.
      expect(result.schema.properties).toMatchObject({
        p: { description: 'd', properties: { p: { anyOf: [{ $ref: '#' }, { type: 'null' }] } } },
      });
      expect(result.issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/p/properties/p/$ref', 'strict_recursive_ref'],
      ]);
      expect(result.issues[0].message).toContain('"description" beside it was dropped');
    });

    it('stops at a $ref with siblings that points at the property containing it', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: { a: { type: 'object', properties: { b: { $ref: '#/properties/a', default: [] } } } },
        required: ['a'],
      });
      expect(result.issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/a/properties/b/properties/b/$ref', 'strict_recursive_ref'],
      ]);
    });

    it('leaves out an allOf branch that refers to an ancestor, and reports it', () => {
      const result = toStrictSchema({
        type: 'object',
        properties: { a: { allOf: [{ $ref: '#' }, { type: 'object' }] } },
        required: ['a'],
      });
      expect(result.issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/a/properties/a/allOf/0/$ref', 'strict_recursive_ref'],
        ['/properties/a/properties/a', 'strict_free_form_object'],
      ]);
    });

    it('keeps a property named __proto__ in properties as well as required (fuzz counterexample)', () => {
      // JSON.parse makes "__proto__" an own member; an object literal would set the prototype.
      const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
      const result = toStrictSchema(schema);
      expect(JSON.stringify(result.schema)).toBe(
        '{"type":"object","properties":{"__proto__":{"type":["string","null"]}},"required":["__proto__"],"additionalProperties":false}',
      );
      expect(Object.getPrototypeOf(result.schema.properties)).toBe(Object.prototype);
    });

    it('reports a root that is not an object and nesting beyond the limit', () => {
      expect(
        toStrictSchema({ anyOf: [{ type: 'object' }, { type: 'string' }] }).issues.map((i) => i.code),
      ).toContain('strict_root');
      let deep: JsonSchema = { type: 'object', properties: { leaf: { type: 'string' } }, required: ['leaf'] };
      for (let i = 0; i < 11; i++)
        deep = { type: 'object', properties: { child: deep }, required: ['child'] };
      expect(toStrictSchema(deep).issues).toEqual([
        expect.objectContaining({ code: 'strict_limit', path: '/properties/child'.repeat(10) }),
      ]);
    });

    it('strips annotations silently and reports any other keyword strict mode does not accept', () => {
      const result = toStrictSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          a: { type: 'string', nullable: true, examples: ['x'], 'x-order': 1, deprecated: true },
        },
        required: ['a'],
      });
      expect(result.schema).toEqual({
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a'],
        additionalProperties: false,
      });
      expect(result.issues).toEqual([
        expect.objectContaining({ path: '/properties/a/nullable', code: 'strict_unsupported_keyword' }),
      ]);
    });

    it('moves a default into the description (strict mode rejects default)', () => {
      expect(
        toStrictSchema({
          type: 'object',
          properties: { n: { type: 'integer', description: 'Count', default: 3 } },
        }).schema.properties,
      ).toEqual({ n: { type: ['integer', 'null'], description: 'Count (default: 3)' } });
    });

    it('drops a null default, as OpenAI does', () => {
      expect(
        toStrictSchema({ type: 'object', properties: { a: { type: ['string', 'null'], default: null } } })
          .schema.properties,
      ).toEqual({
        a: { type: ['string', 'null'] },
      });
    });
  });

  it('does not modify its input', () => {
    const input = { type: 'object', properties: { a: { type: 'string', minLength: 1 } } };
    const copy = structuredClone(input);
    toStrictSchema(input);
    expect(input).toEqual(copy);
  });
});

describe('toStrictSchema on shapes real declarations use', () => {
  it('gives an array without items an item type, and reports the narrowing', () => {
    const result = toStrictSchema({
      type: 'object',
      properties: { tags: { type: 'array' }, either: { type: ['string', 'array'] } },
      required: ['tags', 'either'],
    });
    expect(result.schema.properties).toMatchObject({
      tags: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
      either: { type: ['string', 'array'], items: { type: ['string', 'number', 'boolean', 'null'] } },
    });
    expect(result.issues.map((i) => [i.path, i.code])).toEqual([
      ['/properties/tags', 'strict_untyped_items'],
      ['/properties/either', 'strict_untyped_items'],
    ]);
    expect(findStrictViolations(result.schema)).toEqual([]);
  });

  it('types an object given only by properties (and an array only by items), silently', () => {
    const result = toStrictSchema({
      type: 'object',
      properties: {
        point: { properties: { x: { type: 'number' } }, required: ['x'] },
        list: { items: { type: 'string' } },
      },
      required: ['point', 'list'],
    });
    expect(result.schema.properties).toMatchObject({
      point: { type: 'object', additionalProperties: false },
      list: { type: 'array', items: { type: 'string' } },
    });
    expect(result.issues).toEqual([]);
    expect(findStrictViolations(result.schema)).toEqual([]);
  });

  it('reports a free-form object, required or not, and an open map', () => {
    const result = toStrictSchema({
      type: 'object',
      properties: {
        config: { type: 'object' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        extra: { type: 'object', additionalProperties: true },
      },
      required: ['config'],
    });
    expect(result.issues.map((i) => [i.path, i.code])).toEqual([
      ['/properties/config', 'strict_free_form_object'],
      ['/properties/labels/additionalProperties', 'strict_free_form_object'],
      ['/properties/extra/additionalProperties', 'strict_free_form_object'],
    ]);
    expect(findStrictViolations(result.schema)).toEqual([]);
  });

  it('counts enum values over the whole schema against the limit', () => {
    const values = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const result = toStrictSchema({
      type: 'object',
      properties: { a: { enum: values(600, 'a') }, b: { enum: values(600, 'b') } },
      required: ['a', 'b'],
    });
    expect(result.issues.map((i) => i.message)).toEqual([
      'Strict mode allows at most 1000 enum values in a schema; this one has 1200.',
    ]);
  });

  it('says so when it drops object keywords beside an untyped anyOf, and fills an empty anyOf', () => {
    const result = toStrictSchema({
      type: 'object',
      properties: {
        x: { anyOf: [{ type: 'string' }, { type: 'object' }], properties: { a: { type: 'string' } } },
        y: { anyOf: [] },
      },
      required: ['x', 'y'],
    });
    expect(findStrictViolations(result.schema)).toEqual([]);
    expect(result.issues.map((i) => `${i.path} ${i.code}`)).toEqual([
      '/properties/x/anyOf/1 strict_free_form_object',
      '/properties/x/properties strict_bad_schema',
      '/properties/y/anyOf strict_empty_anyof',
    ]);
  });

  it('inlines a $ref that a merged allOf branch brings beside other keywords', () => {
    const result = toStrictSchema({
      type: 'object',
      $ref: '#/$defs/Root',
      $defs: {
        Root: {
          type: 'object',
          properties: { next: { allOf: [{ allOf: [] }, { $ref: '#' }] } },
          required: [],
        },
      },
    });
    expect(findStrictViolations(result.schema)).toEqual([]);
    expect(result.issues.map((i) => i.code)).toContain('strict_recursive_ref');
  });

  it('counts the null that an optional enum gains against the limit', () => {
    const values = Array.from({ length: 1000 }, (_, i) => `v${i}`);
    const result = toStrictSchema({ type: 'object', properties: { a: { type: 'string', enum: values } } });
    expect(findStrictViolations(result.schema)).toEqual([': 1001 enum values (at most 1000)']);
    expect(result.issues.map((i) => i.message)).toEqual([
      'Strict mode allows at most 1000 enum values in a schema; this one has 1001.',
    ]);
  });
});
