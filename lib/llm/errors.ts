import 'server-only';
/**
 * What went wrong talking to a model endpoint, said so a person can act on it, and whether it is
 * worth retrying. The planner loop only sees these values (ModelEvent `error`), never SDK errors.
 */
import OpenAI from 'openai';
import type { ModelErrorKind } from '../planner/types';

/** A failed request, classified. */
export interface ClassifiedError {
  kind: ModelErrorKind;
  message: string;
  status?: number;
  /** Worth another attempt (rate limit, overload, a dropped connection). */
  retryable: boolean;
  /** How long the endpoint asked us to wait, when it said so. */
  retryAfterMs?: number;
}

/** Where the request went, for messages. */
export interface EndpointInfo {
  baseURL: string;
  model: string;
  timeoutMs: number;
}

// A 400 that names tools, functions or tool_choice means "this endpoint/model cannot do native
// function calling" (vLLM without --enable-auto-tool-choice, older Ollama models, proxies).
const ABOUT_TOOLS =
  /\btools?\b|tool_choice|tool[ _-]?call|function[ _-]?call|\bfunctions?\b|parallel_tool_calls/i;

/** Classify anything the SDK (or the stream) threw. */
export function classifyError(error: unknown, endpoint: EndpointInfo, aborted: boolean): ClassifiedError {
  if (aborted || error instanceof OpenAI.APIUserAbortError) {
    return { kind: 'cancelled', message: 'Cancelled.', retryable: false };
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return {
      kind: 'timeout',
      message: `The model endpoint ${endpoint.baseURL} did not answer within ${formatSeconds(endpoint.timeoutMs)}. Check that it is reachable, or allow more time with TOOLFLOW_LLM_TIMEOUT_MS.`,
      retryable: false,
    };
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return {
      kind: 'network',
      message: `Could not reach the model endpoint ${endpoint.baseURL} (${error.message}${cause}). Check OPENAI_BASE_URL and the network.`,
      retryable: true,
    };
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return classifyStatus(
      error.status,
      getErrorMessage(error),
      getErrorParam(error),
      error.headers,
      endpoint,
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return {
    kind: 'bad_response',
    message: `The model endpoint ${endpoint.baseURL} sent a reply Toolflow could not read (${reason}). Check that OPENAI_BASE_URL points at an OpenAI-compatible API.`,
    retryable: false,
  };
}

function classifyStatus(
  status: number,
  detail: string,
  param: string | undefined,
  headers: Headers | undefined,
  endpoint: EndpointInfo,
): ClassifiedError {
  const said = detail === '' ? `HTTP ${status}` : `HTTP ${status}: ${detail}`;
  if (status === 400 && (ABOUT_TOOLS.test(detail) || (param !== undefined && ABOUT_TOOLS.test(param)))) {
    return { kind: 'tools_unsupported', status, message: said, retryable: false };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'http',
      status,
      message: `The model endpoint refused the request (${said}). Check OPENAI_API_KEY.`,
      retryable: false,
    };
  }
  if (status === 404) {
    return {
      kind: 'http',
      status,
      message: `The model endpoint has no such model or path (${said}). Check TOOLFLOW_MODEL ("${endpoint.model}") and OPENAI_BASE_URL (it usually ends in /v1).`,
      retryable: false,
    };
  }
  if (status === 429) {
    return {
      kind: 'rate_limited',
      status,
      message: `The model endpoint is rate limiting Toolflow (${said}). Wait a moment and plan again, or use a key with a higher limit.`,
      retryable: true,
      ...getRetryAfter(headers),
    };
  }
  if (status === 408 || status === 409 || status >= 500) {
    return {
      kind: 'http',
      status,
      message: `The model endpoint failed (${said}). Try again later.`,
      retryable: true,
      ...getRetryAfter(headers),
    };
  }
  return {
    kind: 'http',
    status,
    message: `The model endpoint rejected the request (${said}).`,
    retryable: false,
  };
}

function getErrorMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  // The SDK's message starts with the status; keep only the server's words.
  return error.message.replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, '');
}

function getErrorParam(error: InstanceType<typeof OpenAI.APIError>): string | undefined {
  return typeof error.param === 'string' ? error.param : undefined;
}

function getRetryAfter(headers: Headers | undefined): { retryAfterMs?: number } {
  if (!headers) return {};
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return { retryAfterMs: ms };
  const raw = headers.get('retry-after');
  if (raw === null) return {};
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return { retryAfterMs: seconds * 1000 };
  const date = Date.parse(raw);
  return Number.isFinite(date) ? { retryAfterMs: Math.max(0, date - Date.now()) } : {};
}

/** A duration for people: `20 ms`, `1.5 s`, `60 s`. */
export function formatSeconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Retry policy: bounded attempts, exponential backoff with jitter, a cap on any one wait. */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8000 };

/**
 * How long to wait before retry number `attempt` (1-based): what the server asked for, else
 * base·2^(attempt−1) minus up to 25 % jitter; never more than `maxDelayMs`, so a server asking
 * for an hour cannot hang a planning run.
 */
export function getRetryDelay(
  attempt: number,
  policy: RetryPolicy,
  retryAfterMs?: number,
  random = Math.random,
): number {
  const wanted = retryAfterMs ?? policy.baseDelayMs * 2 ** (attempt - 1) * (1 - random() * 0.25);
  return Math.min(Math.max(0, wanted), policy.maxDelayMs);
}
