import { describe, expect, it } from 'vitest';
import { getValuePreview, getValueTitle } from './value-preview';

describe('getValuePreview', () => {
  it('shows strings as written and an empty string as ""', () => {
    expect(getValuePreview('https://example.org/a.cif')).toBe('https://example.org/a.cif');
    expect(getValuePreview('')).toBe('""');
  });

  it('shows scalars as JSON, null included', () => {
    expect(getValuePreview(0.01)).toBe('0.01');
    expect(getValuePreview(false)).toBe('false');
    expect(getValuePreview(null)).toBe('null');
  });

  it('shows short containers inline and summarises long ones', () => {
    expect(getValuePreview(['a', 'b'])).toBe('["a","b"]');
    expect(getValuePreview(Array.from({ length: 30 }, (_, i) => i))).toBe('[30 items]');
    const wide = { alpha: 'x'.repeat(20), beta: 'y'.repeat(20), gamma: 1, delta: 2 };
    expect(getValuePreview(wide)).toBe('{4 keys: alpha, beta, gamma, …}');
  });
});

describe('getValueTitle', () => {
  it('caps very large values', () => {
    expect(getValueTitle('x'.repeat(5000)).length).toBe(2001);
  });
});
