import { describe, expect, it } from 'vitest';
import { buildNodeParameters } from '../workflow/params';
import { createRecord } from './json-value';
import { compileSchema, getArrayNesting, MAX_ARRAY_NESTING } from './schema-validator';
import type { JsonSchema } from './types';

/** A schema whose $ref target holds a default of `depth` arrays nested in each other. */
function withNestedDefault(depth: number): JsonSchema {
  let value: unknown = [1];
  for (let i = 1; i < depth; i++) value = [value];
  return {
    type: 'object',
    $ref: '#/$defs/Root',
    $defs: { Root: { type: 'object', properties: { grid: { type: 'array', default: value } } } },
  };
}

describe('getArrayNesting', () => {
  it('counts the arrays on the deepest path, objects in between or not', () => {
    expect(getArrayNesting({ a: 1 })).toBe(0);
    expect(getArrayNesting([[1], [[2]]])).toBe(3);
    expect(getArrayNesting({ a: [{ b: [{ c: [] }] }] })).toBe(3);
  });
});

describe('compileSchema', () => {
  it('compiles a schema that nests arrays as deep as allowed', () => {
    expect(compileSchema(withNestedDefault(MAX_ARRAY_NESTING)).ok).toBe(true);
  });

  it('refuses a deeper one at once, saying why, instead of taking exponential time in Ajv', () => {
    const started = performance.now();
    const compiled = compileSchema(withNestedDefault(60));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(compiled).toEqual({
      ok: false,
      error: expect.stringContaining(`nests arrays 60 deep`),
    });
  });

  it('leaves a node of such a tool buildable, with the schema marked unusable', () => {
    const started = performance.now();
    const built = buildNodeParameters(
      { name: 'grid_tool', description: '', inputSchema: withNestedDefault(60) },
      { grid: [] },
      { connectedInputs: new Set() },
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(built.problems.map((p) => p.code)).toContain('schema_unusable');
  });
});

describe('validation of members named like Object.prototype members', () => {
  it.each(['__proto__', 'constructor', 'toString'])(
    'finds a required "%s" missing whether the value has a prototype or not',
    (name) => {
      const compiled = compileSchema({
        type: 'object',
        properties: { [name]: { type: 'string' } },
        required: [name],
      });
      if (!compiled.ok) throw new Error(compiled.error);
      expect(compiled.value({})).toBe(false);
      expect(compiled.value(createRecord())).toBe(false);
      expect(compiled.value(createRecord([[name, 'x']]))).toBe(true);
    },
  );
});
