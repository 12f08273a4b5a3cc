import 'server-only';
/**
 * The planner's ModelPort over the official `openai` SDK: Chat Completions or Responses,
 * streamed or not, against api.openai.com or any OpenAI-compatible base URL. Tool names the API
 * forbids travel under reversible aliases. Rate limits and overloads are retried with bounded
 * backoff (the SDK's own retries are off: it would honour any `retry-after`, however long, and
 * silently); a request that takes too long, or a stream that goes quiet, ends with a clear
 * timeout message.
 */
import type OpenAI from 'openai';
import { createToolAliases } from '../tools/aliases';
import type { ModelEvent, ModelPort, ModelTurnRequest, ToolProtocol } from '../planner/types';
import { createChatRequest, createChatStreamReader, readChatCompletion } from './chat';
import {
  classifyError,
  DEFAULT_RETRY,
  formatSeconds,
  getRetryDelay,
  type ClassifiedError,
  type RetryPolicy,
} from './errors';
import { createResponsesRequest, createResponsesStreamReader, readResponse } from './responses';

export type OpenAIApi = 'chat' | 'responses';

export interface OpenAIPortOptions {
  client: OpenAI;
  model: string;
  api: OpenAIApi;
  /** Start with the text protocol (TOOLFLOW_LLM_API=text); the loop may also switch to it. */
  protocol?: ToolProtocol;
  /** Stream replies (default true): steps appear as soon as each call's arguments are complete. */
  stream?: boolean;
  /** Longest wait for a response to start, and for the next piece of a streamed one (default 60 s). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Waiting between retries; injectable so tests need not sleep. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** A ModelPort that talks to an OpenAI-compatible endpoint through the SDK. */
export function createOpenAIPort(opts: OpenAIPortOptions): ModelPort {
  return {
    planner: `openai-${opts.api}`,
    model: opts.model,
    ...(opts.protocol ? { protocol: opts.protocol } : {}),
    turn: (request) => runTurn(opts, request),
  };
}

class StreamIdleTimeout extends Error {}

async function* runTurn(opts: OpenAIPortOptions, request: ModelTurnRequest): AsyncGenerator<ModelEvent> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const endpoint = { baseURL: opts.client.baseURL, model: opts.model, timeoutMs };
  const aliases = createToolAliases(request.tools);
  const stream = opts.stream ?? true;
  const sleep = opts.sleep ?? abortableSleep;

  for (let attempt = 0; ; attempt++) {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    if (request.signal.aborted) controller.abort();
    const requestOptions = { signal: controller.signal, timeout: timeoutMs, maxRetries: 0 };
    let replied = false;
    try {
      if (opts.api === 'chat') {
        const body = createChatRequest(request, opts.model, aliases);
        if (stream) {
          const chunks = await opts.client.chat.completions.create({ ...body, stream: true }, requestOptions);
          const reader = createChatStreamReader(aliases);
          for await (const chunk of withIdleTimeout(chunks, timeoutMs, controller)) {
            for (const event of reader.push(chunk)) {
              replied = true;
              yield event;
            }
          }
          yield* reader.finish();
        } else {
          yield* readChatCompletion(await opts.client.chat.completions.create(body, requestOptions), aliases);
        }
      } else {
        const body = createResponsesRequest(request, opts.model, aliases);
        if (stream) {
          const events = await opts.client.responses.create({ ...body, stream: true }, requestOptions);
          const reader = createResponsesStreamReader(aliases);
          for await (const event of withIdleTimeout(events, timeoutMs, controller)) {
            for (const out of reader.push(event)) {
              replied = true;
              yield out;
            }
          }
          yield* reader.finish();
        } else {
          yield* readResponse(await opts.client.responses.create(body, requestOptions), aliases);
        }
      }
      return;
    } catch (error) {
      const failure: ClassifiedError =
        error instanceof StreamIdleTimeout && !request.signal.aborted
          ? {
              kind: 'timeout',
              retryable: false,
              message: `The model endpoint ${endpoint.baseURL} stopped sending in the middle of its reply for ${formatSeconds(timeoutMs)}; the turn was abandoned. Try again, or allow more time with TOOLFLOW_LLM_TIMEOUT_MS.`,
            }
          : classifyError(error, endpoint, request.signal.aborted);
      // Once part of a reply was used (steps may exist), a retry would repeat it: never retry then.
      if (failure.retryable && !replied && attempt < policy.maxRetries) {
        const delay = getRetryDelay(attempt + 1, policy, failure.retryAfterMs);
        const what =
          failure.kind === 'rate_limited'
            ? 'Rate limited by the model endpoint'
            : 'The model endpoint failed';
        yield {
          type: 'notice',
          message: `${what} (${failure.status ? `HTTP ${failure.status}` : failure.kind}); retrying in ${formatSeconds(Math.round(delay))} (retry ${attempt + 1} of ${policy.maxRetries}).`,
        };
        try {
          await sleep(delay, request.signal);
        } catch {
          yield { type: 'error', kind: 'cancelled', message: 'Cancelled.' };
          return;
        }
        continue;
      }
      const retried = attempt > 0 ? ` (gave up after ${attempt} ${attempt === 1 ? 'retry' : 'retries'})` : '';
      yield {
        type: 'error',
        kind: failure.kind,
        message: failure.message + retried,
        ...(failure.status ? { status: failure.status } : {}),
      };
      return;
    } finally {
      request.signal.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * Pass a stream through, failing with StreamIdleTimeout (and aborting the request) when no item
 * arrives for `ms`: the SDK's timeout covers the wait for headers, not a body that goes quiet.
 */
async function* withIdleTimeout<T>(
  source: AsyncIterable<T>,
  ms: number,
  controller: AbortController,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const next = iterator.next();
      // After a timeout the abandoned read rejects; that is expected, not an unhandled error.
      next.catch(() => undefined);
      const idle = new Promise<'idle'>((resolve) => {
        timer = setTimeout(() => resolve('idle'), ms);
      });
      const result = await Promise.race([next, idle]);
      clearTimeout(timer);
      if (result === 'idle') {
        controller.abort();
        throw new StreamIdleTimeout(`no data for ${ms} ms`);
      }
      if (result.done) return;
      yield result.value;
    }
  } finally {
    await iterator.return?.().catch(() => undefined);
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
