/**
 * Compiling tool input schemas with Ajv. Real MCP schemas are draft-07 while newer ones say
 * 2020-12, and one Ajv class applies only its own draft's rules (STACK-NOTES), so the class is
 * chosen by `$schema`. Instances are created on first use: nothing runs at import time.
 */
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { err, ok, type Result } from '../result';
import type { JsonSchema } from './types';

export type { ErrorObject, ValidateFunction };

/** Which JSON Schema dialect a schema declares; anything unrecognised is read as draft-07. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

const AJV_OPTIONS: Options = { strict: false, allErrors: true, allowUnionTypes: true };

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
  const dialect = getSchemaDialect(schema);
  const { $schema: _schema, $id: _id, ...body } = schema;
  const ajv = getAjv(dialect);
  let compiled: Result<ValidateFunction, string>;
  try {
    compiled = ok(ajv.compile(body));
  } catch (error) {
    compiled = err(error instanceof Error ? error.message : String(error));
  } finally {
    // The validator keeps what it needs; dropping the source keeps a long-lived server's
    // instance from growing with every declaration it ever saw.
    ajv.removeSchema(body);
  }
  if (byText.size >= MAX_CACHED) byText.delete(byText.keys().next().value as string);
  byText.set(text, compiled);
  return compiled;
}

/** Decode the first segment of an Ajv `instancePath` (`/a~1b/0` → `a/b`); undefined at the root. */
export function getFirstPathSegment(instancePath: string): string | undefined {
  if (instancePath.length < 2) return undefined;
  const end = instancePath.indexOf('/', 1);
  const raw = end === -1 ? instancePath.slice(1) : instancePath.slice(1, end);
  return raw.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A one-line reading of an Ajv error, with the allowed values when it is an enum or const. */
export function describeAjvError(error: ErrorObject): string {
  const message = error.message ?? `fails "${error.keyword}"`;
  if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
    return `${message}: ${error.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
  }
  if (error.keyword === 'const') return `${message}: ${JSON.stringify(error.params.allowedValue)}`;
  if (error.keyword === 'additionalProperties') {
    return `${message}: "${String(error.params.additionalProperty)}"`;
  }
  return message;
}
