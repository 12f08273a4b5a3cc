/**
 * References, `allOf` and definitions in OpenAI strict mode. Strict mode supports `$ref` (also
 * recursive) and `$defs`, but allows nothing beside a `$ref` and has no `allOf`: a reference with
 * keywords beside it is inlined, `allOf` branches are merged, and what could not be kept is
 * reported.
 */
import { joinPointer } from '../result';
import { isJsonObject, resolveLocalRef } from './json-schema';
import { setJsonMember } from './json-value';
import { inlineRef, mergeAllOf } from './schema-walk';
import { getScalarTypes, report, type ConvertChild, type StrictContext } from './strict-context';
import type { JsonSchema } from './types';

/** How many references in a row are inlined at one place (each must be new, so cycles stop sooner). */
const MAX_INLINE_HOPS = 64;

/** A schema with its references settled: finished, or to be converted further. */
export type SettledRefs =
  /** Nothing more to convert: a bare reference strict mode takes as it is, or what replaced one. */
  | { kind: 'final'; schema: JsonSchema }
  /** The schema with every `$ref` that had keywords beside it inlined; `refs` grew by those. */
  | { kind: 'open'; node: JsonSchema; refs: readonly string[] };

/**
 * Inline the `$ref` of `node` while keywords stand beside it (the siblings win over the target).
 * A bare reference stays when it resolves; one that does not is narrowed to a scalar.
 */
export function settleRefs(
  node: JsonSchema,
  path: string,
  ctx: StrictContext,
  refs: readonly string[],
): SettledRefs {
  // A target may itself hold a $ref beside other keywords: inline until none is left.
  for (let hop = 0; typeof node.$ref === 'string' && hop <= MAX_INLINE_HOPS; hop++) {
    if (Object.keys(node).length === 1) break;
    // Strict mode rejects keywords beside a $ref; inline the target, the siblings win.
    const inlined = inlineRef(node, ctx.root, refs);
    if (inlined.kind === 'recursive') {
      // Inlining the target would put it inside itself, again and again: keep the bare
      // reference (strict mode supports recursion through $ref) and drop what is beside it.
      const dropped = Object.keys(inlined.siblings).map((k) => JSON.stringify(k));
      report(
        ctx,
        joinPointer(path, '$ref'),
        'strict_recursive_ref',
        `Reference "${inlined.ref}" refers to a schema it is part of, so it cannot be inlined, and strict mode allows nothing beside a $ref: ${dropped.join(', ')} beside it ${dropped.length === 1 ? 'was' : 'were'} dropped. Move them into the referenced schema.`,
      );
      return { kind: 'final', schema: { $ref: inlined.ref } };
    }
    if (inlined.kind === 'unresolved') {
      report(
        ctx,
        joinPointer(path, '$ref'),
        'strict_unresolved_ref',
        `Reference "${inlined.ref}" does not resolve to a local definition; it was dropped. Fix the reference.`,
      );
      node = inlined.siblings;
    } else {
      node = inlined.node;
      refs = inlined.refs;
    }
  }
  if (typeof node.$ref === 'string') {
    if (node.$ref === '#' || resolveLocalRef(ctx.root, node.$ref) !== undefined) {
      return { kind: 'final', schema: node };
    }
    report(
      ctx,
      joinPointer(path, '$ref'),
      'strict_unresolved_ref',
      `Reference "${node.$ref}" does not resolve to a local definition; strict mode cannot send it, so the value was narrowed to string, number, boolean or null. Fix the reference.`,
    );
    return { kind: 'final', schema: { type: getScalarTypes() } };
  }
  return { kind: 'open', node, refs };
}

/** Merge `node.allOf` into `node` (strict mode has no allOf), reporting what the merge gave up. */
export function mergeAllOfReported(
  node: JsonSchema,
  path: string,
  ctx: StrictContext,
  refs: readonly string[],
): { node: JsonSchema; refs: readonly string[] } {
  const merge = mergeAllOf(node, ctx.root, refs);
  for (const { index, ref } of merge.recursive) {
    report(
      ctx,
      joinPointer(path, 'allOf', index, '$ref'),
      'strict_recursive_ref',
      `Reference "${ref}" refers to a schema it is part of, so this allOf branch cannot be merged into it; it was left out.`,
    );
  }
  for (const { index, ref } of merge.unresolved) {
    report(
      ctx,
      joinPointer(path, 'allOf', index, '$ref'),
      'strict_unresolved_ref',
      `Reference "${ref}" does not resolve to a local definition; it was dropped. Fix the reference.`,
    );
  }
  for (const index of merge.invalid) {
    report(
      ctx,
      joinPointer(path, 'allOf', index),
      'strict_bad_schema',
      'This allOf branch is not a schema object; strict mode has no allOf, so it was left out.',
    );
  }
  for (const { index, key } of merge.conflicts) {
    report(
      ctx,
      joinPointer(path, 'allOf', index, key),
      'strict_allof',
      `Strict mode has no allOf, and its branches disagree on "${key}"; the first value was kept. Flatten the schema.`,
    );
  }
  return { node: merge.merged, refs: merge.refs };
}

/**
 * Convert the definitions (`$defs`, and draft-07's `definitions`) of `node` in place: a
 * reference to one must find it converted too.
 */
export function convertDefinitions(node: JsonSchema, path: string, convert: ConvertChild): void {
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = node[key];
    if (!isJsonObject(defs)) continue;
    const out: JsonSchema = {};
    for (const [name, def] of Object.entries(defs))
      setJsonMember(out, name, convert(def, joinPointer(path, key, name)));
    node[key] = out;
  }
}
