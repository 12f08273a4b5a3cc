import { describe, expect, it } from 'vitest';
import { onDemand } from './on-demand';

describe('onDemand', () => {
  it('starts once, shares the promise, and gives the value once it has arrived', async () => {
    let starts = 0;
    const loader = onDemand(async () => {
      starts += 1;
      return { name: 'layout' };
    });
    expect(loader.get()).toBeUndefined();
    const [a, b] = await Promise.all([loader.load(), loader.load()]);
    expect(a).toBe(b);
    expect(await loader.load()).toBe(a);
    expect(loader.get()).toBe(a);
    expect(starts).toBe(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let starts = 0;
    const loader = onDemand(async () => {
      starts += 1;
      if (starts === 1) throw new Error('offline');
      return 42;
    });
    await expect(loader.load()).rejects.toThrow('offline');
    expect(loader.get()).toBeUndefined();
    expect(await loader.load()).toBe(42);
    expect(loader.get()).toBe(42);
    expect(starts).toBe(2);
  });
});
