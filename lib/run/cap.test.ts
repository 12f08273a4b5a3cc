import { describe, expect, it } from 'vitest';
import { capJson } from './cap';

const size = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

describe('capJson', () => {
  it('leaves a value that fits alone', () => {
    const value = { content: [{ type: 'text', text: 'hi' }] };
    expect(capJson(value, 1_000)).toEqual({ value, cuts: [] });
  });

  it('drops binary data whole instead of keeping a broken half', () => {
    const value = { content: [{ type: 'image', mimeType: 'image/png', data: 'A'.repeat(5_000) }] };
    const capped = capJson(value, 500);
    expect(capped.value.content[0]).toEqual({ type: 'image', mimeType: 'image/png', data: '' });
    expect(capped.cuts).toEqual(['/content/0/data: 5,002 bytes not stored']);
  });

  it('stays within the budget for long multi-byte text and many members', () => {
    const value = { a: 'é'.repeat(3_000), list: Array.from({ length: 500 }, (_, i) => ({ i })) };
    for (const budget of [200, 1_000, 4_000]) {
      const capped = capJson(value, budget);
      expect(size(capped.value)).toBeLessThanOrEqual(budget);
      expect(capped.cuts.length).toBeGreaterThan(0);
    }
  });
});
