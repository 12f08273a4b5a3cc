/**
 * SHA-256, synchronous, so the pure core can hash declarations in the browser and in Node alike
 * without `node:crypto` or the async WebCrypto API. The digest is `@noble/hashes` (audited,
 * no dependencies); this module only fixes how text becomes bytes and bytes become hex.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** SHA-256 digest of raw bytes. */
export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

/** SHA-256 of a string's UTF-8 bytes, as lowercase hex. */
export function sha256Hex(text: string): string {
  return bytesToHex(nobleSha256(utf8ToBytes(text)));
}
