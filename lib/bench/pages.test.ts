import { describe, expect, it } from 'vitest';
import { BENCH_PAGES_FLAG, areBenchPagesEnabled } from './pages';

describe('areBenchPagesEnabled', () => {
  it('is off when the flag is not set', () => {
    expect(areBenchPagesEnabled({})).toBe(false);
  });

  it('is on only for the exact value 1', () => {
    expect(areBenchPagesEnabled({ [BENCH_PAGES_FLAG]: '1' })).toBe(true);
    for (const value of ['', '0', 'true', 'yes', ' 1']) {
      expect(areBenchPagesEnabled({ [BENCH_PAGES_FLAG]: value }), value).toBe(false);
    }
  });
});
