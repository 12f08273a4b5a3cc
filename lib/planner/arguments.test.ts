import { describe, expect, it } from 'vitest';
import { parseToolArguments, repairJsonText } from './arguments';

describe('parseToolArguments', () => {
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

  it('repairs single quotes, bare keys and Python literals', () => {
    const result = parseToolArguments("{path: 'it\\'s.cif', relax: True, cell: None}");
    expect(result).toEqual({
      ok: true,
      value: { path: "it's.cif", relax: true, cell: null },
      repairs: ['quoted bare keys', 'converted single-quoted strings', 'replaced Python True/False/None'],
    });
  });

  it('removes prose around the JSON', () => {
    const result = parseToolArguments('Sure! Here are the arguments: {"a": 1} Hope that helps.');
    expect(result).toEqual({
      ok: true,
      value: { a: 1 },
      repairs: ['removed text before the JSON', 'removed text after the JSON'],
    });
  });

  it('closes what a cut-off stream left open', () => {
    expect(parseToolArguments('{"a": {"b": "c')).toEqual({
      ok: true,
      value: { a: { b: 'c' } },
      repairs: ['closed an unterminated string', 'closed brackets left open (the reply looks cut off)'],
    });
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

  it('reports text that no repair can read, with the parser message', () => {
    const result = parseToolArguments('{"a": 1,, "b"}');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^not valid JSON \(/);
  });

  it('leaves apostrophes inside double-quoted strings alone', () => {
    expect(repairJsonText('{"msg": "don\'t stop",}').text).toBe('{"msg": "don\'t stop"}');
  });
});
