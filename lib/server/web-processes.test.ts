import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { getWebProcessExecArgv, getWebProcesses } from './web-processes';

const postgres = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/toolflow' };
const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe('getWebProcesses', () => {
  it('runs one process per core on Postgres, at most four', () => {
    expect(getWebProcesses(env({ ...postgres }), 2)).toMatchObject({ ok: true, count: 2 });
    expect(getWebProcesses(env({ ...postgres }), 1)).toMatchObject({ ok: true, count: 1 });
    expect(getWebProcesses(env({ ...postgres }), 32)).toMatchObject({ ok: true, count: 4 });
  });

  it('runs one process on the embedded database, whatever the cores', () => {
    expect(getWebProcesses(env({}), 8)).toMatchObject({ ok: true, count: 1 });
    expect(getWebProcesses(env({ TOOLFLOW_WEB_PROCESSES: '1' }), 8)).toMatchObject({ ok: true, count: 1 });
  });

  it('takes TOOLFLOW_WEB_PROCESSES on Postgres', () => {
    expect(getWebProcesses(env({ ...postgres, TOOLFLOW_WEB_PROCESSES: '6' }), 2)).toMatchObject({
      ok: true,
      count: 6,
    });
  });

  it('refuses more than one process on the embedded database, saying why and what to do', () => {
    const result = getWebProcesses(env({ TOOLFLOW_WEB_PROCESSES: '2' }), 8);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain('TOOLFLOW_WEB_PROCESSES=2 needs a Postgres server');
      expect(result.message).toContain('one process only');
    }
  });

  it('refuses a count that is not a whole number from 1 to 64', () => {
    for (const raw of ['0', '-1', '1.5', 'two', '65']) {
      const result = getWebProcesses(env({ ...postgres, TOOLFLOW_WEB_PROCESSES: raw }), 2);
      expect(result.ok, raw).toBe(false);
      if (!result.ok) expect(result.message).toContain(`not "${raw}"`);
    }
  });
});

describe('getWebProcessExecArgv', () => {
  const root = path.resolve(import.meta.dirname, '../..');

  it("loads tsx's ESM hooks from the app and gives the processes a 32 MB young generation", () => {
    const argv = getWebProcessExecArgv(root, env({}));
    expect(argv[0]).toBe('--import');
    expect(argv[1]).toMatch(/^file:\/\/.*\/node_modules\/tsx\/.*\.mjs$/);
    expect(argv.slice(2)).toEqual(['--max-semi-space-size=32']);
  });

  it('leaves the young generation to NODE_OPTIONS when it sets one', () => {
    const argv = getWebProcessExecArgv(root, env({ NODE_OPTIONS: '--max-semi-space-size=64' }));
    expect(argv).toHaveLength(2);
  });
});
