import { describe, expect, it } from 'vitest';
import { buildExport, tool } from './__fixtures__/exports';
import { checkArguments, convertValue, getPortValue, resolveArguments } from './arguments';
import type { ToolCallResult } from './types';

const text = (t: string): ToolCallResult => ({ content: [{ type: 'text', text: t }], isError: false });

describe('convertValue', () => {
  it.each([
    ['str', 'abc', 'abc'],
    ['str', 42, '42'],
    ['str', true, 'true'],
    ['str', { a: [1, 'x'] }, '{"a":[1,"x"]}'],
    ['str', null, 'null'],
    ['int', 7, 7],
    ['int', ' -12 ', -12],
    ['float', '2.5', 2.5],
    ['float', 3, 3],
    ['bool', 'TRUE', true],
    ['bool', false, false],
    ['list', '[1,2]', [1, 2]],
    ['list', [3], [3]],
    ['dict', '{"k":1}', { k: 1 }],
    ['any', { x: 1 }, { x: 1 }],
  ] as const)('turns a %s input fed %j into %j', (type, value, expected) => {
    expect(convertValue(value, type)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['int', 2.5],
    ['int', 'twelve'],
    ['float', ''],
    ['bool', 'yes'],
    ['list', '{"a":1}'],
    ['list', 'not json'],
    ['dict', [1]],
    ['dict', 5],
  ] as const)('refuses to guess a %s from %j', (type, value) => {
    const result = convertValue(value, type);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(`into ${type}`);
  });
});

describe('getPortValue', () => {
  const withOutput = { output_schema: { type: 'object', properties: { entities: { type: 'array' } } } };
  it('reads structuredContent[port] for a port of the output schema', () => {
    const r = { content: [], structuredContent: { entities: [1] }, isError: false };
    expect(getPortValue(r, 'entities', withOutput as never, 's')).toEqual({ ok: true, value: [1] });
  });
  it('fails when the structured content lacks the port', () => {
    const r = getPortValue(text('x'), 'entities', { output_schema: {} } as never, 's');
    expect(r).toMatchObject({ ok: false, error: { code: 'no_value' } });
  });
  it('gives the result port the structured content when there is some, else the text', () => {
    expect(
      getPortValue({ content: [], structuredContent: { a: 1 }, isError: false }, 'result', undefined, 's'),
    ).toEqual({
      ok: true,
      value: { a: 1 },
    });
    const two = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: 'x' },
        { type: 'text', text: 'b' },
      ],
      isError: false,
    };
    expect(getPortValue(two, 'result', undefined, 's')).toEqual({ ok: true, value: 'a\nb' });
    expect(
      getPortValue({ content: [{ type: 'image', data: '' }], isError: false }, 'result', undefined, 's').ok,
    ).toBe(false);
  });
});

describe('resolveArguments', () => {
  const tools = [
    tool('write', { path: { type: 'string' }, content: { type: 'string' } }),
    tool(
      'read',
      { path: { type: 'string' }, head: { type: 'integer' }, executor: { type: 'string' } },
      { required: ['path'] },
    ),
  ];
  const file = buildExport(
    {
      steps: [
        { id: 'w', tool: 'write', args: { path: 'a.txt', content: 'hi' } },
        { id: 'r', tool: 'read', args: { path: '{{w.result}}' } },
      ],
    },
    tools,
  );

  it('sends configured values in declaration order and leaves out system parameters and unchosen zero values', () => {
    const w = resolveArguments(file, file.nodes[0], new Map());
    expect(w.ok && JSON.stringify(w.value)).toBe('{"path":"a.txt","content":"hi"}');
    const r = resolveArguments(file, file.nodes[1], new Map([['w', text('/tmp/a.txt')]]));
    expect(r.ok && JSON.stringify(r.value)).toBe('{"path":"/tmp/a.txt"}');
  });

  it('names the input and the source when a fed value cannot be converted', () => {
    const f = buildExport(
      {
        steps: [
          { id: 'a', tool: 'write', args: { path: 'p', content: 'c' } },
          { id: 'b', tool: 'read', args: { path: 'x', head: '{{a.result}}' } },
        ],
      },
      tools,
    );
    const r = resolveArguments(f, f.nodes[1], new Map([['a', text('ten')]]));
    expect(r).toMatchObject({ ok: false, error: { code: 'cannot_convert', path: '/head' } });
    if (!r.ok) expect(r.error.message).toContain('a.result');
  });

  it('refuses a required input nobody set', () => {
    const f = buildExport({ steps: [{ id: 'a', tool: 'write', args: { path: 'p' } }] }, tools);
    expect(resolveArguments(f, f.nodes[0], new Map())).toMatchObject({
      ok: false,
      error: { code: 'missing_required', path: '/content' },
    });
  });
});

describe('checkArguments', () => {
  const t = {
    name: 'create',
    hash: '',
    description: '',
    input_schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        },
      },
      required: ['items'],
    },
  };
  it('passes valid arguments', () => {
    expect(checkArguments(t, { items: [{ name: 'Alice' }] })).toEqual({ ok: true, value: true });
  });
  it('names the failing value and its path', () => {
    const r = checkArguments(t, { items: [{ name: 5 }] });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_arguments', path: '/items/0/name' } });
    if (!r.ok) expect(r.error.message).toContain('"items/0/name" (value 5) must be string');
  });
  it('ignores inputs whose values are not known yet', () => {
    expect(checkArguments(t, {}, new Set(['items'])).ok).toBe(true);
  });
});
