/**
 * Vitest setup: `toEqual` ignores object key order, but the key order of a JSON Schema's
 * `properties` is the declaration order that docs/design.md §2.1 turns into parameter order. This tester
 * makes every deep equality in the suite also compare the order of `properties` keys, so a
 * conversion, a store or a round trip that reorders a tool's parameters fails the test that
 * compares its result.
 */
import { expect } from 'vitest';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** False when both sides declare `properties` with the same keys in another order. */
export function checkPropertiesOrder(a: unknown, b: unknown): boolean | undefined {
  if (!isPlainObject(a) || !isPlainObject(b)) return undefined;
  const left = Object.hasOwn(a, 'properties') ? a.properties : undefined;
  const right = Object.hasOwn(b, 'properties') ? b.properties : undefined;
  if (!isPlainObject(left) || !isPlainObject(right)) return undefined;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return undefined; // unequal anyway: the default says how
  return leftKeys.every((key, i) => key === rightKeys[i]) ? undefined : false;
}

expect.addEqualityTesters([checkPropertiesOrder]);
