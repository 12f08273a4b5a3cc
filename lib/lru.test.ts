import { describe, expect, it } from 'vitest';
import { createLruCache } from './lru';

describe('createLruCache', () => {
  it('drops the least recently used first when over its cost', () => {
    const cache = createLruCache<string>({ maxCost: 10, cost: (v) => v.length });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa'); // a is now the more recent
    cache.set('c', 'cccc');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
    expect(cache.get('c')).toBe('cccc');
    expect(cache.cost()).toBe(8);
  });

  it('holds at most its number of entries', () => {
    const cache = createLruCache<number>({ maxCost: 100, maxEntries: 2, cost: () => 1 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    expect(cache.cost()).toBe(2);
  });

  it('replaces a key in place of adding it twice, and keeps nothing that costs more than the budget', () => {
    const cache = createLruCache<string>({ maxCost: 5, cost: (v) => v.length });
    cache.set('a', 'aa');
    cache.set('a', 'aaa');
    expect(cache.cost()).toBe(3);
    cache.set('big', 'xxxxxx');
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('a')).toBe('aaa');
    cache.set('a', 'yyyyyy'); // too big: the old value goes too, as it was replaced
    expect(cache.get('a')).toBeUndefined();
    expect(cache.cost()).toBe(0);
  });
});
