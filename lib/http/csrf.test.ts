import { describe, expect, it } from 'vitest';
import { assertSameOrigin } from './csrf';

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

  it('compares against the Host header a proxy forwarded', () => {
    const request = new Request('http://10.0.0.5:3000/api/workflows', {
      method: 'PUT',
      headers: { origin: 'https://toolflow.example', 'x-forwarded-host': 'toolflow.example' },
    });
    expect(() => assertSameOrigin(request)).not.toThrow();
  });

  it('never blocks reads', () => {
    const request = new Request('http://127.0.0.1:3000/api/workflows', {
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(() => assertSameOrigin(request)).not.toThrow();
  });
});
