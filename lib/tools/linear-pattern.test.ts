import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHECK_LIMIT,
  collectPatternSkips,
  compileLinearPattern,
  getCheckCost,
  linearRegExp,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_SIZE,
  RUN_LIMIT_MS,
} from './linear-pattern';
import { CATASTROPHIC_PATTERNS as CATASTROPHIC } from '../../tests/fixtures/catastrophic-patterns';
import { compileSchema } from './schema-validator';

/** Well below a backtracking engine on these values (years), well above a linear check (ms). */
const CHECK_BOUND_MS = 250;

function matcherOf(pattern: string) {
  const compiled = compileLinearPattern(pattern);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.matcher;
}

describe('linear patterns', () => {
  it('check every catastrophic pattern against long values within a time bound', async () => {
    const value = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('a', 'x', '1', 'ab', 'a '),
          fc.integer({ min: 20, max: 20_000 }),
          fc.constantFrom('!', 'b', ' ', '', '@x.'),
        )
        .map(([unit, n, end]) => unit.repeat(n) + end),
      fc
        .array(fc.constantFrom('a', 'b', 'x', ' ', '1', '@', '.', 'A'), { minLength: 1, maxLength: 5_000 })
        .map((c) => c.join('')),
    );
    // Each run is its own task (asyncProperty), as requests are: the run budget restarts.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CATASTROPHIC), value, async (pattern, v) => {
        const matcher = matcherOf(pattern);
        const started = performance.now();
        const { value: matched, skipped } = collectPatternSkips(() => matcher.match(v));
        const ms = performance.now() - started;
        expect(ms).toBeLessThan(CHECK_BOUND_MS);
        // Evaluated unless the check would cost more than one check may.
        const tooLong = getCheckCost(matcher.size, v.length) > CHECK_LIMIT;
        expect(skipped).toEqual(tooLong ? [pattern] : []);
        expect(typeof matched).toBe(tooLong ? 'undefined' : 'boolean');
      }),
      { numRuns: 150 },
    );
  });

  it('give the answer a backtracking engine gives, where it can give one', () => {
    for (const pattern of CATASTROPHIC) {
      const native = new RegExp(pattern, 'u');
      const matcher = matcherOf(pattern);
      for (const v of ['aaaa', 'aaab', 'ab@x.com', 'xxy', '12.', 'Abc aBcd', 'ab'.repeat(11) + 'a'])
        expect([pattern, v, matcher.test(v)]).toEqual([pattern, v, native.test(v)]);
    }
  });

  it('skip a check that would cost more than one check may, and say so', () => {
    const matcher = matcherOf('^[ab]*a[ab]{200}$');
    const long = 'ab'.repeat(20_000);
    const started = performance.now();
    const { value, skipped } = collectPatternSkips(() => [matcher.match(long), matcher.test(long)]);
    expect(performance.now() - started).toBeLessThan(50);
    expect(value).toEqual([undefined, true]);
    expect(skipped).toEqual(['^[ab]*a[ab]{200}$']);
    // A short value is still checked.
    expect(collectPatternSkips(() => matcher.match('ab')).value).toBe(false);
    expect(getCheckCost(201, long.length)).toBeGreaterThan(CHECK_LIMIT);
  });

  it('stop checking once a synchronous run has spent its pattern time, until the run ends', async () => {
    const matcher = matcherOf('^[ab]*a[ab]{50}$');
    // Each check of this value costs about a third of CHECK_LIMIT: tens of milliseconds.
    const value = 'ab'.repeat(10_000) + 'b';
    const started = performance.now();
    let checks = 0;
    const { skipped } = collectPatternSkips(() => {
      while (matcher.match(value) !== undefined) checks++;
    });
    const ms = performance.now() - started;
    expect(checks).toBeGreaterThan(1);
    expect(skipped).toEqual(['^[ab]*a[ab]{50}$']);
    expect(ms).toBeGreaterThanOrEqual(RUN_LIMIT_MS);
    expect(ms).toBeLessThan(RUN_LIMIT_MS + 2 * CHECK_BOUND_MS);
    // The next run (after a microtask checkpoint) checks again.
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(matcher.match('ab')).toBe(false);
  });

  it('do not compile a pattern too long, or too large once its repetitions are written out', () => {
    const started = performance.now();
    expect(compileLinearPattern('\\p{L}'.repeat(100_000))).toEqual({
      ok: false,
      reason: `a length of 500000 characters (Toolflow checks patterns of at most ${MAX_PATTERN_LENGTH})`,
    });
    expect(compileLinearPattern('a{1000}'.repeat(11))).toEqual({
      ok: false,
      reason: `a program too large to check quickly (about 11000 steps once its counted repetitions are written out; at most ${MAX_PATTERN_SIZE})`,
    });
    expect(performance.now() - started).toBeLessThan(CHECK_BOUND_MS);
    // The largest ones allowed compile in a bounded time (about 150 ms here, under load).
    for (const pattern of ['a{1000}'.repeat(9), '\\P{L}'.repeat(999), '[\\p{L}\\p{N}\\P{Lu}]'.repeat(250)]) {
      const before = performance.now();
      expect(compileLinearPattern(pattern).ok).toBe(true);
      expect(performance.now() - before).toBeLessThan(1_000);
    }
  });

  it('compile no new pattern once a run has spent its pattern time, and compile it in the next', async () => {
    const busy = matcherOf('^[ab]*a[ab]{50}$');
    const value = 'ab'.repeat(10_000) + 'b';
    const { value: late, skipped } = collectPatternSkips(() => {
      while (busy.match(value) !== undefined);
      const fresh = compileLinearPattern('^fresh-[0-9]+$');
      return fresh.ok ? fresh.matcher.match('fresh-1') : 'unsupported';
    });
    expect(late).toBeUndefined();
    expect(skipped).toEqual(['^[ab]*a[ab]{50}$', '^fresh-[0-9]+$']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(matcherOf('^fresh-[0-9]+$').match('fresh-1')).toBe(true);
  });

  it('pass every value through a pattern RE2 cannot express, without evaluating it', () => {
    expect(compileLinearPattern('^(a+)+\\1$')).toEqual({ ok: false, reason: 'a backreference "\\1"' });
    const engine = linearRegExp('^(a+)+\\1$', 'u');
    const started = performance.now();
    expect(engine.test('a'.repeat(50) + '!')).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('name each pattern for Ajv by its own text (Ajv shares compiled patterns by that key)', () => {
    expect(String(linearRegExp('^a$', 'u'))).toBe('/^a$/u');
    expect(String(linearRegExp('^b$', 'u'))).toBe('/^b$/u');
    expect(String(linearRegExp('(?=a)', 'u'))).toBe('/(?=a)/u');
  });
});

describe('schemas compiled with the linear engine', () => {
  it('check pattern, patternProperties keys and nested patterns within a time bound', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: {
        x: { type: 'string', pattern: '^(a+)+$' },
        list: { type: 'array', items: { type: 'string', pattern: '(a|aa)+$' } },
        env: {
          type: 'object',
          patternProperties: { '^(\\w+\\s?)*$': { type: 'number' } },
          additionalProperties: false,
        },
      },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    const bad = 'a'.repeat(5_000) + '!';
    const started = performance.now();
    const valid = compiled.value({
      x: bad,
      list: [bad, bad, 'aaa'],
      env: { [`${'ab '.repeat(3_000)}!`]: 1, ok: 'x' },
    });
    expect(performance.now() - started).toBeLessThan(CHECK_BOUND_MS);
    expect(valid).toBe(false);
    expect((compiled.value.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([
      '/env additionalProperties',
      '/env/ok type',
      '/list/0 pattern',
      '/list/1 pattern',
      '/x pattern',
    ]);
  });

  it('keep no validator built while the run had no time left for its patterns', async () => {
    const busy = matcherOf('^[ab]*a[ab]{50}$');
    const value = 'ab'.repeat(10_000) + 'b';
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^late-[0-9]+$' } } };
    const early = collectPatternSkips(() => {
      while (busy.match(value) !== undefined);
      const compiled = compileSchema(schema);
      return compiled.ok && compiled.value({ code: 'x' });
    });
    // Not checked, and said so.
    expect(early).toEqual({ value: true, skipped: ['^[ab]*a[ab]{50}$', '^late-[0-9]+$'] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const later = compileSchema(schema);
    expect(later.ok && later.value({ code: 'x' })).toBe(false);
  });
});
