/**
 * The browser's one way to call Toolflow's API: every call answers an `ApiResult` — the body on
 * success, or one `ApiError` with `{code, message, issues}` — and never throws, except an abort
 * the caller asked for. The request and response types are the routes' own (lib/api/types.ts).
 * The calls of each part of the API are in workflows.ts, toolkits.ts and plan.ts beside this
 * file (apart, so a page loads only the calls it makes). Every call takes an optional `fetch`, so
 * the autosave engine and tests can call the real route handlers without a browser.
 */
import type { Issue, Result } from '../result';
import type { ErrorBody, ErrorCode, Jsonified } from './types';
import { adoptJson } from '../tools/json-value';

/** Why a call failed. */
export interface ApiError {
  /** The HTTP status; 0 when no answer came. */
  status: number;
  /**
   * The server's code (`conflict:version`, `unprocessable:declarations`, …); `network` when the
   * server did not answer, `bad_response` when its answer was not the JSON this route sends.
   */
  code: ErrorCode | 'network' | 'bad_response';
  /** A sentence for the person: what failed and what to do. */
  message: string;
  /** Problems located by JSON path, when the server sent them (an import, a declarations file). */
  issues: Issue[];
  /** The error body as sent, for a route's details (`current` on a 409, `secrets`). */
  body: Jsonified<ErrorBody> | null;
}

export type ApiResult<T> = Result<T, ApiError>;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface CallOptions {
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  signal?: AbortSignal;
}

export interface RequestOptions extends CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is, as JSON (a file the person picked). */
  text?: string;
  /** Names the action in messages that have no server message: "Loading toolkits failed …". */
  what: string;
  accept?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (error as Error | undefined)?.name === 'AbortError' || signal?.aborted === true;
}

function readIssues(value: unknown): Issue[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isRecord)
    .filter((i) => typeof i.message === 'string')
    .map((i) => ({
      path: typeof i.path === 'string' ? i.path : '',
      message: i.message as string,
      ...(typeof i.code === 'string' ? { code: i.code } : {}),
    }));
}

/** The ApiError of an answer that is not 2xx, from its `{code, message, issues}` when it has one. */
export async function readApiError(res: Response, what: string): Promise<ApiError> {
  const body: unknown = await res.json().catch(() => undefined);
  if (isRecord(body) && typeof body.message === 'string') {
    // An MCP failure lists its problems under `mcp` (app/api/toolkits/access.ts).
    const issues = [
      ...readIssues(body.issues),
      ...readIssues(isRecord(body.mcp) ? body.mcp.issues : undefined),
    ];
    return {
      status: res.status,
      code: typeof body.code === 'string' ? (body.code as ErrorCode) : 'bad_response',
      message: body.message,
      issues,
      body: body as Jsonified<ErrorBody>,
    };
  }
  return {
    status: res.status,
    code: 'bad_response',
    message: `${what} failed (HTTP ${res.status}). Check that the Toolflow server is running and try again.`,
    issues: [],
    body: null,
  };
}

/** The ApiError for a request that got no answer. */
export function getNetworkError(error: unknown, what: string): ApiError {
  return {
    status: 0,
    code: 'network',
    message: `${what} failed: the server did not answer (${(error as Error).message}). Check your connection and try again.`,
    issues: [],
    body: null,
  };
}

/**
 * The message and every located issue not already in it, one per line: for a place that shows
 * the whole error (a declarations file with several problems).
 */
export function describeApiError(error: ApiError): string {
  const details = error.issues.map((i) => `${i.path ? `${i.path}: ` : ''}${i.message}`);
  const rest = details.filter((d) => !error.message.includes(d));
  return rest.length > 0 ? `${error.message}\n${rest.join('\n')}` : error.message;
}

/** Sends one request; the raw Response on 2xx, an ApiError otherwise. Rethrows an abort. */
export async function send(path: string, opts: RequestOptions): Promise<ApiResult<Response>> {
  const headers: Record<string, string> = {};
  if (opts.json !== undefined || opts.text !== undefined) headers['content-type'] = 'application/json';
  if (opts.accept) headers.accept = opts.accept;
  const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.text;
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(path, {
      method: opts.method ?? 'GET',
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (error) {
    if (isAbort(error, opts.signal)) throw error;
    return { ok: false, error: getNetworkError(error, opts.what) };
  }
  if (!res.ok) return { ok: false, error: await readApiError(res, opts.what) };
  return { ok: true, value: res };
}

/** Calls a JSON route. A 204 answers `null`. */
export async function callApi<T>(path: string, opts: RequestOptions): Promise<ApiResult<T>> {
  const sent = await send(path, opts);
  if (!sent.ok) return sent;
  const res = sent.value;
  if (res.status === 204) return { ok: true, value: null as T };
  try {
    return { ok: true, value: adoptJson(await res.json()) as T };
  } catch (error) {
    if (isAbort(error, opts.signal)) throw error;
    return {
      ok: false,
      error: {
        status: res.status,
        code: 'bad_response',
        message: `${opts.what} failed: the server's answer was cut off or not JSON. Try again.`,
        issues: [],
        body: null,
      },
    };
  }
}

/** Opens a route that answers an NDJSON stream (lib/editor/ndjson.ts reads it). */
export async function openNdjsonStream(
  path: string,
  opts: Omit<RequestOptions, 'accept'>,
): Promise<ApiResult<ReadableStream<Uint8Array>>> {
  const sent = await send(path, { ...opts, accept: 'application/x-ndjson' });
  if (!sent.ok) return sent;
  if (!sent.value.body) {
    return {
      ok: false,
      error: {
        status: sent.value.status,
        code: 'bad_response',
        message: `${opts.what} failed: the server answered without a stream. Try again.`,
        issues: [],
        body: null,
      },
    };
  }
  return { ok: true, value: sent.value.body };
}
