import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getJsonDepth, getLineColumn, MAX_JSON_DEPTH, parseJsonText } from './json-text';

function errorMessage(text: string): string {
  const result = parseJsonText(text);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to be invalid`);
  expect(result.error).toHaveLength(1);
  expect(result.error[0]).toMatchObject({ path: '', code: 'bad_json' });
  return result.error[0].message;
}

describe('parseJsonText', () => {
  describe('parses valid JSON', () => {
    it('returns the value JSON.parse gives', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const text = JSON.stringify(value, null, 2);
          const result = parseJsonText(text);
          expect(result).toEqual({ ok: true, value: JSON.parse(text) });
        }),
      );
    });

    it('ignores a leading byte-order mark', () => {
      expect(parseJsonText('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    });
  });

  describe('locates syntax errors', () => {
    it.each([
      ['{"a": 1,}', 'line 1, column 9: trailing comma before "}"'],
      ['[1, 2,]', 'line 1, column 7: trailing comma before "]"'],
      ['{\n  "a": 1\n  "b": 2\n}', 'line 3, column 3: unexpected "\\""; expected "," or "}" in an object'],
      ["{'a': 1}", 'line 1, column 2: unexpected "\'"; expected a property name in double quotes'],
      ['["a]', 'line 1, column 2: unterminated string'],
      ['', 'line 1, column 1: the text is empty'],
      ['   \n  ', 'line 2, column 3: the text is empty'],
      ['{"a": tru}', 'line 1, column 7: unexpected "t"; expected a value'],
      ['{"a": 01}', 'line 1, column 8: unexpected "1"; expected "," or "}"'],
      ['{"a": "x\ny"}', 'line 1, column 9: unescaped control character'],
      ['{"a": "\\q"}', 'line 1, column 8: invalid escape sequence'],
      ['{"a": 1} x', 'line 1, column 10: unexpected "x" after the end of the JSON value'],
      ['[1, -]', 'line 1, column 5: invalid number'],
      ['{"a" 1}', 'line 1, column 6: unexpected "1"; expected ":"'],
      ['[1 2]', 'line 1, column 4: unexpected "2"; expected "," or "]"'],
      ['{"a": [1, 2}', 'line 1, column 12: unexpected "}"; expected "," or "]"'],
      ['{"a": 1', 'line 1, column 8: unexpected end of text; expected "," or "}"'],
    ])('%j → %s', (text, expected) => {
      const message = errorMessage(text);
      expect(message.startsWith(`Invalid JSON at ${expected}`), message).toBe(true);
      expect(message).toMatch(/Fix the file so it is valid JSON\.$/);
    });

    it('reports an error for every text JSON.parse rejects', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 30 }), (text) => {
          let valid = true;
          try {
            JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
          } catch {
            valid = false;
          }
          expect(parseJsonText(text).ok).toBe(valid);
        }),
        { numRuns: 2000 },
      );
    });
  });
});

describe('getLineColumn', () => {
  it('counts lines from 1 and columns from 1', () => {
    expect(getLineColumn('ab\ncd\n', 0)).toEqual({ line: 1, column: 1 });
    expect(getLineColumn('ab\ncd\n', 4)).toEqual({ line: 2, column: 2 });
    expect(getLineColumn('ab\ncd\n', 6)).toEqual({ line: 3, column: 1 });
  });
});

describe('parseJsonText on hostile text', () => {
  it('refuses text nested deeper than the limit, naming the depth and where the limit is crossed', () => {
    const text = '{"a":'.repeat(1000) + '1' + '}'.repeat(1000);
    const result = parseJsonText(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toEqual([
      {
        path: '',
        code: 'too_deep',
        message: `The JSON is nested 1000 levels deep (level ${MAX_JSON_DEPTH + 1} starts at line 1, column ${5 * MAX_JSON_DEPTH + 1}); Toolflow reads at most ${MAX_JSON_DEPTH} levels of arrays and objects. Flatten the schema or value.`,
      },
    ]);
  });

  it('reads text nested exactly to the limit, and is not fooled by brackets inside strings', () => {
    const text = '['.repeat(MAX_JSON_DEPTH) + '"[[[{{{"' + ']'.repeat(MAX_JSON_DEPTH);
    expect(parseJsonText(text).ok).toBe(true);
    expect(getJsonDepth(JSON.parse(text))).toBe(MAX_JSON_DEPTH);
  });

  it('says what is wrong with comments, single-quoted values and \\u escapes', () => {
    expect(errorMessage('{"a": /* c */ 1}')).toContain('line 1, column 7: comments are not allowed in JSON');
    expect(errorMessage('{"a": \'x\'}')).toContain('line 1, column 7: strings must use double quotes');
    expect(errorMessage('{"a": "\\u12"}')).toContain('line 1, column 8: invalid \\u escape');
    expect(errorMessage('{} {}')).toContain(
      'line 1, column 4: unexpected "{" after the end of the JSON value',
    );
  });
});

describe('getJsonDepth', () => {
  it('counts nested arrays and objects without recursion', () => {
    expect(getJsonDepth(1)).toBe(0);
    expect(getJsonDepth({ a: [1, { b: {} }] })).toBe(4);
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(getJsonDepth(deep)).toBe(100_000);
  });
});
