import { describe, expect, it } from 'vitest';
import { createRenderedPageCache } from './rendered-pages';

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
