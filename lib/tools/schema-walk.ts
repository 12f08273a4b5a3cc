/**
 * Taking `$ref` and `allOf` apart, for the converters whose target has neither (Gemini's subset
 * has no `$ref` or `allOf`; OpenAI strict mode has no `allOf` and allows nothing beside a
 * `$ref`). Both inline a reference with the keywords written beside it, and merge `allOf`
 * branches into one schema, the same way; each reports what it had to give up in its own words.
 */
import { isJsonObject, resolveLocalRef } from './json-schema';
import { createRecord } from './json-value';
import type { JsonSchema } from './types';

/** What a `$ref` (with whatever is written beside it) became. */
export type RefInlining =
  /** The target with the keywords beside the reference on top (they are more specific). */
  | { kind: 'inlined'; ref: string; node: JsonSchema; refs: readonly string[] }
  /** The reference is to a schema it is part of: inlining it would never end. */
  | { kind: 'recursive'; ref: string; siblings: JsonSchema }
  /** No local definition has that pointer; only the keywords beside it are left. */
  | { kind: 'unresolved'; ref: string; siblings: JsonSchema };

/**
 * Inline the reference of `node` (which has a string `$ref`). `refs` are the references being
 * inlined around it: meeting one again is recursion. An inlined target joins `refs`.
 */
export function inlineRef(node: JsonSchema, root: JsonSchema, refs: readonly string[]): RefInlining {
  const { $ref, ...siblings } = node;
  const ref = $ref as string;
  if (refs.includes(ref)) return { kind: 'recursive', ref, siblings };
  const target = resolveLocalRef(root, ref);
  if (target === undefined) return { kind: 'unresolved', ref, siblings };
  return { kind: 'inlined', ref, node: { ...target, ...siblings }, refs: [...refs, ref] };
}

/** `allOf` branches merged into their parent, with what could not be merged exactly. */
export interface AllOfMerge {
  /** The parent without `allOf`, every branch's keywords merged in. */
  merged: JsonSchema;
  /** `refs` plus the references of branches inlined. */
  refs: readonly string[];
  /** Branches left out because they refer to a schema they are part of. */
  recursive: { index: number; ref: string }[];
  /** Branches whose reference resolves to nothing; their other keywords were merged. */
  unresolved: { index: number; ref: string }[];
  /** Branches that are not schema objects (`false`, a number…); left out. `true` is just skipped. */
  invalid: number[];
  /** Keywords on which branches disagree; the first value was kept. */
  conflicts: { index: number; key: string }[];
}

/** Annotations whose disagreement changes nothing a value must satisfy. */
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples']);

/**
 * Merge `node.allOf` into `node`: `properties` are united (a property named in several branches
 * gets their keywords merged, later ones on top, as node parameters read it), `required`
 * united, every other keyword taken from the first place that has it, a different value
 * elsewhere reported as a conflict (annotations excepted).
 */
export function mergeAllOf(node: JsonSchema, root: JsonSchema, refs: readonly string[]): AllOfMerge {
  const { allOf, ...rest } = node;
  const result: AllOfMerge = {
    merged: createRecord(rest),
    refs,
    recursive: [],
    unresolved: [],
    invalid: [],
    conflicts: [],
  };
  if (!Array.isArray(allOf)) return result;
  const merged = result.merged;
  allOf.forEach((raw, index) => {
    if (raw === true) return;
    if (!isJsonObject(raw)) {
      result.invalid.push(index);
      return;
    }
    let branch: JsonSchema = raw;
    if (typeof raw.$ref === 'string') {
      const inlined = inlineRef(raw, root, refs);
      if (inlined.kind === 'recursive') {
        result.recursive.push({ index, ref: inlined.ref });
        return;
      }
      if (inlined.kind === 'unresolved') {
        result.unresolved.push({ index, ref: inlined.ref });
        branch = inlined.siblings;
      } else {
        branch = inlined.node;
        if (!result.refs.includes(inlined.ref)) result.refs = [...result.refs, inlined.ref];
      }
    }
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isJsonObject(value)) {
        const properties: JsonSchema = createRecord(isJsonObject(merged.properties) ? merged.properties : {});
        for (const [name, schema] of Object.entries(value)) {
          const earlier = properties[name];
          properties[name] =
            isJsonObject(earlier) && isJsonObject(schema) ? { ...earlier, ...schema } : schema;
        }
        merged.properties = properties;
      } else if (key === 'required' && Array.isArray(value)) {
        const required = Array.isArray(merged.required) ? merged.required : [];
        merged.required = [...new Set([...required, ...value])];
      } else if (!(key in merged)) {
        merged[key] = value;
      } else if (!ANNOTATIONS.has(key) && JSON.stringify(merged[key]) !== JSON.stringify(value)) {
        result.conflicts.push({ index, key });
      }
    }
  });
  return result;
}
