/**
 * Whether a parameter's JSON Schema admits a value: its type, enum, pattern, bounds and item
 * limits, and the value a literal gives it (a number converted to the parameter's unit).
 */
import { isCellReference, isRangeReference, type Literal } from './literals';
import type { IndexedParam } from './tool-index';
import { convertUnit } from './units';

/** The value a literal gives `param` (a number converted to the parameter's unit), or undefined. */
export function getPlacedValue(literal: Literal, param: IndexedParam): unknown {
  if (literal.kind === 'number') {
    const n = literal.value as number;
    if (literal.unit !== undefined && param.unit !== undefined)
      return convertUnit(n, literal.unit, param.unit);
    return n;
  }
  if (literal.kind === 'vector') {
    const items = literal.value as number[];
    if (param.itemType !== 'integer' && param.itemType !== 'number') return undefined;
    if (param.itemType === 'integer' && !items.every(Number.isInteger)) return undefined;
    if (param.minItems !== undefined && items.length < param.minItems) return undefined;
    if (param.maxItems !== undefined && items.length > param.maxItems) return undefined;
    return items;
  }
  return literal.value;
}

/** Whether the schema accepts the value: type, pattern and bounds. */
export function isAccepted(param: IndexedParam, value: unknown): boolean {
  if (typeof value === 'number') {
    if (param.type === 'int' && !Number.isInteger(value)) return false;
    if (param.type !== 'int' && param.type !== 'float' && param.type !== 'any') return false;
    if (param.minimum !== undefined && value < param.minimum) return false;
    if (param.maximum !== undefined && value > param.maximum) return false;
    if (param.exclusiveMinimum !== undefined && value <= param.exclusiveMinimum) return false;
    if (param.exclusiveMaximum !== undefined && value >= param.exclusiveMaximum) return false;
    return true;
  }
  if (typeof value === 'string') {
    if (param.type !== 'str' && param.type !== 'any' && !param.stringList) return false;
    // A value the pattern could not be checked against in time is not placed there either.
    if (param.pattern && !param.stringList && param.pattern.match(value) !== true) return false;
    // An item of a list meets the items' own pattern and enum ("key=value" filters, field names).
    if (param.stringList && param.itemPattern && param.itemPattern.match(value) !== true) return false;
    if (param.stringList && param.itemEnum && !param.itemEnum.some((v) => sameEnumValue(v, value)))
      return false;
    if (param.holds.cell && !isCellReference(value)) return false;
    if (param.holds.range && !isRangeReference(value)) return false;
    return true;
  }
  return Array.isArray(value);
}

export function sameEnumValue(enumValue: unknown, value: unknown): boolean {
  if (enumValue === value) return true;
  return typeof enumValue === 'string' && typeof value === 'string' && compact(enumValue) === compact(value);
}

/** "rock salt", "rock-salt" and "rocksalt" are one enum value. */
export function compact(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
