/**
 * One shared, frozen copy of each distinct tool declaration. Every request parses its document
 * afresh, so the work cached per declaration object (its content hash, its parameter plan, its
 * compiled value checks) would be redone on every save; with the declarations interned it is
 * done once per distinct declaration in the process. Distinct means a different JSON text: the
 * same declaration with its keys in another order is another entry, since key order is part of
 * the contract (declaration order is parameter order). The copies are frozen all the way down,
 * so no caller can change what others share: a write throws.
 */
import { createLruCache } from '../lru';
import type { ToolDeclaration } from './types';

/** 8 M characters of declaration text: thousands of typical declarations (1–5 KB each). */
const MAX_TEXT = 8_000_000;

const shared = createLruCache<{ declaration: ToolDeclaration; size: number }>({
  maxCost: MAX_TEXT,
  cost: (entry) => entry.size,
});
const interned = new WeakSet<object>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/**
 * The shared copy of `decl`: equal in content (a JSON copy), frozen, and the same object for
 * every declaration with the same JSON text. A declaration that is not JSON (a cycle, a BigInt)
 * is returned as it is.
 */
export function internDeclaration(decl: ToolDeclaration): ToolDeclaration {
  if (interned.has(decl)) return decl;
  let text: string;
  try {
    text = JSON.stringify(decl);
  } catch {
    return decl;
  }
  const known = shared.get(text);
  if (known) return known.declaration;
  const declaration = deepFreeze(JSON.parse(text) as ToolDeclaration);
  interned.add(declaration);
  shared.set(text, { declaration, size: text.length });
  return declaration;
}

/** Whether `decl` is a shared copy from internDeclaration (so it never changes). */
export function isInterned(decl: ToolDeclaration): boolean {
  return interned.has(decl);
}
