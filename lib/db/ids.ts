import 'server-only';
import { randomBytes } from 'node:crypto';

/** Unguessable ids: 128 bits, base64url, with a readable prefix (`wf_…`). */
export function createId(prefix: string, bytes = 16): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}
