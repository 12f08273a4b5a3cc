import { describe, expect, it } from 'vitest';
import type { ParamType } from '../tools/types';
import { convertFedValue, getTypeClash, isTypeCompatible } from './typed-wiring';

const TYPES: ParamType[] = ['str', 'int', 'float', 'bool', 'list', 'dict', 'any'];
const PAIRS = TYPES.flatMap((out) => TYPES.map((input) => [out, input] as const));
/** A value of each type, as a typed output would give it. */
const SAMPLE: Record<ParamType, unknown> = {
  str: 'text',
  int: 3,
  float: 2.5,
  bool: true,
  list: [1],
  dict: { a: 1 },
  any: null,
};

describe('isTypeCompatible', () => {
  it('accepts equal types, int into float, and any on either side, and nothing else', () => {
    const accepted = PAIRS.filter(([out, input]) => isTypeCompatible(out, input)).map(
      ([out, input]) => `${out}→${input}`,
    );
    expect(accepted).toEqual([
      'str→str',
      'str→any',
      'int→int',
      'int→float',
      'int→any',
      'float→float',
      'float→any',
      'bool→bool',
      'bool→any',
      'list→list',
      'list→any',
      'dict→dict',
      'dict→any',
      'any→str',
      'any→int',
      'any→float',
      'any→bool',
      'any→list',
      'any→dict',
      'any→any',
    ]);
  });
});

describe('getTypeClash', () => {
  it('names both ports and both types when the rule refuses the edge', () => {
    expect(getTypeClash({ name: 'count', type: 'int' }, { name: 'query', type: 'str' })).toBe(
      'Output "count" is int but input "query" takes str',
    );
  });

  it('is undefined for an edge the rule accepts', () => {
    expect(getTypeClash({ name: 'count', type: 'int' }, { name: 'limit', type: 'float' })).toBeUndefined();
  });
});

describe('convertFedValue agrees with the rule', () => {
  it.each(PAIRS)('%s → %s: converts exactly when the rule accepts the edge', (out, input) => {
    // What an any output gives is known at run time only: here, a value of the input's type.
    const converted = convertFedValue(SAMPLE[out === 'any' ? input : out], out, input);
    expect(converted.ok).toBe(isTypeCompatible(out, input));
  });

  it.each(PAIRS.filter(([out, input]) => out !== 'any' && isTypeCompatible(out, input)))(
    'passes a value from a typed %s output to a %s input unchanged',
    (out, input) => {
      const value = SAMPLE[out];
      const converted = convertFedValue(value, out, input);
      expect(converted.ok && converted.value).toBe(value);
    },
  );

  it('never turns a typed value into another type', () => {
    expect(convertFedValue(42, 'int', 'str')).toEqual({
      ok: false,
      error: 'an output of type int cannot feed an input of type str',
    });
    expect(convertFedValue('42', 'str', 'int').ok).toBe(false);
  });
});

describe('convertFedValue from an any output', () => {
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
  ] as const)('reads a %s input fed %j as %j', (type, value, expected) => {
    expect(convertFedValue(value, 'any', type)).toEqual({ ok: true, value: expected });
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
    const result = convertFedValue(value, 'any', type);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(`into ${type}`);
  });
});
