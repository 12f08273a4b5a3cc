import { describe, expect, it } from 'vitest';

describe('deep equality in this suite (tests/declaration-order-tester.ts)', () => {
  it('tells apart schemas whose properties are declared in another order', () => {
    const declared = {
      type: 'object',
      properties: { input_structure: { type: 'string' }, head: { type: 'string' } },
    };
    const sorted = {
      type: 'object',
      properties: { head: { type: 'string' }, input_structure: { type: 'string' } },
    };
    expect(sorted).not.toEqual(declared);
    expect([{ name: 't', inputSchema: sorted }]).not.toEqual([{ name: 't', inputSchema: declared }]);
    expect({ nested: { items: sorted } }).not.toStrictEqual({ nested: { items: declared } });
  });

  it('still ignores the key order of everything else', () => {
    expect({ b: 1, a: 2, properties: { x: 1 } }).toEqual({ a: 2, properties: { x: 1 }, b: 1 });
  });

  it('still reports schemas that differ in content', () => {
    expect({ properties: { a: 1 } }).not.toEqual({ properties: { a: 2 } });
    expect({ properties: { a: 1 } }).not.toEqual({ properties: { a: 1, b: 2 } });
  });
});
