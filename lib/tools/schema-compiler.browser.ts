/**
 * `#schema-compiler` in the browser (package.json `imports`): the same functions as
 * schema-validator.ts, but Ajv (about 45 KB of gzip) loads on demand, not with the page. Until
 * `loadSchemaCompiler()` has resolved, `isSchemaCompilerLoaded()` is false and the parameter
 * builder leaves values unchecked (lib/workflow/params.ts); the editor loads it after its first
 * paint and then checks every node (lib/editor/store.ts, `enableValueChecks`).
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
