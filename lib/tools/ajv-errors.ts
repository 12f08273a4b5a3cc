/**
 * Reading Ajv's errors, without Ajv itself: the browser's schema compiler
 * (schema-compiler.browser.ts) loads Ajv on demand, and these are needed either way.
 */
import type { ErrorObject } from 'ajv';
import { decodePointerSegment } from '../result';

/** Decode the first segment of an Ajv `instancePath` (`/a~1b/0` → `a/b`); undefined at the root. */
export function getFirstPathSegment(instancePath: string): string | undefined {
  if (instancePath.length < 2) return undefined;
  const end = instancePath.indexOf('/', 1);
  const raw = end === -1 ? instancePath.slice(1) : instancePath.slice(1, end);
  return decodePointerSegment(raw);
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
