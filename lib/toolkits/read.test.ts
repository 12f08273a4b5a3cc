import { describe, expect, it } from 'vitest';
import { MAX_TOOLKIT_TOOLS, readDeclarations } from './read';

describe('readDeclarations', () => {
  it('reads pasted Gemini text and marks the tools as from a file toolkit', () => {
    const text = JSON.stringify({
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
        },
      ],
    });
    const read = readDeclarations({ text }, 'Weather');
    expect(read).toMatchObject({
      ok: true,
      value: {
        format: 'gemini',
        tools: [{ name: 'get_weather', source: { kind: 'file', toolkit: 'Weather' } }],
      },
    });
  });

  it('refuses a file with no tools', () => {
    expect(readDeclarations({ declarations: [] }, 'Empty')).toMatchObject({
      ok: false,
      error: [{ code: 'no_tools' }],
    });
  });

  it('reports where JSON text is broken', () => {
    const read = readDeclarations({ text: '[{"name": "a",}]' }, 'Broken');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error[0].message).toMatch(/line 1/i);
  });

  it('refuses more tools than a toolkit holds, saying how many', () => {
    const many = Array.from({ length: MAX_TOOLKIT_TOOLS + 1 }, (_, i) => ({ name: `t${i}`, parameters: {} }));
    expect(readDeclarations({ declarations: many }, 'Many')).toMatchObject({
      ok: false,
      error: [{ code: 'too_many_tools', message: expect.stringContaining(`${MAX_TOOLKIT_TOOLS + 1} tools`) }],
    });
  });
});
