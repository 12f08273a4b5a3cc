import 'server-only';
/**
 * Ownership without a sign-up wall: every browser gets an anonymous owner id in an httpOnly,
 * SameSite=Lax cookie signed with HMAC-SHA256. The id is its guest workspace's: the `Owner` row
 * its workflows, toolkits and runs name. Which workspace a request acts in, and with which role,
 * is decided in access.ts (a signed-in browser acts in its account's workspaces).
 *
 * The signing key is `TOOLFLOW_SECRET`. Outside production, when it is unset, one is generated
 * once and kept in `${TOOLFLOW_DATA_DIR ?? '.data'}/secret`, so `npm run dev` needs no set-up and
 * cookies survive restarts. In production it is required: a generated key on an ephemeral disk
 * would silently orphan every browser's workflows on the next deploy.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getSecretConfigProblem } from './secret-config';

export const OWNER_COOKIE = 'toolflow_owner';
/** Browsers cap cookie lifetimes at 400 days. */
const OWNER_COOKIE_MAX_AGE = 400 * 24 * 60 * 60;
const COOKIE_VERSION = 'v1';

/** A guest owner; `isNew` means the cookie must be issued with the response. */
interface GuestOwner {
  id: string;
  isNew: boolean;
}

let cachedSecret: { source: string; key: Buffer } | undefined;

/**
 * The cookie signing key, read once. Throws with what to do when production has none.
 * Exported for tests and the proxy; routes use the helpers below.
 */
export function getOwnerSecret(env: NodeJS.ProcessEnv = process.env): Buffer {
  const configured = env.TOOLFLOW_SECRET?.trim();
  const source = configured ? `env:${configured}` : `file:${env.TOOLFLOW_DATA_DIR ?? '.data'}`;
  if (cachedSecret?.source === source) return cachedSecret.key;
  const problem = getSecretConfigProblem(env);
  if (problem) throw new Error(problem);
  const material =
    configured || readOrCreateSecretFile(path.join(env.TOOLFLOW_DATA_DIR?.trim() || '.data', 'secret'));
  // Derive the HMAC key so the raw configured string is never used directly as a key.
  const key = createHmac('sha256', material).update('toolflow owner cookie').digest();
  cachedSecret = { source, key };
  return key;
}

function readOrCreateSecretFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: when two processes start at once, exactly one writes; the other reads its key.
    fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** A new anonymous owner id: 128 random bits. */
export function createOwnerId(): string {
  return `own_${randomBytes(16).toString('base64url')}`;
}

function sign(ownerId: string, key: Buffer): string {
  return createHmac('sha256', key).update(`${COOKIE_VERSION}.${ownerId}`).digest('base64url');
}

/** The cookie value for an owner id: `v1.<id>.<hmac>`. */
export function signOwnerCookie(ownerId: string, key: Buffer = getOwnerSecret()): string {
  return `${COOKIE_VERSION}.${ownerId}.${sign(ownerId, key)}`;
}

/**
 * Cookies already verified with a key, so a browser's every request does not recompute the HMAC.
 * Only genuine cookies get in (a forged one needs the secret), so it cannot be filled from
 * outside; it is emptied when full. Keyed by the whole value, and checked against the very key
 * it was verified with, so a changed secret verifies afresh.
 */
const VERIFIED_COOKIE_LIMIT = 10_000;
const verifiedCookies = new Map<string, { key: Buffer; ownerId: string }>();

/** The owner id in a cookie value, or null when it is missing, malformed or not signed by us. */
export function verifyOwnerCookie(
  value: string | undefined | null,
  key: Buffer = getOwnerSecret(),
): string | null {
  if (!value) return null;
  const known = verifiedCookies.get(value);
  if (known && known.key === key) return known.ownerId;
  const parts = value.split('.');
  if (parts.length !== 3 || parts[0] !== COOKIE_VERSION || !/^own_[\w-]{16,64}$/.test(parts[1])) return null;
  const expected = Buffer.from(sign(parts[1], key));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (verifiedCookies.size >= VERIFIED_COOKIE_LIMIT) verifiedCookies.clear();
  verifiedCookies.set(value, { key, ownerId: parts[1] });
  return parts[1];
}

/** Reads one cookie from a `Cookie` header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

/** The `Set-Cookie` value that gives a browser this owner identity. */
export function getOwnerSetCookie(ownerId: string, secure: boolean): string {
  return [
    `${OWNER_COOKIE}=${signOwnerCookie(ownerId)}`,
    'Path=/',
    `Max-Age=${OWNER_COOKIE_MAX_AGE}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** True when the request reached us over HTTPS (directly or through a proxy that says so). */
export function isSecureRequest(request: Request): boolean {
  return (
    new URL(request.url).protocol === 'https:' ||
    request.headers.get('x-forwarded-proto')?.split(',')[0].trim() === 'https'
  );
}

/** Issues the owner cookie on the response when the owner is new; returns the response. */
export function withOwnerCookie(response: Response, owner: GuestOwner, request: Request): Response {
  if (owner.isNew)
    response.headers.append('set-cookie', getOwnerSetCookie(owner.id, isSecureRequest(request)));
  return response;
}
