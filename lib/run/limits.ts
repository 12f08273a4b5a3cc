/**
 * The limits of a test-run, from the environment (README "Configuration"), with their defaults.
 * Pure: the caller passes the environment.
 */
import type { RunLimits } from './types';

export const DEFAULT_RUN_LIMITS: RunLimits = {
  concurrency: 4,
  nodeTimeoutMs: 60_000,
  runTimeoutMs: 600_000,
  maxResultBytes: 262_144,
};

/**
 * `TOOLFLOW_RUN_CONCURRENCY`, `TOOLFLOW_RUN_NODE_TIMEOUT_MS`, `TOOLFLOW_RUN_TIMEOUT_MS`,
 * `TOOLFLOW_RUN_MAX_RESULT_BYTES`; a value that is not a positive number keeps the default.
 */
export function getRunLimits(env: Record<string, string | undefined>): RunLimits {
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    const value = Number(raw);
    return raw !== undefined && raw.trim() !== '' && Number.isFinite(value) && value > 0
      ? Math.floor(value)
      : fallback;
  };
  return {
    concurrency: read('TOOLFLOW_RUN_CONCURRENCY', DEFAULT_RUN_LIMITS.concurrency),
    nodeTimeoutMs: read('TOOLFLOW_RUN_NODE_TIMEOUT_MS', DEFAULT_RUN_LIMITS.nodeTimeoutMs),
    runTimeoutMs: read('TOOLFLOW_RUN_TIMEOUT_MS', DEFAULT_RUN_LIMITS.runTimeoutMs),
    maxResultBytes: read('TOOLFLOW_RUN_MAX_RESULT_BYTES', DEFAULT_RUN_LIMITS.maxResultBytes),
  };
}
