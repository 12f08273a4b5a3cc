import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createToolAliases } from '../tools/aliases';
import { createChatStreamReader, isCompleteJson } from './chat';

const aliases = createToolAliases([{ name: 'a' }, { name: 'b' }, { name: 'x.y' }]);
type Part = { index: number; id?: string; name?: string; args?: string };
const chunk = (parts: Part[], finish: string | null = null) =>
  ({
    choices: [
      {
        index: 0,
        finish_reason: finish,
        delta: {
          tool_calls: parts.map((p) => ({
            index: p.index,
            ...(p.id ? { id: p.id, type: 'function' } : {}),
            function: { ...(p.name ? { name: p.name } : {}), arguments: p.args ?? '' },
          })),
        },
      },
    ],
  }) as unknown as OpenAI.Chat.ChatCompletionChunk;

describe('createChatStreamReader', () => {
  it('emits a call the moment its arguments are whole JSON', () => {
    const reader = createChatStreamReader(aliases);
    expect(
      reader.push(chunk([{ index: 0, id: 'c0', name: 'a', args: '{"k": ' }])).map((e) => e.type),
    ).toEqual(['tool_call_delta']);
    expect(reader.push(chunk([{ index: 0, args: '1}' }]))).toEqual([
      { type: 'tool_call_delta', key: 'chat:0', name: 'a', argumentsDelta: '1}' },
      { type: 'tool_call', call: { callId: 'c0', name: 'a', arguments: '{"k": 1}' } },
    ]);
  });

  it('holds a complete later call until the earlier one is done, keeping call order', () => {
    const reader = createChatStreamReader(aliases);
    reader.push(chunk([{ index: 0, id: 'c0', name: 'a', args: '{"k": "unfinished' }]));
    const later = reader.push(chunk([{ index: 1, id: 'c1', name: 'b', args: '{}' }]));
    expect(later.filter((e) => e.type === 'tool_call')).toEqual([]);
    const rest = reader.push(chunk([{ index: 0, args: '"}' }]));
    expect(
      rest.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && e.call.callId),
    ).toEqual(['c0', 'c1']);
  });

  it('emits calls that never became JSON at the finish reason, in index order, then ends the turn', () => {
    const reader = createChatStreamReader(aliases);
    reader.push(chunk([{ index: 1, id: 'c1', name: 'b', args: '{"broken"' }]));
    reader.push(chunk([{ index: 0, id: 'c0', name: 'x_y', args: '{bad' }]));
    const end = reader.push(chunk([], 'tool_calls'));
    expect(end).toEqual([
      { type: 'tool_call', call: { callId: 'c0', name: 'x.y', arguments: '{bad' } },
      { type: 'tool_call', call: { callId: 'c1', name: 'b', arguments: '{"broken"' } },
    ]);
    expect(reader.finish()).toEqual([{ type: 'turn_end', finishReason: 'tool_calls' }]);
  });

  it('tolerates servers that repeat the name in every delta', () => {
    const reader = createChatStreamReader(aliases);
    reader.push(chunk([{ index: 0, id: 'c0', name: 'a', args: '{' }]));
    const events = reader.push(chunk([{ index: 0, name: 'a', args: '}' }]));
    expect(events.at(-1)).toEqual({ type: 'tool_call', call: { callId: 'c0', name: 'a', arguments: '{}' } });
  });
});

describe('isCompleteJson', () => {
  it('is true only for a whole JSON object', () => {
    expect(isCompleteJson('{"a": {"b": 1}}')).toBe(true);
    expect(isCompleteJson('{"a": {"b": 1}')).toBe(false);
    expect(isCompleteJson('{"a": "}')).toBe(false);
    expect(isCompleteJson('')).toBe(false);
  });
});
