/**
 * `#schema-compiler` in the browser (package.json `imports`): the same functions as
 * schema-validator.ts, but Ajv (about 45 KB of gzip) loads on demand, not with the page. Until
 * `loadSchemaCompiler()` has resolved, `isSchemaCompilerLoaded()` is false; the value checks
 * (lib/workflow/value-checks.ts), which load on demand themselves, load it with them.
 */
import type { JsonSchema } from './types';
import type { Result } from '../result';
import type * as SchemaValidatorModule from './schema-validator';
import type { ValidateFunction } from './schema-validator';

export type { ErrorObject, ValidateFunction } from './schema-validator';
export { describeAjvError, getFirstPathSegment } from './ajv-errors';

type SchemaValidator = typeof SchemaValidatorModule;

let loaded: SchemaValidator | undefined;
let loading: Promise<void> | undefined;

export function isSchemaCompilerLoaded(): boolean {
  return loaded !== undefined;
}

/** Loads Ajv (once; a failed load is retried on the next call). */
export function loadSchemaCompiler(): Promise<void> {
  loading ??= import('./schema-validator').then(
    (module) => {
      loaded = module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** As schema-validator.ts's compileSchema; throws when called before loadSchemaCompiler resolved. */
export function compileSchema(schema: JsonSchema): Result<ValidateFunction, string> {
  if (!loaded) throw new Error('compileSchema was called before loadSchemaCompiler() resolved.');
  return loaded.compileSchema(schema);
}
