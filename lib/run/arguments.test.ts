import { describe, expect, it } from 'vitest';
import { buildExport, tool } from './__fixtures__/exports';
import { checkArguments, getArguments, getPortValue, resolveArguments } from './arguments';
import type { ToolCallResult } from './types';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));
const text = (t: string): ToolCallResult => ({ content: [{ type: 'text', text: t }], isError: false });

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

describe('getArguments', () => {
  const tools = [
    tool('count', { path: { type: 'string' } }, { output: { n: { type: 'integer' } } }),
    tool(
      'search',
      { query: { type: 'string' }, limit: { type: 'number' }, page: { type: 'integer' } },
      { required: ['query'] },
    ),
  ];
  const file = buildExport(
    {
      steps: [
        { id: 'c', tool: 'count', args: { path: 'a.txt' } },
        { id: 's', tool: 'search', args: { query: 'x', limit: '{{c.n}}' } },
      ],
    },
    tools,
  );

  it('before the run, leaves fed inputs out and lists them as pending', () => {
    const sent = getArguments(file, file.nodes[1]);
    expect(sent.ok && JSON.stringify(sent.value.args)).toBe('{"query":"x"}');
    expect(sent.ok && [...sent.value.pending]).toEqual(['limit']);
  });

  it('passes an int from a typed output to a float input unchanged', () => {
    const result = { content: [], structuredContent: { n: 7 }, isError: false };
    const r = resolveArguments(file, file.nodes[1], new Map([['c', result]]));
    expect(r.ok && JSON.stringify(r.value)).toBe('{"query":"x","limit":7}');
  });

  it('refuses an edge the typed-wiring rule refuses, before and during the run', () => {
    // An export of a document saved before every road checked the rule: c.n (int) feeds query (str).
    const legacy = copy(file);
    legacy.edges[0] = { ...legacy.edges[0], target_input: 'query' };
    legacy.nodes[1].input_parameters[0] = {
      ...legacy.nodes[1].input_parameters[0],
      origin: 'edge',
      value: '',
    };
    legacy.nodes[1].input_parameters[1] = {
      ...legacy.nodes[1].input_parameters[1],
      origin: 'zero',
      value: 0,
    };
    const error = {
      code: 'type_mismatch',
      path: '/query',
      message: expect.stringContaining('Output "n" is int but input "query" takes str'),
    };
    expect(getArguments(legacy, legacy.nodes[1])).toEqual({ ok: false, error });
    const fed = new Map([['c', { content: [], structuredContent: { n: 7 }, isError: false }]]);
    expect(resolveArguments(legacy, legacy.nodes[1], fed)).toEqual({ ok: false, error });
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
