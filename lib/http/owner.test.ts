import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createOwnerId,
  getOwnerSecret,
  getOwnerSetCookie,
  OWNER_COOKIE,
  readCookie,
  signOwnerCookie,
  verifyOwnerCookie,
  withOwnerCookie,
} from './owner';

/** Only the variables a case sets: getOwnerSecret must not read the real environment. */
const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
const key = getOwnerSecret(env({ TOOLFLOW_SECRET: 'a-test-secret-that-is-long-enough' }));

describe('getOwnerSecret', () => {
  it('generates a secret file once in development and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-secret-'));
    const vars = { TOOLFLOW_DATA_DIR: dir, NODE_ENV: 'development' };
    const first = getOwnerSecret(env(vars));
    const stored = fs.readFileSync(path.join(dir, 'secret'), 'utf8').trim();
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect((fs.statSync(path.join(dir, 'secret')).mode & 0o777).toString(8)).toBe('600');
    // A second process (no cache) reads the same file and derives the same key.
    const again = getOwnerSecret(env({ ...vars, TOOLFLOW_DATA_DIR: dir + '/' }));
    expect(again.equals(first)).toBe(true);
  });

  it('refuses to start in production without TOOLFLOW_SECRET, saying how to set it', () => {
    expect(() => getOwnerSecret(env({ NODE_ENV: 'production' }))).toThrow(
      /TOOLFLOW_SECRET is not set.*openssl rand -hex 32/,
    );
  });

  it('refuses a short configured secret', () => {
    expect(() => getOwnerSecret(env({ TOOLFLOW_SECRET: 'short' }))).toThrow(/shorter than 16/);
  });
});

describe('verifyOwnerCookie', () => {
  it('accepts a cookie it signed', () => {
    const id = createOwnerId();
    expect(verifyOwnerCookie(signOwnerCookie(id, key), key)).toBe(id);
  });

  it('rejects a forged id, a tampered signature and a cookie signed with another key', () => {
    const id = createOwnerId();
    const cookie = signOwnerCookie(id, key);
    const [v, , sig] = cookie.split('.');
    expect(verifyOwnerCookie(`${v}.${createOwnerId()}.${sig}`, key)).toBeNull();
    expect(verifyOwnerCookie(cookie.slice(0, -2) + 'AA', key)).toBeNull();
    const other = getOwnerSecret(env({ TOOLFLOW_SECRET: 'another-secret-of-enough-length' }));
    expect(verifyOwnerCookie(signOwnerCookie(id, other), key)).toBeNull();
    expect(verifyOwnerCookie('garbage', key)).toBeNull();
    expect(verifyOwnerCookie(undefined, key)).toBeNull();
  });
});

describe('withOwnerCookie', () => {
  it('issues the cookie for a new owner: httpOnly, SameSite=Lax, not Secure over http', () => {
    const request = new Request('http://x/');
    const owner = { id: createOwnerId(), isNew: true };
    const response = withOwnerCookie(Response.json({}), owner, request);
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).toContain(`${OWNER_COOKIE}=v1.${owner.id}.`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).not.toContain('Secure');
    expect(readCookie(setCookie.split(';')[0], OWNER_COOKIE)).toBe(signOwnerCookie(owner.id));
  });

  it('does not issue a cookie for a known owner', () => {
    const request = new Request('http://x/');
    const response = withOwnerCookie(Response.json({}), { id: createOwnerId(), isNew: false }, request);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('marks the cookie Secure over https', () => {
    expect(getOwnerSetCookie(createOwnerId(), true)).toContain('; Secure');
  });
});
