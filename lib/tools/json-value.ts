/**
 * Plain JSON values taken from files, requests and models, whose keys may be anything:
 * `__proto__`, `constructor`, `toString`. The one way the code treats such keys (see
 * docs/architecture.md, "Keys from outside"):
 *
 * - **Records without a prototype.** JSON is read through `parseJson` (or `adoptJson` on a value
 *   a library parsed: Prisma, the SDKs), and records keyed by outside names are made with
 *   `createRecord` or copied with `cloneJson`. Such an object has no Object.prototype behind it,
 *   so `record[key]` finds only what is there, `record[key] = value` defines a member even for
 *   `__proto__`, and it serializes, spreads and clones like any plain object.
 * - **A record of unknown origin** (a public function's argument, which a caller may have built
 *   as a literal) is read with `getMember` / `hasMember`, the only own-member check; ESLint
 *   refuses `Object.hasOwn` and `hasOwnProperty` anywhere else.
 * - **Constant tables** that outside keys are looked up in are `createLookupTable`s.
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

/**
 * A record without a prototype, empty or holding `entries` (own enumerable members of an object,
 * or key-value pairs, in order): lookups by any key find only its own members, and assignment
 * defines a member even for the key `__proto__`.
 */
export function createRecord<T>(
  entries?: Record<string, T> | Iterable<readonly [string, T]>,
): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  if (entries === undefined) return record;
  if (Symbol.iterator in entries) {
    for (const [key, value] of entries as Iterable<readonly [string, T]>) record[key] = value;
  } else {
    for (const key of Object.keys(entries)) record[key] = (entries as Record<string, T>)[key];
  }
  return record;
}

/**
 * Copy a JSON value so no two owners share an object (node parameters: rule 3 "deep-copied");
 * every object of the copy is a record without a prototype.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) copy[key] = cloneJson((value as Record<string, unknown>)[key]);
  return copy as T;
}

/**
 * Take a JSON value that was just parsed (by `JSON.parse`, Prisma, an SDK) and that nobody
 * else holds: every plain object in it loses its prototype, in place. Returns the value.
 */
export function adoptJson<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
      continue;
    }
    const proto: unknown = Object.getPrototypeOf(item);
    // Only plain objects (a Date or a Buffer is not JSON, and keeps what it is).
    if (proto !== Object.prototype && proto !== null) continue;
    if (proto !== null) Object.setPrototypeOf(item, null);
    for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
  }
  return value;
}

/** `JSON.parse` whose objects are records without a prototype (see `adoptJson`). */
export function parseJson(text: string): unknown {
  return adoptJson(JSON.parse(text) as unknown);
}

/**
 * A copy of a JSON value whose objects are ordinary (with Object.prototype), for the one
 * consumer that refuses records without a prototype: props a Server Component hands to a
 * Client Component (React checks for plain objects). Use it there and nowhere else.
 */
export function toClientProps<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

// The one own-member check: everything else reads records made without a prototype.
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether `record` has an own member `key`, for a record whose origin the caller cannot vouch
 * for (an argument of a public function, which may be an object literal).
 */
export function hasMember(record: object, key: string): boolean {
  return hasOwn.call(record, key);
}

/** The own member `key` of `record`, or undefined (see `hasMember`). */
export function getMember<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return hasOwn.call(record, key) ? record[key] : undefined;
}
