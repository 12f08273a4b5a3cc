import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256, sha256Hex } from './sha256';

const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('sha256Hex', () => {
  describe('matches the FIPS 180-4 / NIST test vectors', () => {
    it.each([
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      [
        'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      ],
      [
        'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
        'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
      ],
    ])('hashes %j', (input, expected) => {
      expect(sha256Hex(input)).toBe(expected);
    });

    it('hashes one million "a" characters', () => {
      expect(sha256Hex('a'.repeat(1_000_000))).toBe(
        'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
      );
    });
  });

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    const text = 'ツール 🔧 Überprüfung';
    expect(sha256Hex(text)).toBe(nodeSha256(Buffer.from(text, 'utf8')));
  });
});

describe('sha256', () => {
  it('agrees with node:crypto at every padding boundary length', () => {
    for (const length of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff);
      expect(toHex(sha256(bytes)), `length ${length}`).toBe(nodeSha256(bytes));
    }
  });

  it('agrees with node:crypto on random byte strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => toHex(sha256(bytes)) === nodeSha256(bytes)),
      { numRuns: 300 },
    );
  });
});
