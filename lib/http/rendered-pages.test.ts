import { describe, expect, it } from 'vitest';
import { createRenderedPageCache, getRenderedPagesOrigin } from './rendered-pages';

const page = (text: string) => ({
  body: new TextEncoder().encode(text),
  headers: [['content-type', 'text/html; charset=utf-8']] as [string, string][],
});

describe('rendered page cache', () => {
  it('keeps a filled page, filled once however many ask at the same time', async () => {
    const cache = createRenderedPageCache(1_000_000);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return page('<html>v1</html>');
    };
    await Promise.all([cache.fill('a/1', load), cache.fill('a/1', load), cache.fill('a/1', load)]);
    await cache.fill('a/1', load);
    expect(loads).toBe(1);
    const kept = cache.get('a/1');
    expect(new TextDecoder().decode(kept?.body)).toBe('<html>v1</html>');
    expect(JSON.stringify(kept?.headers)).toBe('[["content-type","text/html; charset=utf-8"]]');
  });

  it('keeps nothing when the fill fails or finds no page, and tries again on the next fill', async () => {
    const cache = createRenderedPageCache(1_000_000);
    await cache.fill('a/1', async () => {
      throw new Error('connection refused');
    });
    expect(cache.get('a/1')).toBeUndefined();
    await cache.fill('a/1', async () => null);
    expect(cache.get('a/1')).toBeUndefined();
    await cache.fill('a/1', async () => page('<html>now</html>'));
    expect(cache.get('a/1')).toBeDefined();
  });

  it('stays within its bytes, dropping the page used least recently', async () => {
    const text = 'x'.repeat(400);
    const one = page(text);
    const cost = one.body.byteLength;
    const cache = createRenderedPageCache(cost * 2 + 10);
    await cache.fill('a', async () => page(text));
    await cache.fill('b', async () => page(text));
    cache.get('a'); // a is now the more recent
    await cache.fill('c', async () => page(text));
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.size()).toBeLessThanOrEqual(cost * 2 + 10);
  });

  it('does not keep a page larger than the whole cache', async () => {
    const cache = createRenderedPageCache(100);
    await cache.fill('big', async () => page('y'.repeat(1000)));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size()).toBe(0);
  });
});

describe('getRenderedPagesOrigin', () => {
  const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

  it('takes the configured public URL, as its origin', () => {
    expect(
      getRenderedPagesOrigin(env({ TOOLFLOW_PUBLIC_URL: 'https://flow.example.com/app/', PORT: '3000' })),
    ).toEqual({ origin: 'https://flow.example.com' });
    expect(getRenderedPagesOrigin(env({ TOOLFLOW_PUBLIC_URL: ' http://127.0.0.1:8080 ' }))).toEqual({
      origin: 'http://127.0.0.1:8080',
    });
  });

  it('falls back to this process on the loopback address at the PORT next start sets', () => {
    expect(getRenderedPagesOrigin(env({ PORT: '3412' }))).toEqual({ origin: 'http://127.0.0.1:3412' });
    expect(getRenderedPagesOrigin(env({ TOOLFLOW_PUBLIC_URL: '  ', PORT: '3000' }))).toEqual({
      origin: 'http://127.0.0.1:3000',
    });
  });

  it('has no origin without either (the copy is then not kept), never one from a request', () => {
    expect(getRenderedPagesOrigin(env({}))).toEqual({});
    expect(getRenderedPagesOrigin(env({ PORT: 'abc' }))).toEqual({});
  });

  it('says what is wrong with a public URL that is not an http(s) address', () => {
    for (const raw of ['flow.example.com', 'ftp://flow.example.com', 'https://user:pw@flow.example.com']) {
      const result = getRenderedPagesOrigin(env({ TOOLFLOW_PUBLIC_URL: raw }));
      expect(result.origin, raw).toBeUndefined();
      expect(result.problem).toContain(`TOOLFLOW_PUBLIC_URL must be the http:// or https:// address`);
      expect(result.problem).toContain(`not "${raw}"`);
    }
  });
});
