import { describe, expect, it } from 'vitest';
import { getStorableIssues, MAX_JSON_DEPTH, MAX_VALUE_DEPTH } from './storable';

/** A value nested exactly `levels` arrays and objects deep. */
function nest(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? { k: value } : [value];
  return value;
}

describe('getStorableIssues', () => {
  it('takes a value at the limit', () => {
    expect(getStorableIssues(nest(MAX_VALUE_DEPTH), { at: '/x', what: 'The value' })).toEqual([]);
  });

  it('names where the first level past the limit starts', () => {
    const [issue] = getStorableIssues({ a: 1, deep: nest(MAX_VALUE_DEPTH) }, { at: '/v', what: 'The value' });
    expect(issue.code).toBe('too_deep');
    expect(issue.message).toBe(
      `The value nests deeper than ${MAX_VALUE_DEPTH} levels of arrays and objects; level ${MAX_VALUE_DEPTH + 1} starts here. Toolflow stores at most ${MAX_VALUE_DEPTH}: flatten it.`,
    );
    // /v, then "deep", then MAX_VALUE_DEPTH - 1 more levels down to the first container past it.
    expect(issue.path.startsWith('/v/deep/')).toBe(true);
    expect(issue.path.split('/')).toHaveLength(MAX_VALUE_DEPTH + 2);
  });

  it('walks any depth without exhausting the stack', () => {
    expect(getStorableIssues(nest(200_000), { at: '', what: 'x' })[0].code).toBe('too_deep');
  });

  it('finds a NUL or an unpaired surrogate in text and keys, first in document order', () => {
    const value = { ok: 'fine 😀', list: ['a', 'b\u0000c'], later: 'x\u0000' };
    expect(getStorableIssues(value, { at: '', what: 'The body' })).toEqual([
      {
        path: '/list/1',
        code: 'unstorable_text',
        message:
          'The body has a NUL character (\\u0000) in this text, which the database cannot store. Remove it.',
      },
    ]);
    const [key] = getStorableIssues({ a: { 'we\u0000ird': 1 } }, { at: '/d', what: 'The body' });
    expect(key.path).toBe('/d/a');
    expect(key.message).toContain('in the key "we\\u0000ird"');
    const [half] = getStorableIssues({ t: 'half \ud800' }, { at: '', what: 'The body' });
    expect(half).toMatchObject({ path: '/t', code: 'unstorable_text' });
    expect(half.message).toContain('an unpaired UTF-16 surrogate');
  });

  it('reports nesting and text together, or only nesting when told', () => {
    const value = { deep: nest(MAX_VALUE_DEPTH + 5), text: '\u0000' };
    expect(getStorableIssues(value, { at: '', what: 'x' }).map((i) => i.code)).toEqual([
      'too_deep',
      'unstorable_text',
    ]);
    expect(getStorableIssues(value, { at: '', what: 'x', text: false }).map((i) => i.code)).toEqual([
      'too_deep',
    ]);
  });

  it('counts from the value itself with maxDepth, as files and bodies are counted', () => {
    expect(getStorableIssues(nest(MAX_JSON_DEPTH), { at: '', what: 'x', maxDepth: MAX_JSON_DEPTH })).toEqual(
      [],
    );
    expect(MAX_JSON_DEPTH).toBeGreaterThan(MAX_VALUE_DEPTH);
  });
});
