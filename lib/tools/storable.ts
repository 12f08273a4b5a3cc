/**
 * What the database can store, checked where declarations and documents come in, so a request
 * gets a 400 naming the place instead of a 500 from the database (README "Limits"):
 *
 * - **Nesting.** A tool declaration, and any value in a workflow (an argument, a default, a
 *   step's arguments or result), may nest at most MAX_VALUE_DEPTH levels of arrays and objects,
 *   counted from its own top. Prisma's JSON handling refuses values nested about 120 levels deep
 *   ("JSON Error: recursion limit exceeded": 123 levels went into a toolkit's declarations, 121
 *   into a step's result, on PGlite and Postgres alike), so 100 leaves room for the column around
 *   them. Files and request bodies may nest MAX_JSON_DEPTH: the value plus the document, export or
 *   request around it.
 * - **Text.** Postgres text cannot hold a NUL character (`\u0000`), and Prisma's JSON cannot hold
 *   an unpaired UTF-16 surrogate (`\ud800` alone). What a person sent is never changed
 *   silently: the request is refused with the path.
 *
 * Pure, and iterative, so a hostile depth cannot exhaust the stack.
 */
import { joinPointer, type Issue } from '../result';

/** Deepest nesting of a declaration or a value, counted from its own top. */
export const MAX_VALUE_DEPTH = 100;

/** Deepest nesting of a file or a request body: a value and the document or request around it. */
export const MAX_JSON_DEPTH = MAX_VALUE_DEPTH + 8;

/** A string or key the database cannot store: a NUL, or an unpaired surrogate. */
const UNSTORABLE_TEXT = /\u0000|\p{Cs}/u;

/** Where a value was found, as a chain back to the root (the pointer is built only when needed). */
interface Place {
  value: unknown;
  depth: number;
  parent: Place | undefined;
  key: string;
}

function pointerOf(place: Place, base: string): string {
  const keys: string[] = [];
  for (let p: Place | undefined = place; p?.parent; p = p.parent) keys.push(p.key);
  return joinPointer(base, ...keys.reverse());
}

/** How a string or key holding unstorable text is described in a message. */
function describeText(text: string): string {
  return text.includes('\u0000')
    ? 'a NUL character (\\u0000)'
    : 'an unpaired UTF-16 surrogate (half of a character)';
}

export interface StorableOptions {
  /** JSON Pointer of `value` in what was sent. */
  at: string;
  /** What `value` is, for the message: `The declaration of "x"`, `The value`. */
  what: string;
  /** Deepest nesting allowed, counted from `value` itself (default MAX_VALUE_DEPTH). */
  maxDepth?: number;
  /** Look for text the database cannot hold too (default true). */
  text?: boolean;
}

/**
 * Why `value` cannot be stored: at most one issue for nesting (where the first level beyond the
 * limit starts) and one for text (the first string or key with a NUL or an unpaired surrogate).
 */
export function getStorableIssues(value: unknown, options: StorableOptions): Issue[] {
  const maxDepth = options.maxDepth ?? MAX_VALUE_DEPTH;
  const text = options.text ?? true;
  let tooDeep: Place | undefined;
  /** The text's place; for a key, the object holding it. */
  let badText: { place: Place; text: string; isKey: boolean } | undefined;
  const stack: Place[] = [{ value, depth: 1, parent: undefined, key: '' }];
  // Depth first, children in order, so "first" means first in the document.
  while (stack.length && !(tooDeep && (badText || !text))) {
    const place = stack.pop()!;
    const { value: v } = place;
    if (typeof v === 'string') {
      if (!badText && UNSTORABLE_TEXT.test(v)) badText = { place, text: v, isKey: false };
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (place.depth > maxDepth) tooDeep ??= place;
    const keyed = text && !badText && !Array.isArray(v);
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const childPlace = { value: child, depth: place.depth + 1, parent: place, key };
      if (keyed && UNSTORABLE_TEXT.test(key)) badText = { place, text: key, isKey: true };
      const walk = typeof child === 'object' ? child !== null : text && typeof child === 'string';
      if (walk) stack.push(childPlace);
    }
  }
  const issues: Issue[] = [];
  if (tooDeep) {
    issues.push({
      path: pointerOf(tooDeep, options.at),
      code: 'too_deep',
      message: `${options.what} nests deeper than ${maxDepth} levels of arrays and objects; level ${maxDepth + 1} starts here. Toolflow stores at most ${maxDepth}: flatten it.`,
    });
  }
  if (badText) {
    issues.push({
      path: pointerOf(badText.place, options.at),
      code: 'unstorable_text',
      message: `${options.what} has ${describeText(badText.text)} in ${badText.isKey ? `the key ${JSON.stringify(badText.text)}` : 'this text'}, which the database cannot store. Remove it.`,
    });
  }
  return issues;
}
