import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashDeclaration } from './canonical-json';
import type { ToolDeclaration } from './types';

describe('canonicalJson', () => {
  describe('sorts and normalises', () => {
    it('sorts object keys at every depth', () => {
      expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
        '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
      );
    });

    it('sorts keys by UTF-16 code units (RFC 8785), not by locale', () => {
      expect(canonicalJson({ é: 1, z: 2, Z: 3, '\u{1F600}': 4, a: 5 })).toBe(
        '{"Z":3,"a":5,"z":2,"é":1,"\u{1F600}":4}',
      );
    });

    it('omits undefined members and writes undefined array items as null', () => {
      expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
    });

    it('writes non-finite numbers as null and numbers in shortest form', () => {
      expect(canonicalJson([NaN, Infinity, 1e21, 0.1, -0, 100])).toBe('[null,null,1e+21,0.1,0,100]');
    });

    it('escapes strings exactly as JSON.stringify does', () => {
      const s = 'quote " backslash \\ newline \n tab \t nul \u0000 ☃';
      expect(canonicalJson(s)).toBe(JSON.stringify(s));
    });
  });

  describe('is stable', () => {
    it('gives the same text for the same value whatever the key order', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const shuffled = JSON.parse(JSON.stringify(value), (_key, v) =>
            v && typeof v === 'object' && !Array.isArray(v)
              ? Object.fromEntries(Object.entries(v).reverse())
              : v,
          );
          return canonicalJson(shuffled) === canonicalJson(value);
        }),
      );
    });

    it('round-trips through JSON.parse to an equal value', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
        }),
      );
    });
  });

  it('throws on values JSON cannot hold (a bug, not input)', () => {
    expect(() => canonicalJson(10n)).toThrow(/bigint/);
  });
});

describe('hashDeclaration', () => {
  const decl: ToolDeclaration = {
    name: 'echo',
    description: 'Echo a message',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  };

  it('is sha256 of the canonical JSON of the declaration content', () => {
    // Computed independently: sha256 of
    // {"description":"Echo a message","inputSchema":{"properties":{"message":{"type":"string"}},"required":["message"],"type":"object"},"name":"echo"}
    expect(hashDeclaration(decl)).toBe(
      'sha256:33925e60780d210710037f7b727d5649b5f03928e45b2de15433c9d8780218e2',
    );
  });

  it('ignores key order and the source', () => {
    const reordered: ToolDeclaration = {
      inputSchema: { required: ['message'], properties: { message: { type: 'string' } }, type: 'object' },
      description: 'Echo a message',
      name: 'echo',
      source: { kind: 'mcp-stdio', server: 'everything' },
    };
    expect(hashDeclaration(reordered)).toBe(hashDeclaration(decl));
  });

  it('changes when any content field changes', () => {
    const base = hashDeclaration(decl);
    expect(hashDeclaration({ ...decl, title: 'Echo' })).not.toBe(base);
    expect(hashDeclaration({ ...decl, description: 'Echo a message.' })).not.toBe(base);
    expect(hashDeclaration({ ...decl, annotations: { readOnlyHint: true } })).not.toBe(base);
    expect(hashDeclaration({ ...decl, outputSchema: { type: 'object' } })).not.toBe(base);
    expect(hashDeclaration({ ...decl, inputSchema: { ...decl.inputSchema, required: [] } })).not.toBe(base);
  });
});
