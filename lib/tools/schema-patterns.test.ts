import { describe, expect, it } from 'vitest';
import { createRecord } from './json-value';
import { withoutUnsupportedPatterns } from './schema-patterns';
import { compileSchema, getUnsupportedPatterns } from './schema-validator';
import type { JsonSchema } from './types';

describe('patterns RE2 cannot express', () => {
  it('are found wherever a schema can hold one, each with its JSON path', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        x: { type: 'string', pattern: '(a)\\1' },
        'a/b': { type: 'string', pattern: '^(?=.*\\d).+$' },
        pattern: { type: 'string', pattern: '^ok$' },
        list: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '(?<!x)y' }] } },
        env: { type: 'object', patternProperties: { '^(?!_)\\w+$': { type: 'string' }, '^_': {} } },
      },
      $defs: { Name: { type: 'string', pattern: '\\p{Emoji}+' } },
    };
    expect(getUnsupportedPatterns(schema)).toEqual([
      { path: '/properties/x/pattern', pattern: '(a)\\1', reason: 'a backreference "\\1"' },
      { path: '/properties/a~1b/pattern', pattern: '^(?=.*\\d).+$', reason: 'a lookahead "(?=…)"' },
      {
        path: '/properties/list/items/anyOf/0/pattern',
        pattern: '(?<!x)y',
        reason: 'a lookbehind "(?<!…)"',
      },
      {
        path: '/properties/env/patternProperties/^(?!_)\\w+$',
        pattern: '^(?!_)\\w+$',
        reason: 'a lookahead "(?!…)"',
      },
      { path: '/$defs/Name/pattern', pattern: '\\p{Emoji}+', reason: 'the Unicode property "\\p{Emoji}"' },
    ]);
  });

  it('leave the schema itself when it has none, and never touch the schema they were found in', () => {
    const plain: JsonSchema = { type: 'object', properties: { x: { type: 'string', pattern: '^a+$' } } };
    expect(withoutUnsupportedPatterns(plain).schema).toBe(plain);
    const schema: JsonSchema = { type: 'object', properties: { x: { type: 'string', pattern: '(a)\\1' } } };
    const text = JSON.stringify(schema);
    const { schema: evaluated } = withoutUnsupportedPatterns(schema);
    expect(evaluated).toEqual({ type: 'object', properties: { x: { type: 'string' } } });
    expect(JSON.stringify(schema)).toBe(text);
  });

  it('are not checked: a value is not held to them, nor to what depends on them', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: {
        x: { type: 'string', pattern: '^(a+)+\\1$', minLength: 2 },
        env: {
          type: 'object',
          patternProperties: { '^(?!_)\\w+$': { type: 'string' }, '^_': { type: 'number' } },
          additionalProperties: false,
        },
      },
    });
    if (!compiled.ok) throw new Error(compiled.error);
    const validate = compiled.value;
    // The other keywords still apply; additionalProperties depended on the dropped pattern.
    expect(validate({ x: 'a'.repeat(40) + '!', env: { name: 1, _n: 2, other: true } })).toBe(true);
    expect(validate({ x: 'a', env: { _n: 'two' } })).toBe(false);
    expect((validate.errors ?? []).map((e) => e.instancePath).sort()).toEqual(['/env/_n', '/x']);
  });

  it('are found in a record without a prototype, members named like Object.prototype members too', () => {
    const properties = createRecord<JsonSchema>();
    properties.__proto__ = { type: 'string', pattern: '(?=a)' };
    expect(getUnsupportedPatterns({ type: 'object', properties })).toEqual([
      { path: '/properties/__proto__/pattern', pattern: '(?=a)', reason: 'a lookahead "(?=…)"' },
    ]);
  });
});
