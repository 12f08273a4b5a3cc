/**
 * Shared building blocks of the fuzz targets: hostile names and values, JSON normalisation,
 * structural equality, JSON Pointer resolution and random mutations of JSON documents and text.
 * Pure: no IO, so the `npm run fuzz` script and the in-test run share it unchanged.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Names that break naive object handling (prototype keys, pointer escapes, empty, unicode). */
export const TRICKY_NAMES: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  ' ',
  'a/b',
  'a~b',
  'a.b',
  'x->y',
  '~1',
  '%25',
  '0',
  '10',
  'é',
  'e\u0301',
  '名前',
  '🙂',
  'null',
  'executor',
  'storage',
  'result',
  '{{step_1.result}}',
];

const PLAIN_NAMES = ['a', 'b', 'c', 'path', 'count', 'mode', 'url', 'items', 'data', 'input_structure'];

/** A property, argument or tool name: mostly ordinary, often hostile, sometimes random unicode. */
export const fuzzName: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PLAIN_NAMES) },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: 'binary' }) },
);

/** Text with unicode, control characters, lone surrogates and template-looking bits. */
export const fuzzText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.constantFrom(...TRICKY_NAMES) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('<script>alert(1)</script>', '{{', '}}', '\u0000', '\ufeff', '\u2028', '"\\'),
  },
);

/** A string of 1,000–20,000 characters: big enough to matter, small enough to run often. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1_000, max: 20_000 }), fc.constantFrom('x', 'é', '🙂', '"', '\\', '{'))
  .map(([n, c]) => c.repeat(n));

/** A value nested `depth` levels deep (arrays or objects), around `leaf`. */
export function nest(depth: number, leaf: Json, kind: 'array' | 'object'): Json {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** A deeply nested value: 20–600 levels (HTTP bodies stop at 64; files and the CLI do not). */
export const deepValue: fc.Arbitrary<Json> = fc
  .tuple(fc.integer({ min: 20, max: 600 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
  .map(([depth, kind]) => nest(depth, 1, kind));

/** Any JSON value, normalised as JSON text would carry it. */
export const smallJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 3 }).map((v) => normalizeJson(v));

/** Payloads that replace or fill values: wrong types, hostile strings, huge and deep values. */
export const fuzzValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: smallJson },
  { weight: 2, arbitrary: fuzzText },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e308, '', [], {}, [null], { '': null }),
  },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepValue },
);

/**
 * The value as JSON text would carry it: no `undefined`, no `-0`, no NaN, plain prototypes, and
 * `__proto__` kept as an own member (JSON.parse defines it; assignment would not).
 */
export function normalizeJson<T = Json>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** `arb` in about one case out of `every`, otherwise undefined. */
export function sometimes<T>(arb: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const hasOwn = (obj: object, key: string) => Object.prototype.hasOwnProperty.call(obj, key);

/** Build an object from entries as JSON.parse would: every key an own member, `__proto__` too. */
export function objectFrom(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Structural equality of JSON values (member order ignored, own members only). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return !(typeof a === 'number' && Object.is(a, -0) !== Object.is(b, -0));
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      hasOwn(b as object, k) &&
      jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** True when `test` holds for some object inside `value` (itself included). */
export function someObject(value: unknown, test: (obj: Record<string, unknown>) => boolean): boolean {
  if (Array.isArray(value)) return value.some((v) => someObject(v, test));
  if (!isObject(value)) return false;
  return test(value) || Object.keys(value).some((k) => someObject(value[k], test));
}

/** True when some object inside `value` has an own member `key`. */
export function hasMember(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((v) => hasMember(v, key));
  if (!isObject(value)) return false;
  return hasOwn(value, key) || Object.keys(value).some((k) => hasMember(value[k], key));
}

// ---- JSON Pointer ----

/** Split an RFC 6901 pointer into decoded segments; undefined when it is not a pointer. */
export function parsePointer(path: string): string[] | undefined {
  if (path === '') return [];
  if (!path.startsWith('/')) return undefined;
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Where a pointer leads in `root`: the value, or how far it got. */
export type PointerTarget =
  { found: true; value: unknown } | { found: false; parent: unknown; missing: string; depth: number };

/** Follow a pointer from `root`, member by member (own members and in-range indexes only). */
export function resolvePointer(root: unknown, path: string): PointerTarget | undefined {
  const segments = parsePointer(path);
  if (!segments) return undefined;
  let current: unknown = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < current.length) {
      current = current[Number(segment)];
    } else if (isObject(current) && hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return { found: false, parent: current, missing: segment, depth: i };
    }
  }
  return { found: true, value: current };
}

/**
 * Why an issue's path does not locate anything in the input, or undefined when it does. A
 * path resolves when every member it names exists, except that the last one may be absent from
 * an object that does exist when the issue is about that member (missing, required): its
 * message then names it (compared without case and punctuation, so a v0 file's `toolName`
 * matches a message about `tool_name`).
 */
export function checkIssuePath(
  root: unknown,
  issue: { path: unknown; message: string },
  aliases: Readonly<Record<string, string>> = Object.create(null),
): string | undefined {
  if (typeof issue.path !== 'string') return `path is ${JSON.stringify(issue.path)}, not a string`;
  const target = resolvePointer(root, issue.path);
  if (!target) return `path ${JSON.stringify(issue.path)} is not a JSON Pointer`;
  if (target.found) return undefined;
  const isLast = target.depth === parsePointer(issue.path)!.length - 1;
  const plain = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const named = [target.missing, aliases[target.missing]].filter((n): n is string => typeof n === 'string');
  if (isLast && isObject(target.parent) && named.some((n) => plain(issue.message).includes(plain(n))))
    return undefined;
  return `path ${JSON.stringify(issue.path)} does not resolve: no member ${JSON.stringify(target.missing)} in ${
    Array.isArray(target.parent)
      ? 'an array'
      : isObject(target.parent)
        ? 'an object'
        : show(target.parent, 60)
  } at depth ${target.depth}`;
}

// ---- mutations ----

/**
 * One random change to a JSON document. `at` picks the location: when it is a multiple of 3,
 * among the shallow ones (depth ≤ 3: root fields, list items, their fields and those fields' items), where the
 * format's own keys are; otherwise among all of them.
 */
export type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'replace'; at: number; value: Json }
  | { kind: 'duplicate'; at: number }
  | { kind: 'rename'; at: number; name: string }
  | { kind: 'add'; at: number; name: string; value: Json }
  | { kind: 'wrap'; at: number; as: 'array' | 'object' }
  | { kind: 'swap'; at: number; other: number }
  | { kind: 'copy'; at: number; from: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: fuzzValue }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), name: fuzzName }),
  fc.record({ kind: fc.constant('add' as const), at: fc.nat(), name: fuzzName, value: fuzzValue }),
  fc.record({ kind: fc.constant('wrap' as const), at: fc.nat(), as: fc.constantFrom('array', 'object') }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ kind: fc.constant('copy' as const), at: fc.nat(), from: fc.nat() }),
);

/** Locations in a document: the containers (with the path to each) and the member paths. */
interface Location {
  parent: Json[] | { [key: string]: Json } | undefined;
  key: string | number | undefined;
  depth: number;
}

function collectLocations(root: Json, limit = 2_000): Location[] {
  const out: Location[] = [{ parent: undefined, key: undefined, depth: 0 }];
  const stack: [Json, number][] = [[root, 0]];
  while (stack.length > 0 && out.length < limit) {
    const [value, depth] = stack.pop()!;
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        out.push({ parent: value, key: i, depth: depth + 1 });
        if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
      });
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, Json>)[key];
        out.push({ parent: value as { [key: string]: Json }, key, depth: depth + 1 });
        if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
      }
    }
  }
  return out;
}

function pick(locations: Location[], at: number): Location {
  if (at % 3 === 0) {
    const shallow = locations.filter((l) => l.depth <= 3);
    return shallow[Math.floor(at / 3) % shallow.length];
  }
  return locations[at % locations.length];
}

function setMember(parent: Location['parent'] & object, key: string | number, value: Json): void {
  if (Array.isArray(parent)) parent[key as number] = value;
  else Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
}

function getAt(loc: Location, root: Json): Json {
  if (!loc.parent) return root;
  return Array.isArray(loc.parent) ? loc.parent[loc.key as number] : loc.parent[loc.key as string];
}

/** Apply mutations to a copy of `doc`; the result is JSON-normalised. */
export function mutateJson(doc: Json, mutations: readonly Mutation[]): Json {
  let root: Json = structuredCloneJson(doc);
  for (const m of mutations) {
    const locations = collectLocations(root);
    const loc = pick(locations, m.at);
    const current = getAt(loc, root);
    const put = (value: Json) => {
      if (!loc.parent) root = value;
      else setMember(loc.parent, loc.key!, value);
    };
    switch (m.kind) {
      case 'delete':
        if (!loc.parent) root = null;
        else if (Array.isArray(loc.parent)) loc.parent.splice(loc.key as number, 1);
        else delete loc.parent[loc.key as string];
        break;
      case 'replace':
        put(structuredCloneJson(m.value));
        break;
      case 'duplicate':
        if (Array.isArray(loc.parent)) loc.parent.splice(loc.key as number, 0, structuredCloneJson(current));
        else if (Array.isArray(current) && current.length > 0) current.push(structuredCloneJson(current[0]));
        break;
      case 'rename':
        if (loc.parent && !Array.isArray(loc.parent)) {
          delete loc.parent[loc.key as string];
          setMember(loc.parent, m.name, current);
        }
        break;
      case 'add': {
        // Generated values are shared between runs: insert copies, never the values themselves.
        const value = structuredCloneJson(m.value);
        if (Array.isArray(current)) current.push(value);
        else if (isObject(current)) setMember(current as { [key: string]: Json }, m.name, value);
        else put(value);
        break;
      }
      case 'wrap':
        put(m.as === 'array' ? [current] : (objectFrom([['value', current]]) as { [key: string]: Json }));
        break;
      case 'copy': {
        // Another value of the same document (an id, a name, a port) where this one was.
        const from = pick(locations, m.from);
        put(structuredCloneJson(getAt(from, root)));
        break;
      }
      case 'swap': {
        const other = pick(locations, m.other);
        if (!loc.parent || !other.parent) break;
        const a = current;
        const b = getAt(other, root);
        setMember(loc.parent, loc.key!, b);
        setMember(other.parent, other.key!, a);
        // Swapping a value into itself can make a cycle; JSON text cannot, so undo it then.
        if (hasCycle(root)) {
          setMember(other.parent, other.key!, b);
          setMember(loc.parent, loc.key!, a);
        }
        break;
      }
    }
  }
  return normalizeJson(root);
}

function hasCycle(root: Json): boolean {
  const onPath = new Set<object>();
  const visit = (v: Json): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    if (onPath.has(v)) return true;
    onPath.add(v);
    const children = Array.isArray(v) ? v : Object.values(v);
    const found = children.some(visit);
    onPath.delete(v);
    return found;
  };
  return visit(root);
}

function structuredCloneJson<T extends Json>(value: T): T {
  return normalizeJson<T>(value);
}

/** One random change to JSON text: cut it short, insert, delete or replace characters. */
export type TextMutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'replace'; at: number; text: string };

const JSON_NOISE = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    "'",
    '\\',
    '\n',
    ' ',
    'null',
    'true',
    '-',
    '.',
    'e',
    '\u0000',
  ),
  fc.string({ maxLength: 4, unit: 'binary' }),
);

export const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: JSON_NOISE }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: JSON_NOISE }),
);

/** Apply text mutations in order. */
export function mutateText(text: string, mutations: readonly TextMutation[]): string {
  let out = text;
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    switch (m.kind) {
      case 'truncate':
        out = out.slice(0, at);
        break;
      case 'insert':
        out = out.slice(0, at) + m.text + out.slice(at);
        break;
      case 'delete':
        out = out.slice(0, at) + out.slice(at + m.length);
        break;
      case 'replace':
        out = out.slice(0, at) + m.text + out.slice(at + m.text.length);
        break;
    }
  }
  return out;
}

/** A problem a property found, with what to show in the counterexample report. */
export class PropertyFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PropertyFailure';
  }
}

/** Fail the property with `message` unless `condition` holds. */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new PropertyFailure(typeof message === 'function' ? message() : message);
}

/** Short JSON for failure messages (huge values are cut). */
export function show(value: unknown, max = 400): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    try {
      text = String(value);
    } catch {
      text = '(a value that cannot be printed)';
    }
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
