/**
 * Canonical JSON and declaration hashing: the same declaration always serialises to the same
 * bytes, whatever the key order it was written or parsed in, so its hash is a content address
 * (exports carry it to detect schema drift; docs/design.md §4.7).
 */
import { isInterned } from './intern';
import { sha256Hex } from './sha256';
import type { ToolDeclaration } from './types';

function writeCanonical(value: unknown, out: string[]): void {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    out.push(JSON.stringify(value));
    return;
  }
  if (typeof value === 'number') {
    // JSON has no NaN/Infinity; JSON.stringify writes null for them and the shortest round-trip
    // form for finite numbers (the same rule RFC 8785 uses).
    out.push(Number.isFinite(value) ? JSON.stringify(value) : 'null');
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      // Like JSON.stringify: holes, undefined and functions inside arrays become null.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') out.push('null');
      else writeCanonical(item, out);
    });
    out.push(']');
    return;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is what RFC 8785 prescribes.
    const keys = Object.keys(record).sort();
    out.push('{');
    let first = true;
    for (const key of keys) {
      const item = record[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      writeCanonical(item, out);
    }
    out.push('}');
    return;
  }
  throw new TypeError(`canonicalJson cannot serialise a ${typeof value}`);
}

/**
 * Serialise a JSON value with object keys sorted (UTF-16 order) and no whitespace; `undefined`
 * members are omitted as JSON.stringify does. Equal JSON values give equal strings.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  writeCanonical(value, out);
  return out.join('');
}

/** Hashes of interned declarations (lib/tools/intern.ts), by object. */
const hashes = new WeakMap<ToolDeclaration, string>();

/**
 * Content hash of a declaration: SHA-256 of the canonical JSON of its name, title, description,
 * input/output schema, annotations and the other MCP Tool fields (icons, execution, `_meta`),
 * not its `source`: the same tool from two places is the same tool. A declaration without the
 * MCP fields hashes as before they were kept. Returns `sha256:<64 hex digits>`.
 */
export function hashDeclaration(decl: ToolDeclaration): string {
  const known = hashes.get(decl);
  if (known) return known;
  const content = {
    name: decl.name,
    title: decl.title,
    description: decl.description,
    inputSchema: decl.inputSchema,
    outputSchema: decl.outputSchema,
    annotations: decl.annotations,
    icons: decl.icons,
    execution: decl.execution,
    _meta: decl._meta,
  };
  const hash = `sha256:${sha256Hex(canonicalJson(content))}`;
  // Only a shared copy is remembered: it cannot change, so its hash cannot go stale.
  if (isInterned(decl)) hashes.set(decl, hash);
  return hash;
}
