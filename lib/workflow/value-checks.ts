/**
 * Value checks: a node's configured values against its tool's input schema (Ajv), for the
 * parameter builder (params.ts). The pure core reaches this module as `#value-checks`
 * (package.json `imports`); the browser gets value-checks.browser.ts instead, which loads this
 * module and Ajv together on demand: the editor's first paint shows the server's value problems
 * (lib/editor/store.ts, `knownValueProblems`), and checks values itself only once loaded.
 */
// `#schema-compiler` is lib/tools/schema-validator.ts, except in the browser (schema-compiler.browser.ts).
import {
  collectPatternSkips,
  compileSchema,
  describeAjvError,
  getFirstPathSegment,
  getUnsupportedPatterns,
  isSchemaCompilerLoaded,
  loadSchemaCompiler,
  type ErrorObject,
  type UnsupportedPattern,
  type ValidateFunction,
} from '#schema-compiler';
import { decodePointerSegment } from '../result';
import { isJsonObject } from '../tools/json-schema';
import { setJsonMember } from '../tools/json-value';
import type { ToolDeclaration } from '../tools/types';
import type { InputParameter, NodeIssue } from './types';

/** Whether `addValueProblems` can be called now: once the schema compiler is (always, in Node). */
export function isValueChecksLoaded(): boolean {
  return isSchemaCompilerLoaded();
}

/** Resolves once `addValueProblems` can be called (at once in Node; see value-checks.browser.ts). */
export function loadValueChecks(): Promise<void> {
  return loadSchemaCompiler();
}

type Validator = ({ validate: ValidateFunction } | { reason: string }) & {
  /** Patterns of the schema that are not evaluated (RE2 cannot express them). */
  unsupported: UnsupportedPattern[];
};

/** The validator of each declaration (or the reason Ajv refused its schema), compiled once. */
const validators = new WeakMap<ToolDeclaration, Validator>();

function getValidator(decl: ToolDeclaration): Validator {
  const known = validators.get(decl);
  if (known) return known;
  const schema = isJsonObject(decl.inputSchema) ? decl.inputSchema : {};
  const { value: validator, skipped } = collectPatternSkips((): Validator => {
    const compiled = compileSchema(schema);
    const unsupported = getUnsupportedPatterns(schema);
    return compiled.ok ? { validate: compiled.value, unsupported } : { reason: compiled.error, unsupported };
  });
  // Built while the run had no time left for its patterns: used now, built again next time.
  if (skipped.length === 0) validators.set(decl, validator);
  return validator;
}

/** A pattern as a message quotes it, as written (backslashes single): long ones cut. */
function quotePattern(pattern: string): string {
  return `"${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern}"`;
}

/** The top-level parameter a schema path is under (`/properties/x/…` → x), if one of `params`. */
function getPathParam(path: string, params: InputParameter[]): string | undefined {
  const [, keyword, segment] = path.split('/');
  if (keyword !== 'properties' || segment === undefined) return undefined;
  const name = decodePointerSegment(segment);
  return params.some((p) => p.name === name) ? name : undefined;
}

/** One warning per pattern of the schema that is not evaluated, naming it and its path. */
function addUnsupportedPatterns(
  decl: ToolDeclaration,
  unsupported: UnsupportedPattern[],
  params: InputParameter[],
  problems: NodeIssue[],
): void {
  for (const { path, pattern, reason } of unsupported) {
    const param = getPathParam(path, params);
    problems.push({
      severity: 'warning',
      code: 'unsupported_pattern',
      message: `The pattern ${quotePattern(pattern)} at ${path} of tool "${decl.name}" uses ${reason}, which Toolflow does not evaluate: only patterns that can be checked in linear time are. Values are not checked against it; rewrite the pattern without it to have them checked.`,
      ...(param === undefined ? {} : { param }),
    });
  }
}

/**
 * Checks a node's configured values (`effective`: args and defaults, never edge blanks) against
 * its tool's input schema and appends what is wrong to `problems`, one issue per parameter and
 * message; an invalid default is a warning (the tool author's slip), any other value an error.
 */
export function addValueProblems(
  decl: ToolDeclaration,
  effective: Record<string, unknown>,
  params: InputParameter[],
  connected: ReadonlySet<string>,
  hasDefaultValues: boolean,
  problems: NodeIssue[],
): void {
  const validator = getValidator(decl);
  addUnsupportedPatterns(decl, validator.unsupported, params, problems);
  if ('reason' in validator) {
    problems.push({
      severity: 'warning',
      code: 'schema_unusable',
      message: `The input schema of tool "${decl.name}" could not be compiled (${validator.reason}); values were not checked.`,
    });
    return;
  }
  const { validate } = validator;
  const { value: errors, skipped } = collectPatternSkips(() =>
    getValueErrors(decl, validate, effective, problems),
  );
  if (skipped.length > 0) {
    const more = skipped.length > 1 ? ` (and ${skipped.length - 1} more)` : '';
    problems.push({
      severity: 'warning',
      code: 'pattern_unchecked',
      message: `Some values of tool "${decl.name}" were not checked against the pattern ${quotePattern(skipped[0])}${more}: checking them would take too long (a very long value, or very many checks at once). Check them by hand.`,
    });
  }
  if (errors === undefined) return;
  const seen = new Set<string>();
  for (const error of errors) {
    const atRoot = error.instancePath === '';
    // Top-level `required` is the builder's own job: a missing required input is either
    // edge-fed (fine) or zero-filled (already an error above).
    if (atRoot && error.keyword === 'required') continue;
    const param =
      getFirstPathSegment(error.instancePath) ??
      (typeof error.params.missingProperty === 'string' ? error.params.missingProperty : undefined);
    if (param !== undefined && connected.has(param)) continue;
    const text = describeAjvError(error);
    const where = param === undefined ? '' : atRoot ? ` (${error.keyword})` : ` at ${error.instancePath}`;
    const message =
      param === undefined
        ? `The arguments of tool "${decl.name}" ${text}: change them to match the tool's schema.`
        : `Parameter "${param}"${where} ${text}: change it to match the tool's schema.`;
    const key = `${param ?? ''}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // A default that breaks its own schema is the tool author's slip, not the user's.
    const fromDefault =
      hasDefaultValues &&
      param !== undefined &&
      params.some((p) => p.name === param && p.origin === 'default');
    problems.push({
      severity: fromDefault ? 'warning' : 'error',
      code: 'invalid_value',
      message,
      ...(param === undefined ? {} : { param }),
    });
  }
}

/**
 * The schema's errors for the values, or undefined when they could not be checked at all (said
 * in `problems`). When Ajv throws (its deep-equal calls a value's own "valueOf"/"toString"; a
 * schema that loops through itself overflows the stack), the values it cannot check are found,
 * reported, and the others checked without them so their problems still show.
 */
function getValueErrors(
  decl: ToolDeclaration,
  validate: ValidateFunction,
  effective: Record<string, unknown>,
  problems: NodeIssue[],
): ErrorObject[] | undefined {
  const checked = runValidator(validate, effective);
  if (checked === true) return [];
  if (Array.isArray(checked)) return checked;
  const uncheckable = new Map<string, string>();
  for (const name of Object.keys(effective)) {
    const alone = runValidator(validate, { [name]: effective[name] });
    if (!(alone === true || Array.isArray(alone))) uncheckable.set(name, alone.reason);
  }
  const rest: Record<string, unknown> = {};
  for (const name of Object.keys(effective)) {
    if (!uncheckable.has(name)) setJsonMember(rest, name, effective[name]);
  }
  const again = uncheckable.size === 0 ? checked : runValidator(validate, rest);
  if (!(again === true || Array.isArray(again))) {
    problems.push({
      severity: 'warning',
      code: 'invalid_value',
      message: `The arguments of tool "${decl.name}" could not be checked against its input schema (${again.reason}); check them by hand.`,
    });
    return undefined;
  }
  for (const [name, reason] of uncheckable) {
    problems.push({
      severity: 'warning',
      code: 'invalid_value',
      message: `Parameter "${name}" could not be checked against the tool's schema (${reason}); check its value by hand.`,
      param: name,
    });
  }
  return again === true ? [] : again;
}

/**
 * Run a compiled validator without letting it throw: true when the value is valid, its errors
 * when not, and the reason when Ajv itself failed on the value.
 */
function runValidator(validate: ValidateFunction, value: unknown): true | ErrorObject[] | { reason: string } {
  try {
    if (validate(value)) return true;
    return [...(validate.errors ?? [])];
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const short = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    if (error instanceof RangeError) return { reason: `the check recursed without end: ${short}` };
    if (/\b(valueOf|toString)\b/.test(text)) {
      return {
        reason: `an object in it has its own "valueOf" or "toString" member, which the schema checker cannot compare: ${short}`,
      };
    }
    return { reason: short };
  }
}
