import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLinearPattern } from './linear-pattern';
import { translatePattern } from './pattern-syntax';

/** The linear matcher of a pattern that RE2 can express. */
function linear(pattern: string, flags?: string) {
  const compiled = compileLinearPattern(pattern, flags);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.reason}`);
  return compiled.matcher;
}

describe('translatePattern', () => {
  /** The RE2 text a pattern becomes. */
  const source = (pattern: string) => {
    const translated = translatePattern(pattern);
    if (!translated.ok) throw new Error(translated.reason);
    return translated.source;
  };

  it('writes out the ECMAScript meaning where RE2 spells or means it differently', () => {
    expect(source('\\u00e9\\u{1F600}\\x41\\cJ\\0')).toBe('\\x{e9}\\x{1F600}\\x{41}\\x{a}\\x{0}');
    expect(source('\\uD83D\\uDE00')).toBe('\\x{1f600}');
    expect(source('(?<year>\\d{4})(?:-)')).toBe('(\\d{4})(?:-)');
    expect(source('[[\\b]')).toBe('[\\[\\x{8}]');
    expect(source('\\p{Letter}\\P{Script=Greek}\\p{gc=Lu}')).toBe('\\p{L}\\P{Greek}\\p{Lu}');
  });

  it('estimates the program a pattern compiles to, counted repetitions written out', () => {
    const size = (pattern: string) => {
      const translated = translatePattern(pattern);
      return translated.ok ? translated.size : Number.NaN;
    };
    expect(size('abc')).toBe(3);
    expect(size('a{1000}')).toBe(1000);
    expect(size('(?:ab){3}c')).toBe(7);
    expect(size('(?:a{10}){10}')).toBe(100);
    expect(size('[a-z]{2}\\d')).toBe(24);
    expect(size('a+b*c?|d')).toBe(4);
    expect(size('a{2,}')).toBe(3);
    expect(size('x{0}')).toBe(0);
  });

  it('names the construct RE2 cannot express', () => {
    expect(translatePattern('(a)\\1')).toEqual({ ok: false, reason: 'a backreference "\\1"' });
    expect(translatePattern('(?<x>a)\\k<x>')).toEqual({ ok: false, reason: 'a backreference "\\k<x>"' });
    expect(translatePattern('a(?=b)')).toEqual({ ok: false, reason: 'a lookahead "(?=…)"' });
    expect(translatePattern('a(?!b)')).toEqual({ ok: false, reason: 'a lookahead "(?!…)"' });
    expect(translatePattern('(?<=a)b')).toEqual({ ok: false, reason: 'a lookbehind "(?<=…)"' });
    expect(translatePattern('(?<!a)b')).toEqual({ ok: false, reason: 'a lookbehind "(?<!…)"' });
    expect(translatePattern('\\p{Emoji}')).toEqual({
      ok: false,
      reason: 'the Unicode property "\\p{Emoji}"',
    });
    expect(translatePattern('\\p{scx=Greek}')).toEqual({
      ok: false,
      reason: 'the Unicode property "\\p{scx=Greek}"',
    });
  });
});

describe('linear patterns mean what ECMAScript patterns mean', () => {
  it.each([
    // Patterns seen in MCP servers' schemas: identifiers, emails, dates, semver, URLs.
    ['^[a-zA-Z0-9_-]+$', ['get_user-2', 'a b', '', 'é']],
    ['^[\\w.+-]+@[\\w-]+\\.[\\w.-]+$', ['a.b+c@x-y.org', 'bad@', '@x.org']],
    ['^\\d{4}-\\d{2}-\\d{2}$', ['2024-01-31', '2024-1-31', '2024-01-31\n']],
    [
      '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
      ['2024-01-31T10:00:00Z', '2024-01-31T10:00:00.5+02:00', '2024-01-31 10:00'],
    ],
    [
      '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
      ['1.2.3', '1.2.3-rc.1+build.5', '01.2.3', '1.2'],
    ],
    ['^https?://[^\\s/$.?#].[^\\s]*$', ['https://example.org/a?b', 'http://ex ample.org', 'ftp://x']],
    [
      '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
      ['123e4567-e89b-12d3-a456-426614174000', 'x'],
    ],
    ['^\\/api\\/v[0-9]+$', ['/api/v2', '/api/v']],
    // Unicode classes, white space, the dot, anchors.
    ['^\\p{L}+$', ['héllo', 'Ωμέγα', 'abc1', '']],
    ['^\\p{Lu}\\p{Ll}*$', ['Élan', 'élan']],
    ['^\\p{Script=Greek}+$', ['Ωμέγα', 'omega']],
    ['^\\P{L}+$', ['123 !', 'a1']],
    ['^\\s+$', ['\u00a0\u2028\ufeff \t\v', 'x ']],
    ['^[\\S]+$', ['abc', 'a\u00a0b', 'a\u3000b']],
    ['^[^\\s]+$', ['abc', 'a\u2029b']],
    ['^.$', ['\n', '\r', '\u2028', 'x', '😀']],
    ['^[^]$', ['\n', 'x']],
    ['^\\u{1F600}+$', ['😀😀', '😁']],
    ['^[😀-😂]$', ['😁', '😃']],
    ['a\\b', ['a b', 'ab']],
    ['^$', ['', '\n']],
    ['abc', ['xxabcxx', 'ab']],
    ['^\\p{ASCII}+$', ['abc', 'é']],
  ])('%s', (pattern, values) => {
    const native = new RegExp(pattern, 'u');
    const matcher = linear(pattern);
    for (const value of values) expect([value, matcher.test(value)]).toEqual([value, native.test(value)]);
  });

  it('honours the i, m and s flags', () => {
    expect(linear('^abc$', 'ui').test('ABC')).toBe(true);
    expect(linear('^b$', 'um').test('a\nb\nc')).toBe(true);
    expect(linear('^a.b$', 'us').test('a\nb')).toBe(true);
    expect(linear('^a.b$', 'u').test('a\nb')).toBe(false);
  });

  it('throws as RegExp does for a pattern that is not valid ECMAScript', () => {
    expect(() => compileLinearPattern('(a')).toThrow(SyntaxError);
    expect(() => compileLinearPattern('a{2,1}')).toThrow(SyntaxError);
    // Valid RE2, not ECMAScript: refused as before, not given RE2's meaning.
    expect(() => compileLinearPattern('(?i)a')).toThrow(SyntaxError);
    expect(() => compileLinearPattern('\\Z')).toThrow(SyntaxError);
  });

  /** Random small patterns over a few tricky characters, compared with V8 on short values. */
  it('agrees with V8 on random patterns and values', () => {
    const chars = ['a', 'b', ' ', '\u00a0', '\n', 'é', 'Ω', '1', '😀'];
    const atom = fc.constantFrom(
      ...['a', 'b', '.', '\\s', '\\S', '\\d', '\\w', '\\W', '[ab]', '[^a]', '[\\s1]', '[\\Sb]', '\\p{L}'],
      ...['\\P{L}', '\\p{Lu}', '\\u0061', '\\u{e9}', '\\x62', '[^]', '\\b', '\\B', '^', '$', '😀', '[é-Ω]'],
    );
    const pattern = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        atom,
        fc.tuple(tie('node'), tie('node')).map(([x, y]) => x + y),
        fc.tuple(tie('node'), tie('node')).map(([x, y]) => `${x}|${y}`),
        fc.tuple(tie('node'), fc.constantFrom('(', '(?:', '(?<n>')).map(([x, open]) => `${open}${x})`),
        fc
          .tuple(tie('node'), fc.constantFrom('*', '+', '?', '{0,2}', '{2}', '*?', '+?'))
          .map(([x, q]) => `(?:${x})${q}`),
      ),
    })).node;
    const value = fc.array(fc.constantFrom(...chars), { maxLength: 8 }).map((c) => c.join(''));
    fc.assert(
      fc.property(pattern, fc.array(value, { minLength: 1, maxLength: 6 }), (source, values) => {
        let native: RegExp;
        try {
          native = new RegExp(source, 'u');
        } catch {
          return; // Two named groups called n, and the like.
        }
        const matcher = linear(source);
        for (const v of values) expect([source, v, matcher.test(v)]).toEqual([source, v, native.test(v)]);
      }),
      { numRuns: 400 },
    );
  });
});
