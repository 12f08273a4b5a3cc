/**
 * The limits of a test-run, from the environment (README "Configuration"), with their defaults.
 * Pure: the caller passes the environment.
 */
import type { RunLimits } from './types';

export const DEFAULT_RUN_LIMITS: RunLimits = {
  concurrency: 4,
  nodeTimeoutMs: 60_000,
  serverStartTimeoutMs: 30_000,
  runTimeoutMs: 600_000,
  maxResultBytes: 262_144,
};

/** The variable that sets each limit. */
const VARIABLES: Record<keyof RunLimits, string> = {
  concurrency: 'TOOLFLOW_RUN_CONCURRENCY',
  nodeTimeoutMs: 'TOOLFLOW_RUN_NODE_TIMEOUT_MS',
  serverStartTimeoutMs: 'TOOLFLOW_RUN_SERVER_START_TIMEOUT_MS',
  runTimeoutMs: 'TOOLFLOW_RUN_TIMEOUT_MS',
  maxResultBytes: 'TOOLFLOW_RUN_MAX_RESULT_BYTES',
};

/**
 * `TOOLFLOW_RUN_CONCURRENCY`, `TOOLFLOW_RUN_NODE_TIMEOUT_MS`,
 * `TOOLFLOW_RUN_SERVER_START_TIMEOUT_MS`, `TOOLFLOW_RUN_TIMEOUT_MS`,
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
  const limits = { ...DEFAULT_RUN_LIMITS };
  for (const key of Object.keys(VARIABLES) as (keyof RunLimits)[]) {
    limits[key] = read(VARIABLES[key], DEFAULT_RUN_LIMITS[key]);
  }
  return limits;
}

/**
 * The limits a run was stored with, each missing one (a run stored before that limit existed)
 * at its default.
 */
export function readStoredLimits(stored: Partial<RunLimits>): RunLimits {
  const limits = { ...DEFAULT_RUN_LIMITS };
  for (const key of Object.keys(VARIABLES) as (keyof RunLimits)[]) {
    const value = stored[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) limits[key] = value;
  }
  return limits;
}

/** How many of one workspace's test-runs may be queued and running at once (README "Configuration"). */
export const DEFAULT_WORKSPACE_ACTIVE_RUNS = 4;

/**
 * `TOOLFLOW_WORKSPACE_ACTIVE_RUNS`: the most test-runs one workspace may have queued or running
 * at once; a new one past it is refused 429 until one ends. Not a positive number: the default.
 */
export function getWorkspaceActiveRunCap(env: Record<string, string | undefined>): number {
  const raw = env.TOOLFLOW_WORKSPACE_ACTIVE_RUNS;
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(value) && value >= 1
    ? Math.floor(value)
    : DEFAULT_WORKSPACE_ACTIVE_RUNS;
}
