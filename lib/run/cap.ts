/**
 * Keeps what a run stores within a size and within what the database can hold: a node's arguments
 * and result are capped at `maxResultBytes` of JSON each, and every cut is named so the node can be
 * marked (README "Test-run semantics: limits"). Long strings are shortened, lists and objects lose
 * their last members, and binary payloads (`data`, `blob` of images, audio and resources) are
 * dropped whole rather than left as a broken half. Arrays and objects nested deeper than a value
 * may (MAX_VALUE_DEPTH, lib/tools/storable.ts) are stored as `"…"`, and an unpaired UTF-16
 * surrogate as U+FFFD: the database refuses both. Only the stored copy is cut: an edge still passes the whole
 * value to the next node. Pure.
 */
import { MAX_VALUE_DEPTH } from '../tools/storable';

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;
/** Smallest room worth spending on a member; below it the member is left out. */
const MIN_ROOM = 24;
const BINARY_KEYS = new Set(['data', 'blob']);

export interface Capped<T> {
  value: T;
  /** What was cut, by JSON path, e.g. `/content/0/text: 812,345 bytes cut to 262,000`. */
  cuts: string[];
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** Cuts a string to at most `budget` bytes of JSON (quotes and escapes included). */
function cutString(value: string, budget: number): string {
  let lo = 0;
  let hi = value.length;
  // Binary search the longest prefix whose JSON fits (escapes make the size non-linear).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (byteLength(JSON.stringify(value.slice(0, mid) + '…')) <= budget) lo = mid;
    else hi = mid - 1;
  }
  // Do not split a surrogate pair.
  const end = lo > 0 && /[\uD800-\uDBFF]/.test(value[lo - 1]) ? lo - 1 : lo;
  return value.slice(0, end) + '…';
}

function capValue(value: unknown, budget: number, path: string, key: string, cuts: string[]): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  const size = byteLength(text);
  if (size <= budget) return value;
  if (typeof value === 'string') {
    if (BINARY_KEYS.has(key)) {
      cuts.push(`${path}: ${fmt(size)} bytes not stored`);
      return '';
    }
    const cut = cutString(value, Math.max(budget, 8));
    cuts.push(`${path}: ${fmt(size)} bytes cut to ${fmt(byteLength(JSON.stringify(cut)))}`);
    return cut;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    let used = 2;
    for (let i = 0; i < value.length; i++) {
      const room = budget - used - (i > 0 ? 1 : 0);
      if (room < MIN_ROOM) {
        cuts.push(`${path}: ${value.length - i} of ${value.length} items not stored`);
        break;
      }
      const item = capValue(value[i], room, `${path}/${i}`, String(i), cuts);
      out.push(item);
      used += byteLength(JSON.stringify(item) ?? 'null') + (i > 0 ? 1 : 0);
    }
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    // Small members (isError, a type, a name) are kept whole; the room left is shared among the
    // large ones, smallest first, so one huge member cannot push the others out.
    const entries = Object.entries(value).map(([name, member], i) => {
      const head = byteLength(JSON.stringify(name)) + 1 + (i > 0 ? 1 : 0);
      return { name, member, head, size: head + byteLength(JSON.stringify(member) ?? 'null') };
    });
    const rooms = new Map<string, number>();
    let left = budget - 2;
    const bySize = [...entries].sort((a, b) => a.size - b.size);
    bySize.forEach((entry, i) => {
      const share = Math.floor(left / (bySize.length - i));
      const room = Math.min(entry.size, share);
      rooms.set(entry.name, room);
      left -= room;
    });
    const out: Record<string, unknown> = {};
    const dropped: string[] = [];
    for (const { name, member, head } of entries) {
      const room = rooms.get(name)! - head;
      if (room < Math.min(MIN_ROOM, byteLength(JSON.stringify(member) ?? 'null'))) {
        dropped.push(name);
        continue;
      }
      const segment = `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const capped = capValue(member, room, segment, name, cuts);
      Object.defineProperty(out, name, {
        value: capped,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (dropped.length > 0)
      cuts.push(
        `${path || '/'}: ${dropped.length} of ${entries.length} members not stored (${dropped.join(', ')})`,
      );
    return out;
  }
  return value;
}

/**
 * How deep a stored copy may nest: a value at its limit (MAX_VALUE_DEPTH), inside the object that
 * holds it (the arguments by name, the result's `structuredContent` or `content`).
 */
export const MAX_STORED_DEPTH = MAX_VALUE_DEPTH + 1;

/**
 * `value` within `maxBytes` of JSON and `maxDepth` levels of nesting, and what was cut to get there
 * (nothing when it fit).
 */
export function capJson<T>(value: T, maxBytes: number, maxDepth = MAX_STORED_DEPTH): Capped<T> {
  const cuts: string[] = [];
  const storable = needsStorableCopy(value, maxDepth) ? copyStorable(value, maxDepth, cuts) : value;
  const capped = capValue(storable, maxBytes, '', '', cuts) as T;
  return { value: capped, cuts };
}

/** A member as a plain assignment makes it, defined so that a `__proto__` key is a member too. */
const MEMBER = { enumerable: true, writable: true, configurable: true } as const;

/** Half of a UTF-16 surrogate pair standing alone. */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/** True when `value` nests deeper than `maxDepth` or holds an unpaired surrogate (iterative). */
function needsStorableCopy(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return true;
    } else if (v && typeof v === 'object') {
      if (depth > maxDepth) return true;
      for (const [key, child] of Object.entries(v)) {
        if (LONE_SURROGATE.test(key)) return true;
        stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}

/**
 * A copy of `value` the database can store: containers beyond `maxDepth` replaced by `"…"`, lone
 * surrogates by U+FFFD, each change named in `cuts`. Iterative, so any depth is safe; members keep
 * their order.
 */
function copyStorable(value: unknown, maxDepth: number, cuts: string[]): unknown {
  const holder: { value?: unknown } = {};
  const fix = (text: string, path: string) => {
    if (!LONE_SURROGATE.test(text)) return text;
    cuts.push(`${path || '/'}: unpaired UTF-16 surrogates stored as U+FFFD`);
    return text.replace(LONE_SURROGATES, '\uFFFD');
  };
  const stack: { from: unknown; into: object; key: string; depth: number; path: string }[] = [
    { from: value, into: holder, key: 'value', depth: 1, path: '' },
  ];
  while (stack.length) {
    const { from, into, key, depth, path } = stack.pop()!;
    const put = (v: unknown) => Object.defineProperty(into, key, { ...MEMBER, value: v });
    if (typeof from === 'string') {
      put(fix(from, path));
    } else if (!from || typeof from !== 'object') {
      put(from);
    } else if (depth > maxDepth) {
      cuts.push(`${path}: nested deeper than ${fmt(maxDepth)} levels, not stored`);
      put('…');
    } else {
      const isArray = Array.isArray(from);
      const entries = Object.entries(from);
      const copy: object = isArray ? new Array(entries.length) : {};
      put(copy);
      for (const [name, child] of entries) {
        const stored = isArray ? name : fix(name, path);
        // Each member is defined here, in order, and filled when popped: the copy keeps the order.
        if (!isArray) Object.defineProperty(copy, stored, { ...MEMBER, value: undefined });
        const at = `${path}/${stored.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        stack.push({ from: child, into: copy, key: stored, depth: depth + 1, path: at });
      }
    }
  }
  return holder.value;
}
