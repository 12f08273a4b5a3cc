import { describe, expect, it } from 'vitest';
import { readReturnPath } from './return-path';

describe('readReturnPath', () => {
  it('keeps a path on this site', () => {
    expect(readReturnPath('/s/abc')).toBe('/s/abc');
    expect(readReturnPath(['/w/wf_1', '/other'])).toBe('/w/wf_1');
  });
  it('sends anything that could leave the site home', () => {
    for (const next of [
      undefined,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'abc',
      '/a b',
    ])
      expect(readReturnPath(next)).toBe('/');
  });
});
