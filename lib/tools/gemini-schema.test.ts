import { describe, expect, it } from 'vitest';
import { fromGeminiSchema, toGeminiSchema } from './gemini-schema';
import { findGeminiViolations } from './__fixtures__/gemini-subset';

describe('toGeminiSchema', () => {
  describe('converts types', () => {
    it('uppercases types by default and lowercases on request', () => {
      const schema = {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
        required: ['a'],
      };
      expect(toGeminiSchema(schema).schema).toEqual({
        type: 'OBJECT',
        properties: { a: { type: 'STRING' }, b: { type: 'INTEGER' } },
        required: ['a'],
      });
      expect(toGeminiSchema(schema, { typeCase: 'lower' }).schema).toEqual({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
        required: ['a'],
      });
    });

    it('turns a type array with null into nullable', () => {
      expect(toGeminiSchema({ type: ['string', 'null'], description: 'd' })).toEqual({
        schema: { type: 'STRING', description: 'd', nullable: true },
        issues: [],
      });
    });

    it('folds anyOf [X, null] into X with nullable, keeping the outer description', () => {
      const { schema, issues } = toGeminiSchema({
        anyOf: [{ type: 'integer', description: 'inner' }, { type: 'null' }],
        description: 'outer',
        default: null,
      });
      expect(schema).toEqual({ type: 'INTEGER', description: 'outer', nullable: true, default: null });
      expect(issues).toEqual([]);
    });

    it('turns a multi-type array into anyOf', () => {
      expect(toGeminiSchema({ type: ['integer', 'string'], description: 'id' }).schema).toEqual({
        description: 'id',
        anyOf: [{ type: 'INTEGER' }, { type: 'STRING' }],
      });
    });

    it('keeps a real union as anyOf and reports oneOf', () => {
      const { schema, issues } = toGeminiSchema({
        oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }],
      });
      expect(schema).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true });
      expect(issues).toEqual([expect.objectContaining({ path: '/oneOf', code: 'gemini_oneof_as_anyof' })]);
    });

    it('infers the type from properties, items or enum values', () => {
      expect(toGeminiSchema({ properties: { a: { enum: [1, 2] } } }).schema).toEqual({
        type: 'OBJECT',
        properties: { a: { type: 'INTEGER', enum: ['1', '2'], format: 'enum' } },
      });
    });
  });

  describe('inlines references', () => {
    it('inlines $defs and definitions, with sibling keywords winning', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: {
          point: { $ref: '#/$defs/point', description: 'Where' },
          legacy: { $ref: '#/definitions/name' },
        },
        $defs: {
          point: {
            type: 'object',
            description: 'A point',
            properties: { x: { type: 'number' } },
            required: ['x'],
          },
        },
        definitions: { name: { type: 'string' } },
      });
      expect(issues).toEqual([]);
      expect(schema).toEqual({
        type: 'OBJECT',
        properties: {
          point: {
            type: 'OBJECT',
            description: 'Where',
            properties: { x: { type: 'NUMBER' } },
            required: ['x'],
          },
          legacy: { type: 'STRING' },
        },
      });
    });

    it('cuts recursion and reports it', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        $defs: {
          node: {
            type: 'object',
            properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          },
        },
      });
      expect(issues).toEqual([
        expect.objectContaining({
          path: '/properties/root/properties/children/items/$ref',
          code: 'gemini_recursive_ref',
        }),
      ]);
      expect(findGeminiViolations(schema)).toEqual([]);
      expect(JSON.stringify(schema)).not.toContain('$ref');
    });

    it('cuts an allOf branch that refers to an ancestor and reports it (fuzz counterexample)', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: { a: { allOf: [{ $ref: '#' }] } },
      });
      // The root is inlined once into a, as a plain {"$ref":"#"} would be, then the loop is cut.
      expect(schema).toEqual({
        type: 'OBJECT',
        properties: { a: { type: 'OBJECT', properties: { a: { type: 'STRING' } } } },
      });
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/a/properties/a/allOf/0/$ref', 'gemini_recursive_ref'],
        ['/properties/a/properties/a', 'gemini_untyped'],
      ]);
    });

    it('cuts a root allOf that refers to the root itself', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: { x: { type: 'string' } },
        allOf: [{ $ref: '#' }],
      });
      expect(schema).toEqual({ type: 'OBJECT', properties: { x: { type: 'STRING' } } });
      expect(issues).toEqual([]);
    });

    it('reports a reference that does not resolve', () => {
      const { issues } = toGeminiSchema({
        type: 'object',
        properties: { a: { $ref: '#/$defs/missing', type: 'string' } },
      });
      expect(issues).toEqual([
        expect.objectContaining({ path: '/properties/a/$ref', code: 'gemini_unresolved_ref' }),
      ]);
    });

    it('merges allOf branches', () => {
      const { schema, issues } = toGeminiSchema({
        allOf: [{ $ref: '#/$defs/base' }, { properties: { b: { type: 'string' } }, required: ['b'] }],
        $defs: { base: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
      });
      expect(issues).toEqual([]);
      expect(schema).toEqual({
        type: 'OBJECT',
        properties: { a: { type: 'STRING' }, b: { type: 'STRING' } },
        required: ['a', 'b'],
      });
    });
  });

  describe('drops what Gemini does not support, reporting meaning lost', () => {
    it('moves an unsupported format and exclusive bounds into the description', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', description: 'Link' },
          when: { type: 'string', format: 'date-time' },
          ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        },
      });
      expect(schema.properties).toEqual({
        url: { type: 'STRING', description: 'Link (format: uri)' },
        when: { type: 'STRING', format: 'date-time' },
        ratio: { type: 'NUMBER', description: 'exclusiveMinimum: 0', maximum: 1 },
      });
      expect(issues.map((i) => i.path)).toEqual([
        '/properties/url/format',
        '/properties/ratio/exclusiveMinimum',
      ]);
    });

    it('drops annotations silently and meaningful keywords with a report', () => {
      const { schema, issues } = toGeminiSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: {
          tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, examples: [['a']] },
          meta: {
            type: 'object',
            properties: { k: { type: 'string' } },
            patternProperties: { '^x-': { type: 'string' } },
          },
          n: { type: 'integer', not: { const: 3 } },
        },
      });
      expect(findGeminiViolations(schema)).toEqual([]);
      expect(schema.properties).toMatchObject({ tags: { example: ['a'] } });
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/tags/uniqueItems', 'gemini_dropped_keyword'],
        ['/properties/meta/patternProperties', 'gemini_dropped_keyword'],
        ['/properties/n/not', 'gemini_dropped_keyword'],
      ]);
    });

    it('drops required names that are not properties', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a', 'ghost'],
      });
      expect(schema.required).toEqual(['a']);
      expect(issues).toEqual([
        expect.objectContaining({ path: '/required', code: 'gemini_required_unknown' }),
      ]);
    });

    it('never puts properties on a non-object or leaves an array without items', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: {
          s: { type: 'string', properties: { x: {} }, required: ['x'] },
          list: { type: 'array' },
        },
      });
      expect(findGeminiViolations(schema)).toEqual([]);
      expect(issues).toEqual([
        expect.objectContaining({ path: '/properties/list', code: 'gemini_untyped_items' }),
      ]);
    });

    it('sends a free-form object as JSON text and an untyped value as a string, and reports both', () => {
      const { schema, issues } = toGeminiSchema({
        type: 'object',
        properties: {
          cfg: { type: 'object', description: 'Config', default: { a: 1 } },
          anything: { description: 'Any' },
        },
      });
      expect(schema.properties).toEqual({
        cfg: {
          type: 'STRING',
          description: 'Config (a JSON object, written as a JSON string)',
          default: '{"a":1}',
        },
        anything: { type: 'STRING', description: 'Any' },
      });
      expect(findGeminiViolations(schema)).toEqual([]);
      expect(issues.map((i) => [i.path, i.code])).toEqual([
        ['/properties/cfg', 'gemini_free_form_object'],
        ['/properties/anything', 'gemini_untyped'],
      ]);
    });

    it('writes enums as strings, boolean enums as a description, and keeps const as a one-value enum', () => {
      const { schema } = toGeminiSchema({
        type: 'object',
        properties: {
          mode: { const: 'fast' },
          flag: { type: 'boolean', enum: [true] },
          size: { type: 'number', enum: [1.5, 2, null] },
        },
      });
      expect(schema.properties).toEqual({
        mode: { type: 'STRING', enum: ['fast'] },
        flag: { type: 'BOOLEAN', description: 'one of: true' },
        size: { type: 'NUMBER', nullable: true, enum: ['1.5', '2'], format: 'enum' },
      });
    });
  });
});

describe('fromGeminiSchema', () => {
  it('reads types, nullable, enum formats and int64 strings back', () => {
    expect(
      fromGeminiSchema({
        type: 'OBJECT',
        properties: {
          n: { type: 'NUMBER', format: 'enum', enum: ['1.5', '2'], nullable: true },
          s: { type: 'STRING', format: 'date-time', example: 'x' },
          a: { type: 'ARRAY', items: { type: 'BOOLEAN' }, min_items: '1' },
          u: { any_of: [{ type: 'STRING' }, { type: 'INTEGER' }], nullable: true },
        },
        required: ['n'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        n: { type: ['number', 'null'], enum: [1.5, 2, null] },
        s: { type: 'string', format: 'date-time', examples: ['x'] },
        a: { type: 'array', items: { type: 'boolean' }, minItems: 1 },
        u: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      },
      required: ['n'],
    });
  });

  it('keeps a JSON Schema type array written under parameters', () => {
    expect(fromGeminiSchema({ type: 'object', properties: { a: { type: ['string', 'null'] } } })).toEqual({
      type: 'object',
      properties: { a: { type: ['string', 'null'] } },
    });
  });

  it('is the inverse of toGeminiSchema on plain schemas', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name', minLength: 1 },
        count: { type: ['integer', 'null'], minimum: 0 },
        kind: { type: 'string', enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        nested: { type: 'object', properties: { on: { type: 'boolean', default: true } }, required: ['on'] },
      },
      required: ['name'],
    };
    expect(fromGeminiSchema(toGeminiSchema(schema).schema)).toEqual(schema);
  });
});

describe('property and keyword names that are Object.prototype members', () => {
  // JSON.parse makes "__proto__" an own member; an object literal would set the prototype.
  const withProto = () => JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');

  it('keeps a property named __proto__ when converting to Gemini (fuzz counterexample)', () => {
    const { schema } = toGeminiSchema(withProto());
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({ type: 'STRING' });
  });

  it('keeps a property named __proto__ when reading a Gemini schema back', () => {
    const read = fromGeminiSchema(toGeminiSchema(withProto()).schema);
    expect(JSON.stringify(read)).toBe(JSON.stringify(withProto()));
  });

  it('reads keywords and propertyOrdering names like constructor or toString as written', () => {
    const read = fromGeminiSchema(
      JSON.parse(
        '{"type":"OBJECT","properties":{"b":{"type":"STRING"}},"propertyOrdering":["toString","b"],"constructor":1}',
      ),
    );
    expect(read).toEqual({ type: 'object', properties: { b: { type: 'string' } }, constructor: 1 });
  });

  it('treats a type named constructor as unknown, with a format beside it', () => {
    const { issues } = toGeminiSchema({
      type: 'object',
      properties: { a: { type: 'constructor', format: 'x' } },
    });
    expect(issues.map((i) => i.code)).toEqual(['gemini_bad_type', 'gemini_dropped_keyword']);
  });
});

describe('toGeminiSchema at the root', () => {
  it('does not report a parameterless root object (renderers leave parameters unset)', () => {
    expect(toGeminiSchema({ type: 'object', properties: {} })).toEqual({
      schema: { type: 'OBJECT' },
      issues: [],
    });
  });
});
