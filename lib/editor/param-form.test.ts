import { describe, expect, it } from 'vitest';
import { asNodeId, type WorkflowDocument } from '../workflow/types';
import {
  getFormValue,
  isJsonEqual,
  replaceNodeArgs,
  getParamFormSchema,
  isNullableSchema,
  prepareFormSchema,
  previewJson,
} from './param-form';
import { parseArgsText } from './args-text';

const root = {
  type: 'object',
  $defs: { Mode: { type: 'string', enum: ['fast', 'slow'], description: 'How hard to try' } },
  properties: {
    path: { type: 'string', title: 'Path', description: 'Where the file is', format: 'uri' },
    mode: { $ref: '#/$defs/Mode' },
    level: { enum: [1, 2, 3] },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
    tags: { type: ['array', 'null'], items: { type: 'string' } },
  },
  required: ['path'],
};

describe('getParamFormSchema', () => {
  it('drops the title and description the inspector shows above the field', () => {
    expect(getParamFormSchema(root, 'path')).toEqual({ type: 'string', format: 'uri', $defs: root.$defs });
  });

  it('keeps local $refs resolvable by attaching the root $defs', () => {
    const schema = getParamFormSchema(root, 'mode')!;
    expect(schema.$ref).toBe('#/$defs/Mode');
    expect(schema.$defs).toEqual(root.$defs);
  });

  it('gives an untyped enum the type of its first value', () => {
    expect(getParamFormSchema(root, 'level')).toMatchObject({ type: 'integer', enum: [1, 2, 3] });
  });

  it('titles anyOf options by their type so the picker is readable', () => {
    expect(getParamFormSchema(root, 'note')!.anyOf).toEqual([
      { title: 'string', type: 'string' },
      { title: 'null', type: 'null' },
    ]);
  });

  it('is undefined for a parameter the tool does not declare', () => {
    expect(getParamFormSchema(root, 'nope')).toBeUndefined();
  });
});

describe('prepareFormSchema', () => {
  it('titles nested oneOf options by const, and keeps existing titles', () => {
    const prepared = prepareFormSchema({
      type: 'object',
      properties: { unit: { oneOf: [{ const: 'eV' }, { const: 'Ry', title: 'Rydberg' }] } },
    });
    expect(prepared).toEqual({
      type: 'object',
      properties: {
        unit: {
          oneOf: [
            { title: '"eV"', const: 'eV' },
            { const: 'Ry', title: 'Rydberg' },
          ],
        },
      },
    });
  });

  it('drops the dialect marker, which the form validator would reject', () => {
    expect(
      prepareFormSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' }),
    ).toEqual({
      type: 'string',
    });
  });
});

describe('isNullableSchema', () => {
  it('accepts a type list, an anyOf option and OpenAPI nullable', () => {
    expect(isNullableSchema(root.properties.tags, root)).toBe(true);
    expect(isNullableSchema(root.properties.note, root)).toBe(true);
    expect(isNullableSchema({ type: 'string', nullable: true }, root)).toBe(true);
  });

  it('refuses a plain type and follows $ref', () => {
    expect(isNullableSchema(root.properties.path, root)).toBe(false);
    expect(isNullableSchema(root.properties.mode, root)).toBe(false);
  });
});

describe('getFormValue', () => {
  it('shows set and default values', () => {
    expect(getFormValue({ origin: 'arg', value: 'a.cif' })).toBe('a.cif');
    expect(getFormValue({ origin: 'default', value: null })).toBeNull();
  });

  it('shows nothing for a zero-filled guess or an edge-fed input', () => {
    expect(getFormValue({ origin: 'zero', value: '' })).toBeUndefined();
    expect(getFormValue({ origin: 'edge', value: '' })).toBeUndefined();
  });
});

describe('parseArgsText', () => {
  it('reads an object of arguments', () => {
    expect(parseArgsText('{"a": 1, "b": null}')).toEqual({ ok: true, value: { a: 1, b: null } });
  });

  it('names the line and column of a syntax error', () => {
    const result = parseArgsText('{\n  "a": 1,\n  "b": }');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/line 3, column 8/);
  });

  it('refuses JSON that is not an object and says what to do', () => {
    const result = parseArgsText('[1, 2]');
    expect(result).toEqual({
      ok: false,
      message: 'The arguments must be a JSON object of name → value, not an array. Wrap them in { }.',
    });
  });
});

describe('previewJson', () => {
  it('cuts long values with an ellipsis', () => {
    expect(previewJson('x'.repeat(100), 10)).toBe('"xxxxxxxx…');
    expect(previewJson([1, 2])).toBe('[1,2]');
  });
});

describe('isJsonEqual', () => {
  it('ignores key order and undefined keys, and compares arrays by position', () => {
    expect(isJsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(isJsonEqual({ a: 1, x: undefined }, { a: 1 })).toBe(true);
    expect(isJsonEqual([1, 2], [2, 1])).toBe(false);
    expect(isJsonEqual({ a: null }, { a: 0 })).toBe(false);
    expect(isJsonEqual([], {})).toBe(false);
  });
});

describe('replaceNodeArgs', () => {
  const doc: WorkflowDocument = {
    task: '',
    nodes: [
      { id: asNodeId('a'), tool: 't', position: { x: 0, y: 0 }, args: { x: 1 } },
      { id: asNodeId('b'), tool: 't', position: { x: 0, y: 0 }, args: {} },
    ],
    edges: [],
    tools: {},
  };

  it('replaces the args of one node and shares the others', () => {
    const next = replaceNodeArgs(doc, 'a', { y: 2 });
    expect(next.nodes[0].args).toEqual({ y: 2 });
    expect(next.nodes[1]).toBe(doc.nodes[1]);
  });

  it('returns the same document when the args are equal or the node is gone', () => {
    expect(replaceNodeArgs(doc, 'a', { x: 1 })).toBe(doc);
    expect(replaceNodeArgs(doc, 'zz', { x: 1 })).toBe(doc);
  });
});
