/**
 * How many web processes `npm start` runs (scripts/serve.ts), and how each is started. No
 * `server-only`, so the start script, the load test and the benches decide the same way.
 *
 * One process runs JavaScript on one core, so on a real Postgres server the default is one per
 * core, up to four (each keeps its own pool of up to TOOLFLOW_DB_POOL connections, 10 by default:
 * four processes stay well inside Postgres's default 100). The embedded database can be opened
 * by one process only, so there it is always one. TOOLFLOW_WEB_PROCESSES sets it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getDatabaseTarget } from '../db/sql-runner';

/** The most processes the default picks, whatever the core count. */
export const DEFAULT_MAX_WEB_PROCESSES = 4;

export type WebProcesses = { ok: true; count: number; why: string } | { ok: false; message: string };

/** The number of web processes for this environment on a machine with `cores` cores. */
export function getWebProcesses(env: NodeJS.ProcessEnv, cores: number): WebProcesses {
  const target = getDatabaseTarget(env);
  const raw = env.TOOLFLOW_WEB_PROCESSES?.trim();
  if (raw) {
    const count = Number(raw);
    if (!Number.isInteger(count) || count < 1 || count > 64) {
      return {
        ok: false,
        message: `TOOLFLOW_WEB_PROCESSES must be a whole number from 1 to 64, not "${raw}".`,
      };
    }
    if (count > 1 && target.kind === 'pglite') {
      return {
        ok: false,
        message: `TOOLFLOW_WEB_PROCESSES=${count} needs a Postgres server (DATABASE_URL=postgres://…): the embedded database can be opened by one process only. Unset it, or set it to 1.`,
      };
    }
    return { ok: true, count, why: 'TOOLFLOW_WEB_PROCESSES' };
  }
  if (target.kind === 'pglite') {
    return { ok: true, count: 1, why: 'the embedded database is opened by one process only' };
  }
  const count = Math.max(1, Math.min(Math.floor(cores), DEFAULT_MAX_WEB_PROCESSES));
  return { ok: true, count, why: `one per core, at most ${DEFAULT_MAX_WEB_PROCESSES}` };
}

/**
 * Node flags for each web process, unless NODE_OPTIONS sets them: requests allocate many
 * short-lived objects (a parsed document per save), and the default 16 MB semi-space promoted
 * many of them to the old generation. 32 MB raised the load test's throughput by about 5 %
 * (BENCHMARKS.md, issue 15's sixth pass) for at most ~50 MB more memory per process.
 */
function getWebProcessNodeFlags(env: NodeJS.ProcessEnv): string[] {
  return /--max-semi-space-size/.test(env.NODE_OPTIONS ?? '') ? [] : ['--max-semi-space-size=32'];
}

/**
 * Node's arguments for a web process of the app in `appDir` (before scripts/web-process.ts):
 * tsx's ESM hooks only, so Next's own CommonJS `require`s load as plain Node loads them, and
 * the flags above.
 */
export function getWebProcessExecArgv(appDir: string, env: NodeJS.ProcessEnv): string[] {
  const tsxEsm = createRequire(join(appDir, 'package.json')).resolve('tsx/esm');
  return ['--import', pathToFileURL(tsxEsm).href, ...getWebProcessNodeFlags(env)];
}
