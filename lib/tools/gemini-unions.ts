/**
 * References and unions in Gemini's subset, which has no `$ref`, no `allOf`, no `oneOf` and no
 * type arrays: a reference is inlined (recursion is cut and sent as JSON text), `allOf` branches
 * are merged, a null branch or type becomes `nullable`, one remaining branch is folded into its
 * parent, and several branches or types become an `anyOf`.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { mergeAllOf, type RefInlining } from './schema-walk';
import { report, type ConvertChild, type ToGeminiContext } from './gemini-context';
import type { JsonSchema } from './types';

function reportRecursiveRef(ctx: ToGeminiContext, path: string, ref: string): void {
  report(
    ctx,
    joinPointer(path, '$ref'),
    'gemini_recursive_ref',
    `Recursive reference "${ref}" cannot be inlined for Gemini (it has no $ref); the recursion was cut here and the rest is sent as a string holding JSON. Send the schema as parametersJsonSchema to keep it.`,
  );
}

/**
 * What a reference to a schema it is part of becomes. Gemini cannot nest the shape again, nor
 * take an OBJECT without properties: the recursive part travels as JSON text.
 */
export function cutRecursion(
  inlined: Extract<RefInlining, { kind: 'recursive' }>,
  path: string,
  ctx: ToGeminiContext,
): JsonSchema {
  reportRecursiveRef(ctx, path, inlined.ref);
  const cut: JsonSchema = { type: ctx.typeName('string') };
  const description =
    typeof inlined.siblings.description === 'string' ? inlined.siblings.description : undefined;
  cut.description = description
    ? `${description} (recursive: same shape as its parent, written as a JSON string)`
    : 'Recursive: same shape as its parent, written as a JSON string.';
  return cut;
}

export function reportUnresolvedRef(ctx: ToGeminiContext, path: string, ref: string): void {
  report(
    ctx,
    joinPointer(path, '$ref'),
    'gemini_unresolved_ref',
    `Reference "${ref}" does not resolve to a local definition; only the keywords beside it were kept. Fix the reference.`,
  );
}

/** Report what merging `allOf` gave up: recursive, dangling or invalid branches, conflicts. */
export function mergeAllOfReported(
  node: JsonSchema,
  path: string,
  ctx: ToGeminiContext,
  refStack: readonly string[],
): { merged: JsonSchema; refs: readonly string[] } {
  const merge = mergeAllOf(node, ctx.root, refStack);
  for (const { index, ref } of merge.recursive)
    reportRecursiveRef(ctx, joinPointer(path, 'allOf', index), ref);
  for (const { index, ref } of merge.unresolved)
    reportUnresolvedRef(ctx, joinPointer(path, 'allOf', index), ref);
  for (const index of merge.invalid) {
    report(
      ctx,
      joinPointer(path, 'allOf', index),
      'gemini_bad_schema',
      'This allOf branch is not a schema object; it was left out for Gemini. Replace it with an object schema.',
    );
  }
  for (const { index, key } of merge.conflicts) {
    report(
      ctx,
      joinPointer(path, 'allOf', index, key),
      'gemini_allof_conflict',
      `"allOf" branches disagree on "${key}"; Gemini has no allOf, so the first value was kept. Simplify the schema or send it as parametersJsonSchema.`,
    );
  }
  return merge;
}

function isNullBranch(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (value.type === 'null') return true;
  return Array.isArray(value.type) && value.type.length === 1 && value.type[0] === 'null';
}

/** A schema with its unions settled: converted whole, or left with one type at most. */
export type SettledUnions =
  | { kind: 'converted'; schema: JsonSchema }
  /** `node` without `anyOf`/`oneOf`; `type` is its one type, if it names one. */
  | { kind: 'open'; node: JsonSchema; type: string | undefined; nullable: boolean };

/**
 * Take the unions of `node` apart: a null type or branch makes it nullable, a single remaining
 * branch is folded into it, several branches or types become one `anyOf` (converted here).
 */
export function settleUnions(
  node: JsonSchema,
  path: string,
  ctx: ToGeminiContext,
  convert: ConvertChild,
): SettledUnions {
  let nullable = node.nullable === true;
  let types: string[] = [];
  if (typeof node.type === 'string') types = [node.type];
  else if (Array.isArray(node.type)) types = node.type.filter((t): t is string => typeof t === 'string');
  if (types.includes('null')) {
    nullable = true;
    types = types.filter((t) => t !== 'null');
  }

  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (!Array.isArray(branches)) continue;
    const { [keyword]: _drop, ...rest } = node;
    const nonNull = branches
      .map((branch, index) => ({ branch, index }))
      .filter(({ branch }) => {
        if (isNullBranch(branch)) {
          nullable = true;
          return false;
        }
        return true;
      });
    if (nonNull.length === 1 && types.length === 0) {
      // Fold the one real branch into this node; keywords written here (a description, a
      // default) annotate it and win over the branch's own.
      const only = nonNull[0].branch;
      const folded = convert(isJsonObject(only) ? { ...only, ...rest } : rest, path);
      if (nullable) folded.nullable = true;
      return { kind: 'converted', schema: folded };
    }
    if (nonNull.length > 1) {
      const schema = convertBranches(rest, keyword, nonNull, nullable, path, ctx, convert);
      return { kind: 'converted', schema };
    }
    node = rest;
  }

  if (types.length > 1)
    return { kind: 'converted', schema: splitTypes(node, types, nullable, path, convert) };
  return { kind: 'open', node, type: types[0], nullable };
}

/** Several non-null branches of `anyOf` or `oneOf`: an `anyOf`, the annotations of `rest` outside. */
function convertBranches(
  rest: JsonSchema,
  keyword: 'anyOf' | 'oneOf',
  branches: { branch: unknown; index: number }[],
  nullable: boolean,
  path: string,
  ctx: ToGeminiContext,
  convert: ConvertChild,
): JsonSchema {
  if (keyword === 'oneOf') {
    report(
      ctx,
      joinPointer(path, keyword),
      'gemini_oneof_as_anyof',
      'Gemini has no oneOf; it was sent as anyOf, so "exactly one" became "at least one".',
    );
  }
  const out: JsonSchema = {};
  if (typeof rest.description === 'string') out.description = rest.description;
  else if (typeof rest.title === 'string') out.description = rest.title;
  out.anyOf = branches.map(({ branch, index }) => convert(branch, joinPointer(path, keyword, index)));
  if (nullable) out.nullable = true;
  if ('default' in rest) out.default = rest.default;
  return out;
}

/** Gemini has no type arrays: one anyOf branch per type, annotations on the outside. */
function splitTypes(
  node: JsonSchema,
  types: string[],
  nullable: boolean,
  path: string,
  convert: ConvertChild,
): JsonSchema {
  const { type: _type, description, title, default: dflt, ...rest } = node;
  const out: JsonSchema = {};
  if (typeof description === 'string') out.description = description;
  else if (typeof title === 'string') out.description = title;
  out.anyOf = types.map((t) => convert({ ...rest, type: t }, path));
  if (nullable) out.nullable = true;
  if (dflt !== undefined) out.default = dflt;
  return out;
}
