import { describe, expect, it } from 'vitest';
import {
  getObjectProperties,
  getParamType,
  getValueType,
  getZeroValue,
  resolveLocalRef,
  resolveSchema,
} from './json-schema';
import type { JsonSchema } from './types';

describe('resolveLocalRef', () => {
  const root: JsonSchema = {
    $defs: {
      Point: { type: 'object' },
      'a/b': { type: 'string' },
      'x~y': { type: 'integer' },
      'sp ace': { type: 'boolean' },
    },
    definitions: { Legacy: { type: 'number' }, Alias: { $ref: '#/definitions/Legacy' } },
    items: [{ type: 'array' }],
  };

  describe('when the target exists', () => {
    it('finds a schema under #/$defs', () => {
      expect(resolveLocalRef(root, '#/$defs/Point')).toEqual({ type: 'object' });
    });
    it('finds a schema under #/definitions', () => {
      expect(resolveLocalRef(root, '#/definitions/Legacy')).toEqual({ type: 'number' });
    });
    it('unescapes ~1 and ~0 in pointer segments', () => {
      expect(resolveLocalRef(root, '#/$defs/a~1b')).toEqual({ type: 'string' });
      expect(resolveLocalRef(root, '#/$defs/x~0y')).toEqual({ type: 'integer' });
    });
    it('percent-decodes URI fragment segments', () => {
      expect(resolveLocalRef(root, '#/$defs/sp%20ace')).toEqual({ type: 'boolean' });
    });
    it('indexes into arrays', () => {
      expect(resolveLocalRef(root, '#/items/0')).toEqual({ type: 'array' });
    });
    it('follows a target that is itself only a $ref', () => {
      expect(resolveLocalRef(root, '#/definitions/Alias')).toEqual({ type: 'number' });
    });
    it('returns the root for #', () => {
      expect(resolveLocalRef(root, '#')).toBe(root);
    });
  });

  describe('when the target cannot be found', () => {
    it('gives undefined for a missing name', () => {
      expect(resolveLocalRef(root, '#/$defs/Nope')).toBeUndefined();
    });
    it('gives undefined for a remote reference', () => {
      expect(resolveLocalRef(root, 'https://example.org/s.json#/a')).toBeUndefined();
    });
    it('gives undefined for a cycle instead of looping', () => {
      const cyclic: JsonSchema = { $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } };
      expect(resolveLocalRef(cyclic, '#/$defs/A')).toBeUndefined();
    });
    it('does not read inherited object members', () => {
      expect(resolveLocalRef(root, '#/$defs/constructor')).toBeUndefined();
    });
  });
});

describe('resolveSchema', () => {
  it('returns a schema without $ref unchanged', () => {
    const s = { type: 'string' };
    expect(resolveSchema(s, {})).toBe(s);
  });
  it('follows a chain of references', () => {
    const root: JsonSchema = { $defs: { A: { $ref: '#/$defs/B' }, B: { type: 'integer', minimum: 1 } } };
    expect(resolveSchema({ $ref: '#/$defs/A' }, root)).toEqual({ type: 'integer', minimum: 1 });
  });
  it('lets keywords beside the $ref win over the target', () => {
    const root: JsonSchema = { $defs: { Mode: { type: 'string', description: 'generic', default: 'a' } } };
    expect(resolveSchema({ $ref: '#/$defs/Mode', description: 'specific', default: 'b' }, root)).toEqual({
      type: 'string',
      description: 'specific',
      default: 'b',
    });
  });
  it('drops a dangling reference and keeps the siblings', () => {
    expect(resolveSchema({ $ref: '#/$defs/Missing', description: 'd' }, {})).toEqual({ description: 'd' });
  });
  it('stops on a cycle', () => {
    const root: JsonSchema = { $defs: { A: { $ref: '#/$defs/A', title: 't' } } };
    expect(resolveSchema({ $ref: '#/$defs/A' }, root)).toEqual({ title: 't' });
  });
});

describe('getParamType', () => {
  describe('with a plain type', () => {
    it.each([
      ['string', 'str'],
      ['integer', 'int'],
      ['number', 'float'],
      ['boolean', 'bool'],
      ['array', 'list'],
      ['object', 'dict'],
      ['null', 'any'],
      ['nonsense', 'any'],
    ])('maps %s to %s', (type, expected) => {
      expect(getParamType({ type }, {})).toBe(expected);
    });
    it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
      'maps the unknown type %s (an Object.prototype member name) to any, also in a type array',
      (type) => {
        // Fuzz counterexample: {a:{type:"__proto__"}} gave the parameter type {} and no zero value.
        const schema: JsonSchema = { type: 'object', properties: { a: { type } } };
        expect(getParamType((schema.properties as Record<string, JsonSchema>).a, schema)).toBe('any');
        expect(getParamType({ type: ['null', type] }, {})).toBe('any');
      },
    );
  });

  describe('with a type array', () => {
    it('takes the first non-null type', () => {
      expect(getParamType({ type: ['null', 'integer', 'string'] }, {})).toBe('int');
    });
    it('gives any when only null is listed', () => {
      expect(getParamType({ type: ['null'] }, {})).toBe('any');
    });
  });

  describe('with anyOf / oneOf', () => {
    it('skips a null branch in anyOf', () => {
      expect(getParamType({ anyOf: [{ type: 'null' }, { type: 'number' }] }, {})).toBe('float');
    });
    it('skips a null branch in oneOf', () => {
      expect(getParamType({ oneOf: [{ type: 'array' }, { type: 'null' }] }, {})).toBe('list');
    });
    it('resolves a $ref inside a branch', () => {
      const root: JsonSchema = { $defs: { Cfg: { type: 'object' } } };
      expect(getParamType({ anyOf: [{ $ref: '#/$defs/Cfg' }, { type: 'null' }] }, root)).toBe('dict');
    });
  });

  describe('with $ref', () => {
    it('resolves #/$defs', () => {
      expect(getParamType({ $ref: '#/$defs/S' }, { $defs: { S: { type: 'string' } } })).toBe('str');
    });
    it('resolves #/definitions', () => {
      expect(getParamType({ $ref: '#/definitions/B' }, { definitions: { B: { type: 'boolean' } } })).toBe(
        'bool',
      );
    });
    it('gives any for a dangling reference', () => {
      expect(getParamType({ $ref: '#/$defs/Missing' }, {})).toBe('any');
    });
  });

  describe('with enum or const and no type', () => {
    it('takes the type of the first enum value', () => {
      expect(getParamType({ enum: ['fast', 'slow'] }, {})).toBe('str');
      expect(getParamType({ enum: [1, 2.5] }, {})).toBe('int');
      expect(getParamType({ enum: [2.5, 1] }, {})).toBe('float');
    });
    it('skips a leading null in an enum', () => {
      expect(getParamType({ enum: [null, true] }, {})).toBe('bool');
    });
    it('takes the type of const', () => {
      expect(getParamType({ const: { a: 1 } }, {})).toBe('dict');
      expect(getParamType({ const: [1] }, {})).toBe('list');
    });
  });

  describe('with nothing to go on', () => {
    it('gives any for an empty schema', () => {
      expect(getParamType({}, {})).toBe('any');
    });
    it('gives any for a self-referencing anyOf without looping', () => {
      const root: JsonSchema = { $defs: { A: { anyOf: [{ $ref: '#/$defs/A' }] } } };
      expect(getParamType({ $ref: '#/$defs/A' }, root)).toBe('any');
    });
  });
});

describe('getZeroValue', () => {
  it.each([
    ['str', ''],
    ['int', 0],
    ['float', 0],
    ['bool', false],
    ['list', []],
    ['dict', {}],
    ['any', null],
  ] as const)('gives %s → %j', (type, expected) => {
    expect(getZeroValue(type)).toEqual(expected);
  });
  it('returns a fresh list and dict every time', () => {
    expect(getZeroValue('list')).not.toBe(getZeroValue('list'));
    expect(getZeroValue('dict')).not.toBe(getZeroValue('dict'));
  });
});

describe('getValueType', () => {
  it('types null and undefined as any', () => {
    expect(getValueType(null)).toBe('any');
    expect(getValueType(undefined)).toBe('any');
  });
});

describe('getObjectProperties', () => {
  it('lists properties in declaration order with the required set', () => {
    const { properties, required } = getObjectProperties(
      { type: 'object', properties: { b: { type: 'string' }, a: { type: 'integer' } }, required: ['a'] },
      {},
    );
    expect(properties.map((p) => p.name)).toEqual(['b', 'a']);
    expect([...required]).toEqual(['a']);
  });
  it('follows a top-level $ref', () => {
    const root: JsonSchema = {
      $ref: '#/$defs/In',
      $defs: { In: { properties: { x: { type: 'number' } }, required: ['x'] } },
    };
    const { properties, required } = getObjectProperties(root, root);
    expect(properties).toEqual([{ name: 'x', schema: { type: 'number' } }]);
    expect(required.has('x')).toBe(true);
  });
  it('merges simple allOf branches in order', () => {
    const root: JsonSchema = {
      $defs: { Base: { properties: { id: { type: 'string' } }, required: ['id'] } },
      allOf: [
        { $ref: '#/$defs/Base' },
        { properties: { limit: { type: 'integer' }, id: { description: 'the id' } } },
      ],
      properties: { extra: { type: 'boolean' } },
    };
    const { properties, required } = getObjectProperties(root, root);
    expect(properties.map((p) => p.name)).toEqual(['id', 'limit', 'extra']);
    expect(properties[0].schema).toEqual({ type: 'string', description: 'the id' });
    expect([...required]).toEqual(['id']);
  });
  it('treats a non-object property schema as empty', () => {
    const { properties } = getObjectProperties({ properties: { any: true } }, {});
    expect(properties).toEqual([{ name: 'any', schema: {} }]);
  });
  it('gives nothing for a schema without properties', () => {
    expect(getObjectProperties({ type: 'object' }, {}).properties).toEqual([]);
  });
});
