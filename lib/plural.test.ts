import { describe, expect, it } from 'vitest';
import { countOf } from './plural';

describe('countOf', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect([0, 1, 2].map((n) => countOf(n, 'edge'))).toEqual(['0 edges', '1 edge', '2 edges']);
  });

  it('takes an irregular plural', () => {
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(countOf(3, 'entry', 'entries')).toBe('3 entries');
  });
});
