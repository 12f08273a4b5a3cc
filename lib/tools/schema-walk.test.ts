import { describe, expect, it } from 'vitest';
import { inlineRef, mergeAllOf } from './schema-walk';

describe('inlineRef', () => {
  const root = { $defs: { a: { type: 'string', description: 'A' } } };

  it('inlines the target with the keywords beside the reference on top', () => {
    expect(inlineRef({ $ref: '#/$defs/a', description: 'mine' }, root, [])).toEqual({
      kind: 'inlined',
      ref: '#/$defs/a',
      node: { type: 'string', description: 'mine' },
      refs: ['#/$defs/a'],
    });
  });

  it('says when the reference is to a schema being inlined around it', () => {
    expect(inlineRef({ $ref: '#/$defs/a', title: 't' }, root, ['#/$defs/a'])).toEqual({
      kind: 'recursive',
      ref: '#/$defs/a',
      siblings: { title: 't' },
    });
  });

  it('keeps the keywords beside a reference that resolves to nothing', () => {
    expect(inlineRef({ $ref: '#/$defs/missing', title: 't' }, root, [])).toEqual({
      kind: 'unresolved',
      ref: '#/$defs/missing',
      siblings: { title: 't' },
    });
  });
});

describe('mergeAllOf', () => {
  it('unites properties and required, in branch order, with references inlined', () => {
    const root = {
      $defs: { b: { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] } },
    };
    const merge = mergeAllOf(
      {
        description: 'both',
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { $ref: '#/$defs/b' },
        ],
      },
      root,
      [],
    );
    expect(JSON.stringify(merge.merged)).toBe(
      '{"description":"both","type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"]}',
    );
    expect(merge.refs).toEqual(['#/$defs/b']);
    expect([merge.recursive, merge.unresolved, merge.invalid, merge.conflicts]).toEqual([[], [], [], []]);
  });

  it('merges the keywords of a property named in several branches, later ones on top', () => {
    const merge = mergeAllOf(
      {
        allOf: [
          { properties: { a: { type: 'string', description: 'x' } } },
          { properties: { a: { minLength: 1 } } },
        ],
      },
      {},
      [],
    );
    expect(merge.merged.properties).toEqual({ a: { type: 'string', description: 'x', minLength: 1 } });
  });

  it('reports conflicting keywords (not annotations), recursive, dangling and invalid branches', () => {
    const merge = mergeAllOf(
      {
        allOf: [
          { type: 'string', description: 'one' },
          { type: 'integer', description: 'two' },
          { $ref: '#' },
          { $ref: '#/nowhere', minLength: 2 },
          false,
          true,
        ],
      },
      {},
      ['#'],
    );
    expect(merge.merged).toEqual({ type: 'string', description: 'one', minLength: 2 });
    expect(merge.conflicts).toEqual([{ index: 1, key: 'type' }]);
    expect(merge.recursive).toEqual([{ index: 2, ref: '#' }]);
    expect(merge.unresolved).toEqual([{ index: 3, ref: '#/nowhere' }]);
    expect(merge.invalid).toEqual([4]);
  });

  it('keeps a property named __proto__ as an own member', () => {
    const merge = mergeAllOf(
      JSON.parse('{"allOf":[{"properties":{"__proto__":{"type":"string"}}}]}'),
      {},
      [],
    );
    expect(Object.keys(merge.merged.properties as object)).toEqual(['__proto__']);
  });
});
