import 'server-only';
/**
 * One error type at the HTTP edge (vercel/ai-chatbot `lib/errors.ts`): a code such as
 * `not_found:workflow` maps to a status; the original error is kept as `cause` for the log and
 * never sent to the client.
 */
import type { ErrorCode, ErrorKind } from '../api/types';
import { MAX_VALUE_DEPTH } from '../tools/storable';
import { getOidcConfigProblem } from './oidc-config';
import { getSecretConfigProblem, MISCONFIGURED_HEADERS } from './secret-config';

export type { ErrorCode, ErrorKind };

const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra JSON the client may use (e.g. the current copy on 409, the issue list on 422). */
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, { cause: options?.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS[code.split(':')[0] as ErrorKind];
    this.details = options?.details;
  }
}

/** True for errors that mean "the database cannot be reached right now". */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P0[1-3]|08\d{3}|53300)$/.test(code)
    )
      return true;
    if (
      typeof message === 'string' &&
      /ECONNREFUSED|Connection terminated|terminating connection|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|Can't reach database|connection (is )?closed|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
    if (name === 'DriverAdapterError' && typeof message === 'string' && /connect/i.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True for errors that mean "the database cannot store this value": a NUL character in text
 * (SQLSTATE 22021), or JSON that Prisma refuses (nested too deep, an unpaired surrogate). The
 * routes check what they are sent first and name the place (lib/tools/storable.ts); this is the
 * net under those checks, for a value that reaches the database some other way (a path parameter).
 */
export function isUnstorableValueError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '22021') return true;
    if (
      typeof message === 'string' &&
      /invalid byte sequence for encoding "UTF8": 0x00|JSON Error: (recursion limit exceeded|unexpected end of hex escape|.*surrogate)/.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Maps anything thrown in a route to a JSON response `{code, message, ...details}`. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    // A 429 says when to retry in the standard header too, so clients and proxies can honour it.
    const retryAfter = error.details?.retryAfterSeconds;
    return Response.json(
      { code: error.code, message: error.message, ...error.details },
      {
        status: error.status,
        ...(typeof retryAfter === 'number' ? { headers: { 'retry-after': String(retryAfter) } } : {}),
      },
    );
  }
  if (isDatabaseUnavailable(error)) {
    return Response.json(
      {
        code: 'unavailable:database',
        message:
          'The database cannot be reached right now. Your change was not saved; try again in a moment.',
      },
      { status: 503, headers: { 'retry-after': '2' } },
    );
  }
  if (isUnstorableValueError(error)) {
    return Response.json(
      {
        code: 'bad_request:unstorable',
        message: `The request holds a value the database cannot store: a NUL character (\\u0000), an unpaired surrogate, or JSON nested deeper than ${MAX_VALUE_DEPTH} levels. Remove it and try again.`,
      },
      { status: 400 },
    );
  }
  console.error('Unhandled error in API route:', error);
  return Response.json(
    { code: 'internal', message: 'Something went wrong on the server. The error was logged.' },
    { status: 500 },
  );
}

/**
 * 503 with the reason when the server cannot work (in production without a usable
 * `TOOLFLOW_SECRET`, or with half a single sign-on configuration), health included, so an API
 * client reads what to fix instead of a failure on its first owner cookie. Pages get the same from
 * proxy.ts, which does not run for the API.
 */
function getMisconfiguredResponse(): Response | undefined {
  const problem = getSecretConfigProblem(process.env) ?? getOidcConfigProblem(process.env);
  if (!problem) return undefined;
  return Response.json(
    { ok: false, ready: false, code: 'unavailable:configuration', message: problem },
    { status: 503, headers: MISCONFIGURED_HEADERS },
  );
}

/**
 * Wraps a route handler so every failure becomes a JSON error response, and a misconfigured
 * server answers 503 with the reason before the handler runs.
 */
export function withErrors<A extends unknown[]>(handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    const misconfigured = getMisconfiguredResponse();
    if (misconfigured) return misconfigured;
    try {
      return await handler(...args);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
