import { describe, expect, it } from 'vitest';
import { parseToolArguments, repairJson } from './arguments';

describe('parseToolArguments', () => {
  describe('valid JSON', () => {
    it('reads strict JSON objects with no repairs', () => {
      expect(parseToolArguments('{"a": 1, "b": [true, null]}')).toEqual({
        ok: true,
        value: { a: 1, b: [true, null] },
        repairs: [],
      });
    });

    it('reads empty text as no arguments', () => {
      expect(parseToolArguments('  ')).toEqual({ ok: true, value: {}, repairs: [] });
    });

    it('unwraps double-encoded JSON', () => {
      expect(parseToolArguments(JSON.stringify(JSON.stringify({ a: 1 })))).toEqual({
        ok: true,
        value: { a: 1 },
        repairs: ['unwrapped double-encoded JSON'],
      });
    });

    it('refuses JSON that is not an object', () => {
      expect(parseToolArguments('[1, 2]')).toEqual({
        ok: false,
        error: 'a JSON object was expected, got an array',
      });
      expect(parseToolArguments('42')).toEqual({
        ok: false,
        error: 'a JSON object was expected, got a number',
      });
    });
  });

  describe('repairs', () => {
    it('repairs trailing commas and says so', () => {
      expect(parseToolArguments('{"a": [1, 2,], "b": "x",}')).toEqual({
        ok: true,
        value: { a: [1, 2], b: 'x' },
        repairs: ['removed trailing commas'],
      });
    });

    it('repairs a code fence around the JSON', () => {
      const result = parseToolArguments('```json\n{"path": "a.cif"}\n```');
      expect(result).toEqual({ ok: true, value: { path: 'a.cif' }, repairs: ['removed a code fence'] });
    });

    it('repairs a lone closing fence after the JSON', () => {
      expect(parseToolArguments('{"a": "x"}\n```')).toEqual({
        ok: true,
        value: { a: 'x' },
        repairs: ['removed a code fence'],
      });
    });

    it('repairs single quotes, bare keys and Python literals', () => {
      const result = parseToolArguments("{path: 'it\\'s.cif', relax: True, cell: None}");
      expect(result).toEqual({
        ok: true,
        value: { path: "it's.cif", relax: true, cell: null },
        repairs: ['quoted bare keys', 'converted single-quoted strings', 'replaced Python True/False/None'],
      });
    });

    it('removes prose around the JSON, fenced or not', () => {
      expect(parseToolArguments('Sure! Here are the arguments: {"a": 1} Hope that helps.')).toEqual({
        ok: true,
        value: { a: 1 },
        repairs: ['removed text before the JSON', 'removed text after the JSON'],
      });
      expect(parseToolArguments('Here:\n```json\n{"a": 1}\n```\nDone')).toEqual({
        ok: true,
        value: { a: 1 },
        repairs: ['removed a code fence', 'removed text before the JSON', 'removed text after the JSON'],
      });
    });

    it('removes comments without touching a URL inside a string', () => {
      expect(parseToolArguments('{"url": "https://x.org/a"} // the file')).toEqual({
        ok: true,
        value: { url: 'https://x.org/a' },
        repairs: ['removed comments'],
      });
    });

    it('names a repair it cannot classify as a syntax fix', () => {
      expect(parseToolArguments('{"a": 1 "b": 2}')).toEqual({
        ok: true,
        value: { a: 1, b: 2 },
        repairs: ['fixed the JSON syntax'],
      });
    });

    it('leaves apostrophes inside double-quoted strings alone', () => {
      expect(parseToolArguments('{"msg": "don\'t stop",}')).toEqual({
        ok: true,
        value: { msg: "don't stop" },
        repairs: ['removed trailing commas'],
      });
    });

    it('reports text that no repair can read, with the strict parser message', () => {
      for (const text of ['{"a": 1,, "b"}', 'not json at all']) {
        const result = parseToolArguments(text);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error).toMatch(/^not valid JSON \(.+\)$/);
      }
    });
  });

  describe('cut-off replies', () => {
    it('closes a string cut off mid-value and says where', () => {
      expect(parseToolArguments('{"structure": "Cu.cif", "model": "https://example.org/dp')).toEqual({
        ok: true,
        value: { structure: 'Cu.cif', model: 'https://example.org/dp' },
        repairs: ['closed an unterminated string', 'closed brackets left open (the reply looks cut off)'],
        cut: { path: ['model'], kind: 'value' },
      });
    });

    it('finds the cut inside nested values', () => {
      expect(parseToolArguments('{"a": {"b": "c')).toMatchObject({
        value: { a: { b: 'c' } },
        cut: { path: ['a', 'b'], kind: 'value' },
      });
      expect(parseToolArguments('{"a": ["x", "y')).toMatchObject({ cut: { path: ['a', 1], kind: 'value' } });
      expect(parseToolArguments('{"a": [1, ')).toMatchObject({
        value: { a: [1] },
        cut: { path: ['a'], kind: 'value' },
      });
    });

    it('flags a number or literal that the end may have cut short', () => {
      expect(parseToolArguments('{"n": 12')).toMatchObject({ value: { n: 12 }, cut: { path: ['n'] } });
      expect(parseToolArguments('{"ok": tru')).toMatchObject({ cut: { path: ['ok'], kind: 'value' } });
    });

    it('leaves out a member cut before its value instead of inventing null', () => {
      expect(parseToolArguments('{"a": "x", "b": ')).toMatchObject({
        value: { a: 'x' },
        cut: { path: ['b'], kind: 'missing' },
      });
      expect(parseToolArguments('{"a": "x", "bo')).toMatchObject({
        value: { a: 'x' },
        cut: { path: ['bo'], kind: 'missing' },
      });
      expect(parseToolArguments('{"a": {"b"')).toMatchObject({
        value: { a: {} },
        cut: { path: ['a', 'b'], kind: 'missing' },
      });
    });

    it('names no cut when the reply ended between complete members', () => {
      const result = parseToolArguments('{"a": "x", ');
      expect(result).toEqual({
        ok: true,
        value: { a: 'x' },
        repairs: ['closed brackets left open (the reply looks cut off)'],
      });
    });

    it('keeps a member named __proto__ as data when removing a cut one', () => {
      const result = parseToolArguments('{"__proto__": {"x": 1}, "b": ');
      expect(result.ok && Object.keys(result.value)).toEqual(['__proto__']);
      expect(result.ok && Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    });
  });
});

describe('repairJson', () => {
  it('reads any JSON value, strict first', () => {
    expect(repairJson('[1]')).toEqual({ ok: true, value: [1], repairs: [] });
    expect(repairJson("['a',]")).toEqual({
      ok: true,
      value: ['a'],
      repairs: ['converted single-quoted strings', 'removed trailing commas'],
    });
  });
});
