/**
 * Types in OpenAI strict mode: every schema must say its type, with names JSON Schema knows; an
 * enum must have values and its type said; an array must say the type of its items. What has no
 * type is narrowed to a scalar, and each narrowing is reported.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { getScalarTypes, report, type StrictContext } from './strict-context';
import type { JsonSchema } from './types';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** An enum of more than this many values may hold at most MAX_ENUM_TEXT characters of strings. */
const MAX_LONG_ENUM = 250;
const MAX_ENUM_TEXT = 15_000;

function getJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Give `node` a type when nothing in it constrains what a value is (strict mode needs one), and
 * keep only the type names JSON Schema has.
 */
export function settleTypeNames(node: JsonSchema, path: string, ctx: StrictContext): void {
  const typed = ['type', 'enum', 'const', 'anyOf', '$ref', 'properties', 'items'].some((key) => key in node);
  if (!typed) {
    report(
      ctx,
      path,
      'strict_any_value',
      'Strict mode needs a type; this schema accepts any value, so it was narrowed to string, number, boolean or null. Give it a type.',
    );
    node.type = getScalarTypes();
  }

  if (node.type === undefined) return;
  const listed: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
  const valid = listed.filter((t): t is string => typeof t === 'string' && JSON_TYPES.has(t));
  if (valid.length === listed.length && valid.length > 0) return;
  const narrowed = valid.length === 0;
  report(
    ctx,
    joinPointer(path, 'type'),
    'strict_bad_type',
    `${listed
      .filter((t) => !valid.includes(t as string))
      .map((t) => JSON.stringify(t))
      .join(
        ', ',
      )} ${listed.length - valid.length === 1 ? 'is' : 'are'} no JSON Schema type; ${narrowed ? 'the value was narrowed to string, number, boolean or null' : 'left out'}. Use string, number, integer, boolean, object, array or null.`,
  );
  node.type = narrowed ? getScalarTypes() : valid.length === 1 ? valid[0] : valid;
}

/**
 * An enum (or const) in the form strict mode takes: at least one value, the type of its values
 * said, and within the limit on the text of long enums.
 */
export function settleEnum(node: JsonSchema, path: string, ctx: StrictContext): void {
  if (Array.isArray(node.enum) && node.enum.length === 0) {
    // Accepts no value at all; strict mode needs at least one.
    report(
      ctx,
      joinPointer(path, 'enum'),
      'strict_empty_enum',
      'An empty enum accepts no value, which strict mode cannot express; only null is accepted here now. Give the enum its values.',
    );
    node.enum = [null];
  }
  if (node.type === undefined && node.$ref === undefined && (Array.isArray(node.enum) || 'const' in node)) {
    // Enums without a type are not accepted everywhere; state the type of the values.
    const values = Array.isArray(node.enum) ? node.enum : [node.const];
    const types = [...new Set(values.map(getJsonType))];
    node.type = types.length === 1 ? types[0] : types;
  }

  if (Array.isArray(node.enum)) {
    const text = node.enum.reduce<number>((sum, v) => sum + (typeof v === 'string' ? v.length : 0), 0);
    if (node.enum.length > MAX_LONG_ENUM && text > MAX_ENUM_TEXT) {
      report(
        ctx,
        joinPointer(path, 'enum'),
        'strict_limit',
        `Strict mode allows at most ${MAX_ENUM_TEXT} characters in the values of an enum of more than ${MAX_LONG_ENUM} values; this one has ${text}.`,
      );
    }
  }
}

/**
 * Say the type of a schema given only by `properties` or `items` (strict mode wants it said), and
 * give an array without `items` an item type.
 */
export function settleContainerType(node: JsonSchema, path: string, ctx: StrictContext): void {
  if (node.type === undefined && node.$ref === undefined && !Array.isArray(node.anyOf)) {
    if (isJsonObject(node.properties)) node.type = 'object';
    else if (node.items !== undefined) node.type = 'array';
  }
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (isArray && node.items === undefined) {
    report(
      ctx,
      path,
      'strict_untyped_items',
      'Strict mode needs an item type for arrays ("array schema missing items"); this array declares none, so its items were narrowed to string, number, boolean or null. Add "items".',
    );
    node.items = { type: getScalarTypes() };
  }
}
