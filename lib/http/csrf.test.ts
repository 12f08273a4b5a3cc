import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertSameOrigin, isProxyTrusted } from './csrf';

const post = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:3000/api/workflows', { method: 'POST', headers });

describe('assertSameOrigin', () => {
  it('lets same-origin browser requests through', () => {
    expect(() =>
      assertSameOrigin(post({ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' })),
    ).not.toThrow();
  });

  it('lets clients without Origin or Sec-Fetch-Site through (curl, scripts)', () => {
    expect(() => assertSameOrigin(post({}))).not.toThrow();
  });

  it('refuses another origin with 403', () => {
    expect(() => assertSameOrigin(post({ origin: 'http://evil.example' }))).toThrow(/cross-site request/);
    expect(() => assertSameOrigin(post({ origin: 'http://127.0.0.1:3001' }))).toThrow(/Origin/);
    expect(() => assertSameOrigin(post({ origin: 'null' }))).toThrow(/Origin: null/);
  });

  it('refuses cross-site and same-site fetch metadata even without Origin', () => {
    expect(() => assertSameOrigin(post({ 'sec-fetch-site': 'cross-site' }))).toThrow(/cross-site/);
    expect(() => assertSameOrigin(post({ 'sec-fetch-site': 'same-site' }))).toThrow(/same-site/);
  });

  describe('behind a reverse proxy', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });
    const forwarded = (host: string, origin: string) =>
      new Request('http://10.0.0.5:3000/api/workflows', {
        method: 'PUT',
        headers: { host: '10.0.0.5:3000', origin, 'x-forwarded-host': host },
      });

    it('compares against X-Forwarded-Host when TOOLFLOW_TRUST_PROXY=1 says a proxy is in front', () => {
      vi.stubEnv('TOOLFLOW_TRUST_PROXY', '1');
      expect(() => assertSameOrigin(forwarded('toolflow.example', 'https://toolflow.example'))).not.toThrow();
      expect(() => assertSameOrigin(forwarded('toolflow.example', 'https://evil.example'))).toThrow(
        /Origin: https:\/\/evil\.example/,
      );
    });

    it('ignores X-Forwarded-Host without it: a client could name any host there', () => {
      vi.stubEnv('TOOLFLOW_TRUST_PROXY', '');
      expect(() => assertSameOrigin(forwarded('evil.example', 'https://evil.example'))).toThrow(
        /cross-site request/,
      );
      expect(() => assertSameOrigin(forwarded('evil.example', 'http://10.0.0.5:3000'))).not.toThrow();
    });

    it('takes only "1" as yes', () => {
      for (const value of ['0', 'true', 'yes', '']) {
        vi.stubEnv('TOOLFLOW_TRUST_PROXY', value);
        expect(isProxyTrusted(), value).toBe(false);
      }
      vi.stubEnv('TOOLFLOW_TRUST_PROXY', '1');
      expect(isProxyTrusted()).toBe(true);
    });
  });

  it('never blocks reads', () => {
    const request = new Request('http://127.0.0.1:3000/api/workflows', {
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(() => assertSameOrigin(request)).not.toThrow();
  });
});
