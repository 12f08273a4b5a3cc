/**
 * `#schema-compiler` in the browser (package.json `imports`): the same functions as
 * schema-validator.ts, but Ajv (about 45 KB of gzip) loads on demand, not with the page. Until
 * `loadSchemaCompiler()` has resolved, `isSchemaCompilerLoaded()` is false; the value checks
 * (lib/workflow/value-checks.ts), which load on demand themselves, load it with them.
 */
import type { JsonSchema } from './types';
import type { Result } from '../result';
import { onDemand } from '../on-demand';
import type * as SchemaValidatorModule from './schema-validator';
import type { UnsupportedPattern, ValidateFunction } from './schema-validator';

export type { ErrorObject, UnsupportedPattern, ValidateFunction } from './schema-validator';
export { describeAjvError, getFirstPathSegment } from './ajv-errors';

type SchemaValidator = typeof SchemaValidatorModule;

const validator = onDemand<SchemaValidator>(() => import('./schema-validator'));

export function isSchemaCompilerLoaded(): boolean {
  return validator.get() !== undefined;
}

/** Loads Ajv (once; a failed load is retried on the next call). */
export async function loadSchemaCompiler(): Promise<void> {
  await validator.load();
}

function getLoaded(what: string): SchemaValidator {
  const loaded = validator.get();
  if (!loaded) throw new Error(`${what} was called before loadSchemaCompiler() resolved.`);
  return loaded;
}

/** As schema-validator.ts's compileSchema; throws when called before loadSchemaCompiler resolved. */
export function compileSchema(schema: JsonSchema): Result<ValidateFunction, string> {
  return getLoaded('compileSchema').compileSchema(schema);
}

/** As schema-validator.ts's getUnsupportedPatterns (RE2 loads with Ajv). */
export function getUnsupportedPatterns(schema: JsonSchema): UnsupportedPattern[] {
  return getLoaded('getUnsupportedPatterns').getUnsupportedPatterns(schema);
}

/** As schema-validator.ts's collectPatternSkips. */
export function collectPatternSkips<T>(fn: () => T): { value: T; skipped: string[] } {
  return getLoaded('collectPatternSkips').collectPatternSkips(fn);
}
