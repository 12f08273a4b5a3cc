/**
 * `npm start`'s server (scripts/serve.ts) before it starts any web process. Serving, restarts and
 * SIGTERM are exercised on a real build in e2e/serve.spec.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function runServe(cwd: string, env: Record<string, string>) {
  return spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'serve.ts')],
    { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 },
  );
}

describe('scripts/serve.ts', () => {
  it('refuses to start without a production build, saying where it looked and what to run', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'toolflow-serve-'));
    try {
      const run = runServe(empty, { DATABASE_URL: '', TOOLFLOW_WEB_PROCESSES: '' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `Toolflow will not start: there is no production build in ${path.join(empty, '.next')}. Run \`npm run build\` first.`,
      );
      expect(run.stdout).not.toContain('web process');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses a process count the database cannot take before looking for the build', () => {
    const run = runServe(os.tmpdir(), { DATABASE_URL: '', TOOLFLOW_WEB_PROCESSES: '2' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Toolflow will not start: TOOLFLOW_WEB_PROCESSES=2 needs a Postgres server');
  });
});
