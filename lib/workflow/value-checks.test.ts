import { describe, expect, it } from 'vitest';
import type { JsonSchema, ToolDeclaration } from '../tools/types';
import { buildNodeParameters } from './params';

const none = new Set<string>();

function tool(inputSchema: JsonSchema): ToolDeclaration {
  return { name: 't', description: '', inputSchema: { type: 'object', ...inputSchema } };
}

describe('value checks against schema patterns', () => {
  it('check a catastrophic pattern in linear time and report the mismatch', () => {
    const decl = tool({ properties: { x: { type: 'string', pattern: '^(a+)+$' } }, required: ['x'] });
    const started = performance.now();
    const built = buildNodeParameters(decl, { x: 'a'.repeat(40) + '!' }, { connectedInputs: none });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(built.problems).toEqual([
      {
        severity: 'error',
        code: 'invalid_value',
        param: 'x',
        message: 'Parameter "x" at /x must match pattern "^(a+)+$": change it to match the tool\'s schema.',
      },
    ]);
  });

  it('report a pattern RE2 cannot express on its parameter, with its path, as not checked', () => {
    const decl = tool({
      properties: {
        x: { type: 'string', pattern: '^(a+)+\\1$' },
        y: { type: 'string', maxLength: 1 },
      },
    });
    const started = performance.now();
    const built = buildNodeParameters(
      decl,
      { x: 'a'.repeat(40) + '!', y: 'long' },
      { connectedInputs: none },
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(built.problems).toEqual([
      {
        severity: 'warning',
        code: 'unsupported_pattern',
        param: 'x',
        message:
          'The pattern "^(a+)+\\1$" at /properties/x/pattern of tool "t" uses a backreference "\\1", which Toolflow does not evaluate: only patterns that can be checked in linear time are. Values are not checked against it; rewrite the pattern without it to have them checked.',
      },
      // The rest of the schema is still checked.
      expect.objectContaining({ severity: 'error', code: 'invalid_value', param: 'y' }),
    ]);
  });

  it('report one outside any parameter on the tool, and a schema Ajv refuses as before', () => {
    const decl = tool({
      properties: { n: { $ref: '#/$defs/Name' } },
      $defs: { Name: { type: 'string', pattern: '(?<=a)b' } },
    });
    const built = buildNodeParameters(decl, { n: 'b' }, { connectedInputs: none });
    expect(built.problems).toEqual([
      expect.objectContaining({
        code: 'unsupported_pattern',
        message: expect.stringContaining('at /$defs/Name/pattern of tool "t" uses a lookbehind'),
      }),
    ]);
    expect(built.problems[0]).not.toHaveProperty('param');
  });

  it('say which values were too long to check against a pattern, and check the rest', () => {
    const decl = tool({
      properties: {
        text: { type: 'string', pattern: '^[ab]*a[ab]{200}$' },
        n: { type: 'integer' },
      },
    });
    const started = performance.now();
    const built = buildNodeParameters(decl, { text: 'ab'.repeat(50_000), n: 'x' }, { connectedInputs: none });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(built.problems).toEqual([
      {
        severity: 'warning',
        code: 'pattern_unchecked',
        message:
          'Some values of tool "t" were not checked against the pattern "^[ab]*a[ab]{200}$": checking them would take too long (a very long value, or very many checks at once). Check them by hand.',
      },
      expect.objectContaining({ severity: 'error', code: 'invalid_value', param: 'n' }),
    ]);
  });
});
