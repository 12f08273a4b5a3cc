import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_LIMITS, getRunLimits, readStoredLimits } from './limits';

describe('getRunLimits', () => {
  it('reads each limit from its variable, keeping the default for a value that is not a positive number', () => {
    expect(
      getRunLimits({
        TOOLFLOW_RUN_CONCURRENCY: '2',
        TOOLFLOW_RUN_NODE_TIMEOUT_MS: '5000',
        TOOLFLOW_RUN_SERVER_START_TIMEOUT_MS: '90000',
        TOOLFLOW_RUN_TIMEOUT_MS: '-1',
        TOOLFLOW_RUN_MAX_RESULT_BYTES: 'lots',
      }),
    ).toEqual({
      concurrency: 2,
      nodeTimeoutMs: 5000,
      serverStartTimeoutMs: 90000,
      runTimeoutMs: DEFAULT_RUN_LIMITS.runTimeoutMs,
      maxResultBytes: DEFAULT_RUN_LIMITS.maxResultBytes,
    });
  });
});

describe('readStoredLimits', () => {
  it('gives a run stored before the start-up limit existed the default one', () => {
    const { serverStartTimeoutMs: _new, ...before } = { ...DEFAULT_RUN_LIMITS, nodeTimeoutMs: 1234 };
    expect(readStoredLimits(before)).toEqual({ ...DEFAULT_RUN_LIMITS, nodeTimeoutMs: 1234 });
  });
});
