import { describe, expect, it } from 'vitest';
import { capJson, MAX_STORED_DEPTH } from './cap';
import { getJsonDepth } from '../tools/json-text';

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

  it('stores arrays and objects nested past the limit as "…", naming where, whatever the depth', () => {
    for (const levels of [MAX_STORED_DEPTH + 1, 300, 100_000]) {
      let inner: unknown = 'leaf';
      for (let i = 1; i < levels; i++) inner = i % 2 ? [inner] : { a: inner };
      const value = { structuredContent: inner, isError: false };
      const capped = capJson(value, 10_000_000);
      expect(getJsonDepth(capped.value), String(levels)).toBe(MAX_STORED_DEPTH);
      expect(capped.cuts).toHaveLength(1);
      expect(capped.cuts[0]).toMatch(
        /^\/structuredContent(\/\d+|\/a)+: nested deeper than 101 levels, not stored$/,
      );
      expect(capped.cuts[0].split('/')).toHaveLength(MAX_STORED_DEPTH + 1);
      // The rest of the value is as it was, in order.
      expect(Object.keys(capped.value)).toEqual(['structuredContent', 'isError']);
    }
  });

  it('keeps member order and outside names such as __proto__ in a copy it had to make', () => {
    const deep: unknown = JSON.parse(`{"z":1,"__proto__":{"b":2},"a":${'['.repeat(120)}${']'.repeat(120)}}`);
    const capped = capJson(deep, 10_000);
    expect(JSON.stringify(Object.keys(capped.value as object))).toBe('["z","__proto__","a"]');
    expect(JSON.stringify(capped.value).startsWith('{"z":1,"__proto__":{"b":2},"a":[[')).toBe(true);
  });

  it('stores unpaired surrogates as U+FFFD, keeping whole pairs', () => {
    const value = { content: [{ type: 'text', text: 'half \ud83d, whole \ud83d\ude00' }] };
    const capped = capJson(value, 1_000);
    expect(capped.value.content[0].text).toBe('half \ufffd, whole \ud83d\ude00');
    expect(capped.cuts).toEqual(['/content/0/text: unpaired UTF-16 surrogates stored as U+FFFD']);
  });

  it('leaves a storable value as it is, not a copy', () => {
    const value = { structuredContent: { a: [[['😀']]] } };
    expect(capJson(value, 1_000).value).toBe(value);
  });
});
