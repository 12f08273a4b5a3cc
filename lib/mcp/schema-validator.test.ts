import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { describe, expect, it } from 'vitest';
import { checkToolSchemas, createDialectAwareValidator } from './schema-validator';

const pair2020 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } },
};
const tuple07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
  },
};

describe('createDialectAwareValidator', () => {
  it('applies 2020-12 rules to a 2020-12 schema', () => {
    const validate = createDialectAwareValidator().getValidator(pair2020 as JsonSchemaType);
    expect(validate({ pair: ['a', 1] })).toMatchObject({ valid: true });
    expect(validate({ pair: [1, 1] })).toMatchObject({
      valid: false,
      errorMessage: expect.stringContaining('/pair/0'),
    });
  });

  it('applies draft-07 rules to a draft-07 schema', () => {
    const validate = createDialectAwareValidator().getValidator(tuple07 as JsonSchemaType);
    expect(validate({ tuple: ['a', 1] })).toMatchObject({ valid: true });
    expect(validate({ tuple: ['a', 1, 'extra'] })).toMatchObject({ valid: false });
  });

  it('gives a validator that explains, instead of throwing, for a schema Ajv refuses', () => {
    const validate = createDialectAwareValidator().getValidator({
      type: 'object',
      properties: { a: { type: 'no-such-type' } },
    } as never);
    expect(validate({})).toMatchObject({
      valid: false,
      errorMessage: expect.stringContaining('The schema cannot be used'),
    });
  });
});

describe('checkToolSchemas', () => {
  it('reports each dialect and locates schemas that do not compile', () => {
    const { reports, issues } = checkToolSchemas([
      { name: 'a', description: '', inputSchema: pair2020, outputSchema: tuple07 },
      { name: 'b', description: '', inputSchema: { type: 'object', properties: { x: { type: 'nope' } } } },
    ]);
    expect(reports).toEqual([
      { name: 'a', inputDialect: '2020-12', outputDialect: 'draft-07' },
      { name: 'b', inputDialect: 'draft-07' },
    ]);
    expect(issues).toMatchObject([{ path: '/1/inputSchema', code: 'bad_schema' }]);
  });
});

describe('schema patterns from an MCP server', () => {
  it('are checked in linear time by the validator the SDK is given', () => {
    const validate = createDialectAwareValidator().getValidator({
      type: 'object',
      properties: { x: { type: 'string', pattern: '^(a+)+$' } },
    } as JsonSchemaType);
    const started = performance.now();
    expect(validate({ x: 'a'.repeat(40) + '!' })).toMatchObject({ valid: false });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('are reported, each at its path in the tool list, when RE2 cannot express them', () => {
    const { issues } = checkToolSchemas([
      { name: 'a', description: '', inputSchema: { type: 'object' } },
      {
        name: 'b',
        description: '',
        inputSchema: { type: 'object', properties: { x: { type: 'string', pattern: '(a)\\1' } } },
        outputSchema: { type: 'object', patternProperties: { '^(?!_)': {} } },
      },
    ]);
    expect(issues).toEqual([
      {
        path: '/1/inputSchema/properties/x/pattern',
        code: 'unsupported_pattern',
        message:
          'b: the pattern "(a)\\1" uses a backreference "\\1", which Toolflow does not evaluate (only patterns that can be checked in linear time are); values are not checked against it.',
      },
      expect.objectContaining({
        path: '/1/outputSchema/patternProperties/^(?!_)',
        code: 'unsupported_pattern',
      }),
    ]);
  });
});
