import { describe, expect, it } from 'vitest';
import { createLookupTable } from './json-value';

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
