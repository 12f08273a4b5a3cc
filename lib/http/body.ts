import 'server-only';
/**
 * Request bodies: size-limited, JSON-parsed with a nesting limit, then validated against a JSON
 * Schema that sits beside the route. Errors name the field (`name: must be a string`).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { getStorableIssues, MAX_JSON_DEPTH } from '../tools/storable';
import { linearRegExp } from '../tools/linear-pattern';
import { AppError } from './errors';
import { parseJson } from '../tools/json-value';

/** 5 MB: a 1000-node workflow export is about 1 MB. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** How deep a body may nest: a declaration or value at its limit and the request around it. */
export { MAX_JSON_DEPTH };

/** Reads the body as text, refusing more than `limit` bytes without buffering all of it. */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limit: number) {
  return new AppError(
    'payload_too_large',
    `The request body is larger than ${Math.round(limit / 1024 / 1024)} MB. Split the workflow or remove large values.`,
  );
}

/**
 * True for a Content-Type whose MIME type essence (the `type/subtype` before any parameter) is
 * JSON: `application/json` or a `+json` type such as `application/merge-patch+json`. Parameters
 * never count, so `text/plain; x=json` is not JSON: it is what a cross-site form can send without
 * a CORS preflight.
 */
export function isJsonContentType(header: string): boolean {
  const essence = header.split(';')[0].trim().toLowerCase();
  return essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence);
}

/** Parses a JSON body, with a size and a nesting limit; malformed JSON says where. */
export async function readJson(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (type && !isJsonContentType(type)) {
    throw new AppError(
      'unsupported_media_type',
      `Send the body as JSON (Content-Type: application/json), not ${type}.`,
    );
  }
  const text = await readBodyText(request, limit);
  if (!text.trim()) throw new AppError('bad_request:body', 'The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw new AppError('bad_request:json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  // Nothing in a body may be something the database cannot store: one check for every route.
  const [problem] = getStorableIssues(value, {
    at: '',
    what: 'The request body',
    maxDepth: MAX_JSON_DEPTH,
  });
  if (problem) {
    const where = problem.path || '(the body)';
    throw problem.code === 'too_deep'
      ? new AppError(
          'bad_request:depth',
          `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels (level ${MAX_JSON_DEPTH + 1} starts at ${where}). Flatten it.`,
          { details: { issues: [problem] } },
        )
      : new AppError('bad_request:text', `${where}: ${problem.message}`, { details: { issues: [problem] } });
  }
  return value;
}

// Patterns run on RE2 (linear time), as everywhere in Toolflow (lib/tools/linear-pattern.ts).
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  allowUnionTypes: true,
  code: { regExp: linearRegExp },
});
addFormats(ajv);

/** Compiles a request schema once (at module load of the route). */
export function compileRequestSchema<T>(schema: object): ValidateFunction<T> {
  return ajv.compile<T>(schema);
}

/** Formats Ajv errors as `field: problem` lines, naming the field a person would recognise. */
export function describeAjvErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const missing = (e.params as { missingProperty?: string }).missingProperty;
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const field = missing
        ? base
          ? `${base}.${missing}`
          : missing
        : extra
          ? base
            ? `${base}.${extra}`
            : extra
          : base || 'body';
      const message = missing ? 'is required' : extra ? 'is not a known field' : e.message;
      return `${field}: ${message}`;
    })
    .filter((line, i, all) => all.indexOf(line) === i)
    .join('; ');
}

/** Reads and validates a JSON body; 400 naming the first bad fields otherwise. */
export async function parseJsonBody<T>(
  request: Request,
  validate: ValidateFunction<T>,
  limit?: number,
): Promise<T> {
  const body = await readJson(request, limit);
  if (!validate(body)) {
    const message = describeAjvErrors(validate.errors);
    const field = message.split(':')[0];
    throw new AppError(`bad_request:${field}`, `Invalid request: ${message}`);
  }
  return body;
}
