import { describe, expect, it } from 'vitest';
import {
  adoptJson,
  cloneJson,
  createLookupTable,
  createRecord,
  getMember,
  hasMember,
  parseJson,
  toClientProps,
} from './json-value';

describe('createLookupTable', () => {
  const table = createLookupTable({ string: 'str', integer: 'int' });

  it('finds the keys it was given', () => {
    expect(table.string).toBe('str');
    expect(table['integer']).toBe('int');
  });

  it('finds nothing for the names of Object.prototype members', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(table[key], key).toBeUndefined();
    }
  });

  it('cannot be changed', () => {
    expect(() => {
      (table as Record<string, string>).string = 'x';
    }).toThrow(TypeError);
  });
});

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

describe('parseJson', () => {
  const text = '{"a":{"__proto__":{"x":1},"constructor":[{"toString":2}]},"b":[{"c":null}],"":"e"}';

  it('gives records without a prototype at every depth, which find only their own members', () => {
    const value = parseJson(text) as Record<string, Record<string, unknown>>;
    for (const record of [
      value,
      value.a,
      (value.a['constructor'] as unknown as Record<string, unknown>[])[0],
    ]) {
      expect(Object.getPrototypeOf(record)).toBeNull();
    }
    expect(Object.keys(value.a)).toEqual(['__proto__', 'constructor']);
    expect(value.a['__proto__']).toEqual({ x: 1 });
    for (const key of PROTOTYPE_NAMES) expect(value[key], key).toBeUndefined();
  });

  it('serializes, spreads and clones as the plain JSON it came from', () => {
    const value = parseJson(text) as Record<string, unknown>;
    expect(JSON.stringify(value)).toBe(text);
    expect(JSON.stringify({ ...value })).toBe(text);
    expect(JSON.stringify(structuredClone(value))).toBe(text);
    expect(JSON.stringify(cloneJson(value))).toBe(text);
    expect(value).toEqual(JSON.parse(text));
  });
});

describe('adoptJson', () => {
  it('drops the prototype of plain objects in place and leaves other objects as they are', () => {
    const date = new Date(0);
    const value = { a: [{ b: 1 }], when: date };
    expect(adoptJson(value)).toBe(value);
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.getPrototypeOf(value.a[0])).toBeNull();
    expect(Object.getPrototypeOf(value.when)).toBe(Date.prototype);
  });
});

describe('createRecord', () => {
  it('makes a record from an object or pairs, where assignment defines even "__proto__"', () => {
    const record = createRecord<number>([['b', 2]]);
    record['__proto__'] = 1;
    expect(Object.keys(record)).toEqual(['b', '__proto__']);
    expect(Object.getPrototypeOf(record)).toBeNull();
    expect(JSON.stringify(createRecord({ x: 1, y: 2 }))).toBe('{"x":1,"y":2}');
    for (const key of PROTOTYPE_NAMES) expect(createRecord()[key], key).toBeUndefined();
  });
});

describe('getMember and hasMember', () => {
  it('find own members only, in objects with or without a prototype', () => {
    const literal: Record<string, number> = { a: 1 };
    for (const record of [literal, createRecord(literal)]) {
      expect(getMember(record, 'a')).toBe(1);
      expect(hasMember(record, 'a')).toBe(true);
      for (const key of PROTOTYPE_NAMES) {
        expect(getMember(record, key), key).toBeUndefined();
        expect(hasMember(record, key), key).toBe(false);
      }
    }
  });
});

describe('toClientProps', () => {
  it('gives ordinary objects at every depth (a Client Component refuses null prototypes), the same JSON', () => {
    const text = '{"a":{"__proto__":{"x":1},"b":[{"c":2}]}}';
    const props = toClientProps(parseJson(text)) as { a: { b: object[] } };
    for (const object of [props, props.a, props.a.b[0]])
      expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.keys(props.a)).toEqual(['__proto__', 'b']);
    expect(JSON.stringify(props)).toBe(text);
  });
});
