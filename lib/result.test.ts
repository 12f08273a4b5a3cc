import { describe, expect, it } from 'vitest';
import { decodePointer, decodePointerSegment, joinPointer, pointerSegment } from './result';

describe('JSON Pointer segments', () => {
  it.each(['a/b', '~1', 'x~0y', '~', '/~/', '%41', ''])('decodes what it encodes: %j', (segment) => {
    expect(decodePointerSegment(pointerSegment(segment))).toBe(segment);
  });

  it('decodes ~01 as ~1, not /', () => {
    expect(decodePointerSegment('~01')).toBe('~1');
  });
});

describe('decodePointer', () => {
  it('gives no segments for the root and decoded segments otherwise', () => {
    expect(decodePointer('')).toEqual([]);
    expect(decodePointer(joinPointer('', 'a/b', 0, ''))).toEqual(['a/b', '0', '']);
  });
});
