/**
 * Plain JSON values taken from files, requests and models, whose keys may be anything,
 * `__proto__` included. The one place that writes such a key and copies such a value; shared by
 * lib/tools (schemas) and lib/workflow (arguments, parameters).
 */

/**
 * Set an own, enumerable member of a plain object. `obj[key] = value` with the key `__proto__`
 * would replace the object's prototype instead, and JSON (property names, keywords, arguments)
 * may well hold that key.
 */
export function setJsonMember<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/**
 * A constant table that keys from outside are looked up in (type names, field names, command
 * names): a frozen copy without a prototype, so "constructor", "toString" or "__proto__" find
 * nothing instead of an Object.prototype member. Look up with `table[key] ?? fallback`; no
 * own-member check is needed.
 */
export function createLookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T | undefined>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/** Copy a JSON value so no two owners share an object (node parameters: rule 3 "deep-copied"). */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    setJsonMember(copy, key, cloneJson((value as Record<string, unknown>)[key]));
  }
  return copy as T;
}
