import 'server-only';
/**
 * Choosing the planner from the environment: the OpenAI-compatible endpoint when a key (or a
 * base URL) is configured, else the offline planner — and always saying which, and why, so the
 * UI and the CLI can show it.
 */
import OpenAI from 'openai';
import { err, ok, type Result } from '../result';
import { createOfflinePort } from '../planner/offline/port';
import type { ModelPort } from '../planner/types';
import { DEFAULT_TIMEOUT_MS, createOpenAIPort, type OpenAIApi } from './openai-port';

/** The model used when TOOLFLOW_MODEL is not set. */
export const DEFAULT_MODEL = 'gpt-4.1-mini';

export type PlannerPreference = 'auto' | 'offline' | 'openai';

/** The planner to use, and a sentence saying which one and why. */
export interface PlannerChoice {
  kind: 'offline' | 'openai';
  port: ModelPort;
  /** e.g. `openai-chat (gpt-4.1-mini at https://api.openai.com/v1)` or `offline (no OPENAI_API_KEY)`. */
  description: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const APIS = ['chat', 'responses', 'text'] as const;

/**
 * Pick the planner. `preference` `offline` or `openai` forces one (openai needs OPENAI_API_KEY or
 * OPENAI_BASE_URL); `auto` (default) uses OpenAI when OPENAI_API_KEY is set. Reads
 * OPENAI_BASE_URL, TOOLFLOW_MODEL, TOOLFLOW_LLM_API (chat | responses | text),
 * TOOLFLOW_LLM_TIMEOUT_MS, TOOLFLOW_LLM_MAX_RETRIES and TOOLFLOW_LLM_STREAM (0 turns streaming
 * off). A bad setting is an error value naming the variable and what it accepts.
 */
export function createPlannerFromEnv(
  env: Env,
  preference: PlannerPreference = 'auto',
): Result<PlannerChoice, string> {
  const key = nonEmpty(env.OPENAI_API_KEY);
  const baseURL = nonEmpty(env.OPENAI_BASE_URL);
  if (preference === 'offline' || (preference === 'auto' && key === undefined)) {
    const why = preference === 'offline' ? 'chosen' : 'no OPENAI_API_KEY set';
    return ok({
      kind: 'offline',
      port: createOfflinePort(),
      description: `offline (${why}; rule-based, no language model)`,
    });
  }
  if (key === undefined && baseURL === undefined) {
    return err(
      'The OpenAI planner needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server). Set it, or use the offline planner.',
    );
  }
  const apiSetting = nonEmpty(env.TOOLFLOW_LLM_API) ?? 'chat';
  if (!(APIS as readonly string[]).includes(apiSetting)) {
    return err(`TOOLFLOW_LLM_API is "${apiSetting}"; use one of ${APIS.join(', ')}.`);
  }
  const timeoutMs = readInteger(env, 'TOOLFLOW_LLM_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 1);
  if (!timeoutMs.ok) return timeoutMs;
  const maxRetries = readInteger(env, 'TOOLFLOW_LLM_MAX_RETRIES', 3, 0);
  if (!maxRetries.ok) return maxRetries;
  const model = nonEmpty(env.TOOLFLOW_MODEL) ?? DEFAULT_MODEL;
  const client = new OpenAI({
    // A local server (Ollama, vLLM) often needs no key, but the SDK insists on one.
    apiKey: key ?? 'not-needed',
    ...(baseURL ? { baseURL } : {}),
    maxRetries: 0,
    timeout: timeoutMs.value,
  });
  const api: OpenAIApi = apiSetting === 'responses' ? 'responses' : 'chat';
  const port = createOpenAIPort({
    client,
    model,
    api,
    ...(apiSetting === 'text' ? { protocol: 'text' as const } : {}),
    stream: env.TOOLFLOW_LLM_STREAM !== '0' && env.TOOLFLOW_LLM_STREAM !== 'false',
    timeoutMs: timeoutMs.value,
    retry: { maxRetries: maxRetries.value },
  });
  const protocol = apiSetting === 'text' ? ', text protocol' : '';
  return ok({
    kind: 'openai',
    port,
    description: `${port.planner} (${model} at ${client.baseURL}${protocol})`,
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function readInteger(env: Env, name: string, fallback: number, min: number): Result<number, string> {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return ok(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    return err(`${name} is "${raw}"; use a whole number ≥ ${min}.`);
  return ok(value);
}
