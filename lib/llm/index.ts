import 'server-only';
/**
 * Language-model access for the planner (IO): the OpenAI SDK port (Chat Completions and
 * Responses, streaming, retries, timeouts, text fallback) and the environment-based choice
 * between it and the offline planner.
 */
export { createOpenAIPort, DEFAULT_TIMEOUT_MS, type OpenAIApi, type OpenAIPortOptions } from './openai-port';
export { createPlannerFromEnv, DEFAULT_MODEL, type PlannerChoice, type PlannerPreference } from './env';
export {
  classifyError,
  getRetryDelay,
  DEFAULT_RETRY,
  type ClassifiedError,
  type RetryPolicy,
} from './errors';
