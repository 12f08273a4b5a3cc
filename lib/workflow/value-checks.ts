/**
 * Value checks: a node's configured values against its tool's input schema (Ajv), for the
 * parameter builder (params.ts). The pure core reaches this module as `#value-checks`
 * (package.json `imports`); the browser gets value-checks.browser.ts instead, which loads this
 * module and Ajv together on demand: the editor's first paint shows the server's value problems
 * (lib/editor/store.ts, `knownValueProblems`), and checks values itself only once loaded.
 */
// `#schema-compiler` is lib/tools/schema-validator.ts, except in the browser (schema-compiler.browser.ts).
import {
  compileSchema,
  describeAjvError,
  getFirstPathSegment,
  isSchemaCompilerLoaded,
  loadSchemaCompiler,
  type ErrorObject,
  type ValidateFunction,
} from '#schema-compiler';
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

type Validator = { validate: ValidateFunction } | { reason: string };

/** The validator of each declaration (or the reason Ajv refused its schema), compiled once. */
const validators = new WeakMap<ToolDeclaration, Validator>();

function getValidator(decl: ToolDeclaration): Validator {
  let validator = validators.get(decl);
  if (!validator) {
    const compiled = compileSchema(isJsonObject(decl.inputSchema) ? decl.inputSchema : {});
    validator = compiled.ok ? { validate: compiled.value } : { reason: compiled.error };
    validators.set(decl, validator);
  }
  return validator;
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
  if ('reason' in validator) {
    problems.push({
      severity: 'warning',
      code: 'schema_unusable',
      message: `The input schema of tool "${decl.name}" could not be compiled (${validator.reason}); values were not checked.`,
    });
    return;
  }
  const checked = runValidator(validator.validate, effective);
  if (checked === true) return;
  let errors: ErrorObject[];
  if (Array.isArray(checked)) {
    errors = checked;
  } else {
    // Ajv threw (its deep-equal calls a value's own "valueOf"/"toString"; a schema that loops
    // through itself overflows the stack). Find the values it cannot check, report them, and
    // check the others without them so their problems still show.
    const uncheckable = new Map<string, string>();
    for (const name of Object.keys(effective)) {
      const alone = runValidator(validator.validate, { [name]: effective[name] });
      if (!(alone === true || Array.isArray(alone))) uncheckable.set(name, alone.reason);
    }
    const rest: Record<string, unknown> = {};
    for (const name of Object.keys(effective)) {
      if (!uncheckable.has(name)) setJsonMember(rest, name, effective[name]);
    }
    const again = uncheckable.size === 0 ? checked : runValidator(validator.validate, rest);
    if (!(again === true || Array.isArray(again))) {
      problems.push({
        severity: 'warning',
        code: 'invalid_value',
        message: `The arguments of tool "${decl.name}" could not be checked against its input schema (${again.reason}); check them by hand.`,
      });
      return;
    }
    for (const [name, reason] of uncheckable) {
      problems.push({
        severity: 'warning',
        code: 'invalid_value',
        message: `Parameter "${name}" could not be checked against the tool's schema (${reason}); check its value by hand.`,
        param: name,
      });
    }
    errors = again === true ? [] : again;
  }
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
