/**
 * Compiling tool input schemas with Ajv. Real MCP schemas are draft-07 while newer ones say
 * 2020-12, and one Ajv class applies only its own draft's rules (docs/design.md §10.8), so the class is
 * chosen by `$schema`. Instances are created on first use: nothing runs at import time.
 *
 * The pure core reaches this module as `#schema-compiler` (package.json `imports`): on the
 * server, in tests and in the CLI that is this module; in the browser it is
 * schema-compiler.browser.ts, which loads this module on demand (Ajv is about 45 KB of gzip).
 */
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { err, ok, type Result } from '../result';
import { canonicalJson } from './canonical-json';
import { isJsonObject } from './json-schema';
import { setJsonMember } from './json-value';
import { collectPatternSkips, linearRegExp } from './linear-pattern';
import {
  SUBSCHEMA_KEYWORDS,
  SUBSCHEMA_MAP_KEYWORDS,
  withoutUnsupportedPatterns,
  type UnsupportedPattern,
} from './schema-patterns';
import type { JsonSchema } from './types';

export type { ErrorObject, UnsupportedPattern, ValidateFunction };
export { collectPatternSkips } from './linear-pattern';
export { describeAjvError, getFirstPathSegment } from './ajv-errors';

/** Whether compileSchema can be called now: always, here (see schema-compiler.browser.ts). */
export function isSchemaCompilerLoaded(): boolean {
  return true;
}

/** Resolves once compileSchema can be called: at once, here (see schema-compiler.browser.ts). */
export async function loadSchemaCompiler(): Promise<void> {}

/** Which JSON Schema dialect a schema declares; anything unrecognised is read as draft-07. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/**
 * Ajv's own meta-schema pass is off: its draft-07 copy checks `enum` with `uniqueItems`, which
 * Ajv does pairwise, so a 100,000-value enum took two minutes to compile. `checkSchema` does
 * that pass instead, in linear time (see there).
 */
// ownProperties: `required` and `properties` look at own members, so a value with a prototype
// (an object literal, JSON.parse) and one without (parseJson) validate alike: by default Ajv
// reads `data.__proto__` or `data.constructor`, which a plain `{}` inherits.
// code.regExp: patterns run on RE2, in linear time (linear-pattern.ts).
const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: true,
  allowUnionTypes: true,
  validateSchema: false,
  ownProperties: true,
  code: { regExp: linearRegExp },
};

const instances = new Map<SchemaDialect, Ajv>();

/** The dialect named by a schema's `$schema` keyword (draft-07 when absent or older). */
export function getSchemaDialect(schema: JsonSchema): SchemaDialect {
  const uri = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (uri.includes('2020-12')) return '2020-12';
  if (uri.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

/** The shared Ajv instance for a dialect, created on first use. */
export function getAjv(dialect: SchemaDialect): Ajv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv =
      dialect === '2020-12'
        ? new Ajv2020(AJV_OPTIONS)
        : dialect === '2019-09'
          ? new Ajv2019(AJV_OPTIONS)
          : new Ajv(AJV_OPTIONS);
    addFormats(ajv);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/** Most arrays within arrays (at any distance) a schema may hold for Ajv to compile it. */
export const MAX_ARRAY_NESTING = 16;

/** The most arrays on one path from the root of a JSON value to a leaf. Iterative. */
export function getArrayNesting(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, arrays] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const depth = Array.isArray(current) ? arrays + 1 : arrays;
    if (depth > max) max = depth;
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth]);
    }
  }
  return max;
}

/** Compiled validators by schema text, so equal schemas in fresh objects compile once. */
const byText = new Map<string, Result<ValidateFunction, string>>();
const MAX_CACHED = 512;

/**
 * Compile a schema with the Ajv class its `$schema` asks for. The compiled copy drops the
 * root `$schema` (the class already encodes it; older drafts would be unknown meta-schemas)
 * and `$id` (two tools sharing an id must not collide in the shared instance). A schema Ajv
 * refuses gives the reason as an error value.
 */
export function compileSchema(schema: JsonSchema): Result<ValidateFunction, string> {
  const text = JSON.stringify(schema);
  const cached = byText.get(text);
  if (cached) return cached;
  const arrays = getArrayNesting(schema);
  if (arrays > MAX_ARRAY_NESTING) {
    // Ajv's $ref inlining (`hasRef`) visits an array twice per level: 2^depth steps, which a
    // 30-deep `default` turns into a frozen server.
    return err(
      `The schema nests arrays ${arrays} deep (in a value such as a default or an enum); Toolflow reads schemas that nest them at most ${MAX_ARRAY_NESTING} deep.`,
    );
  }
  const dialect = getSchemaDialect(schema);
  const { $schema: _schema, $id: _id, ...body } = schema;
  const ajv = getAjv(dialect);
  // Patterns RE2 cannot express are left out, unchecked (getUnsupportedPatterns reports them).
  // A pattern left uncompiled for lack of time makes a validator that is not kept: the same
  // schema compiled later, with time to spare, checks it.
  const { value: compiled, skipped } = collectPatternSkips((): Result<ValidateFunction, string> => {
    const evaluated = withoutUnsupportedPatterns(body).schema;
    try {
      const problem = checkSchema(ajv, body);
      return problem === undefined ? ok(ajv.compile(evaluated)) : err(problem);
    } catch (error) {
      return err(error instanceof Error ? error.message : String(error));
    } finally {
      // The validator keeps what it needs; dropping the source keeps a long-lived server's
      // instance from growing with every declaration it ever saw.
      ajv.removeSchema(evaluated);
    }
  });
  if (skipped.length > 0) return compiled;
  if (byText.size >= MAX_CACHED) byText.delete(byText.keys().next().value as string);
  byText.set(text, compiled);
  return compiled;
}

/**
 * The patterns of a schema that compileSchema leaves out because RE2 cannot express them
 * (a backreference, a lookaround), with their JSON paths: values are not checked against them.
 */
export function getUnsupportedPatterns(schema: JsonSchema): UnsupportedPattern[] {
  return withoutUnsupportedPatterns(schema).unsupported;
}

/** Lists the meta-schemas want without duplicates, checked here instead of pair by pair. */
const UNIQUE_LISTS = ['enum', 'required'];
/** Lists longer than this are checked for duplicates here and shown to Ajv shortened. */
const LONG_LIST = 64;

/**
 * The meta-schema pass (is this a valid schema of its dialect?) in linear time: long `enum` and
 * `required` lists are checked for duplicates with a set of their JSON texts and shown to Ajv's
 * `validateSchema` cut to their first value; everything else is Ajv's own check. Returns Ajv's
 * wording (`schema is invalid: …`), or undefined when the schema is valid.
 */
function checkSchema(ajv: Ajv, schema: JsonSchema): string | undefined {
  let duplicate: string | undefined;
  const shorten = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => shorten(item, `${path}/${i}`));
    if (!isJsonObject(node)) return node;
    const out: Record<string, unknown> = { ...node };
    for (const key of UNIQUE_LISTS) {
      const list = node[key];
      if (!Array.isArray(list) || list.length <= LONG_LIST) continue;
      const seen = new Map<string, number>();
      list.forEach((value, i) => {
        const text = canonicalJson(value);
        const first = seen.get(text);
        if (first !== undefined && duplicate === undefined)
          duplicate = `schema is invalid: data${path}/${key} must NOT have duplicate items (items ## ${i} and ${first} are identical)`;
        else seen.set(text, i);
      });
      out[key] = list.slice(0, 1);
    }
    for (const key of SUBSCHEMA_MAP_KEYWORDS) {
      const map = node[key];
      if (!isJsonObject(map)) continue;
      const copy: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(map))
        setJsonMember(copy, name, shorten(sub, `${path}/${key}/${name}`));
      out[key] = copy;
    }
    for (const key of SUBSCHEMA_KEYWORDS) {
      if (key in node && (isJsonObject(node[key]) || Array.isArray(node[key])))
        out[key] = shorten(node[key], `${path}/${key}`);
    }
    return out;
  };
  const shown = shorten(schema, '');
  if (duplicate !== undefined) return duplicate;
  if (ajv.validateSchema(shown as JsonSchema)) return undefined;
  return `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
}
