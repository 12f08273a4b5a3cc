import { describe, expect, it } from 'vitest';
import { createToolCallScanner, parseToolCallText } from './text-protocol';

describe('parseToolCallText', () => {
  it('reads several blocks in prose', () => {
    const text =
      'I will optimise first.\n<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>\nthen\n<tool_call>{"name": "b", "arguments": {}}</tool_call> done';
    expect(parseToolCallText(text)).toEqual([
      { ok: true, name: 'a', arguments: '{"x":1}', raw: '{"name": "a", "arguments": {"x": 1}}', repairs: [] },
      { ok: true, name: 'b', arguments: '{}', raw: '{"name": "b", "arguments": {}}', repairs: [] },
    ]);
  });

  it('reads a block whose JSON sits in a code fence, with the repair reported', () => {
    const [call] = parseToolCallText(
      '<tool_call>\n```json\n{"name": "a", "arguments": {"x": 1}}\n```\n</tool_call>',
    );
    expect(call).toMatchObject({
      ok: true,
      name: 'a',
      arguments: '{"x":1}',
      repairs: ['removed a code fence'],
    });
  });

  it("accepts the tool_name/arguments shape and OpenAI's function wrapper", () => {
    expect(
      parseToolCallText(
        '<tool_call>{"id": "call_001", "tool_name": "read", "arguments": {"f": "t.xlsx"}}</tool_call>',
      )[0],
    ).toMatchObject({ ok: true, name: 'read', arguments: '{"f":"t.xlsx"}' });
    expect(
      parseToolCallText('<TOOL_CALL>{"function": {"name": "w", "arguments": "{\\"a\\": 1}"}}</TOOL_CALL>')[0],
    ).toMatchObject({ ok: true, name: 'w', arguments: '{"a": 1}' });
  });

  it('keeps the raw arguments of a block that is not JSON but names a tool', () => {
    expect(parseToolCallText('<tool_call>{"name": "a", "arguments": {"x": 1,, }}</tool_call>')[0]).toEqual({
      ok: true,
      name: 'a',
      arguments: '{"x": 1,, }',
      raw: '{"name": "a", "arguments": {"x": 1,, }}',
      repairs: [],
    });
  });

  it('reports a block that names no tool', () => {
    expect(parseToolCallText('<tool_call>{"arguments": {}}</tool_call>')[0]).toMatchObject({
      ok: false,
      error: 'the <tool_call> block has no "name"',
    });
    expect(parseToolCallText('<tool_call>   </tool_call>')[0]).toMatchObject({
      ok: false,
      error: 'the <tool_call> block is empty',
    });
  });

  it('reads an unclosed last block at the end of the reply', () => {
    expect(parseToolCallText('ok <tool_call>{"name": "a", "arguments": {"x": 2}}')).toMatchObject([
      { ok: true, name: 'a', arguments: '{"x":2}' },
    ]);
  });

  it('falls back to fenced JSON calls when the reply has no tags', () => {
    const text =
      'Here:\n```json\n{"name": "a", "arguments": {"x": 1}}\n```\nand some code:\n```js\nconsole.log(1)\n```';
    expect(parseToolCallText(text)).toMatchObject([{ ok: true, name: 'a', arguments: '{"x":1}' }]);
  });

  it('finds nothing in plain prose', () => {
    expect(parseToolCallText('All done, the workflow is complete.')).toEqual([]);
  });
});

describe('createToolCallScanner', () => {
  it('returns each block as soon as it closes, across arbitrary chunk boundaries', () => {
    const text =
      'x<tool_call>{"name": "a", "arguments": {}}</tool_call>y<tool_call>{"name": "b", "arguments": {}}</tool_call>';
    for (const size of [1, 3, 7, 1000]) {
      const scanner = createToolCallScanner();
      const seen: string[] = [];
      for (let i = 0; i < text.length; i += size) {
        for (const call of scanner.push(text.slice(i, i + size)))
          if (call.ok) seen.push(`${call.name}@${Math.min(i + size, text.length)}`);
      }
      expect(scanner.finish()).toEqual([]);
      const firstEnd = text.indexOf('</tool_call>') + '</tool_call>'.length;
      expect(seen.map((s) => s.split('@')[0])).toEqual(['a', 'b']);
      // The first block is reported by the chunk that completes it, not at the end.
      expect(Number(seen[0].split('@')[1])).toBeLessThan(firstEnd + size);
    }
  });
});
