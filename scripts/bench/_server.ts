/**
 * The production build served as `npm start` serves it (`next start`) for
 * a bench (editor.ts, saving.ts, bundle.ts): a free port on 127.0.0.1 (or BENCH_PORT), a
 * throwaway data dir, a generated TOOLFLOW_SECRET unless one is set, the embedded database
 * unless `databaseUrl` names a real one, and — with `migrate` — migrations first, as `npm start`
 * applies them. Resolves once `readyPath` answers 2xx; `stop` ends the server's process group and
 * removes the data dir.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getFreePort, getProfileArgs, getNextStartCommand } from '../load/server';
import { openBenchDatabase } from './_database';
import type { BenchRow } from './types';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchServer {
  url: string;
  stop(): void;
}

export async function startBenchServer(opts: {
  /** Names the data dir (`toolflow-bench-<name>-…`). */
  name: string;
  /** The path polled until the server answers. */
  readyPath: string;
  /** Extra environment, e.g. TOOLFLOW_BENCH_PAGES. */
  env?: Record<string, string>;
  databaseUrl?: string;
  migrate?: boolean;
  /** Added to the "no production build" message: what else the caller can do. */
  noBuildHint?: string;
}): Promise<BenchServer> {
  if (!existsSync(join(ROOT, '.next', 'BUILD_ID'))) {
    throw new Error(`No production build in .next: run \`npm run build\` first${opts.noBuildHint ?? ''}.`);
  }
  // BENCH_PORT pins the port (a machine shared by several servers); else any free one.
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await getFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), `toolflow-bench-${opts.name}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    TOOLFLOW_DATA_DIR: dataDir,
    TOOLFLOW_SECRET: process.env.TOOLFLOW_SECRET ?? randomBytes(32).toString('hex'),
    ...opts.env,
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  if (opts.migrate) {
    await new Promise<void>((resolve, reject) => {
      const migrate = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/migrate.ts'], {
        cwd: ROOT,
        env,
        stdio: 'ignore',
      });
      migrate.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrate exited ${code}`))));
    });
  }
  const profile = getProfileArgs();
  const child = spawn(
    process.execPath,
    getNextStartCommand(ROOT, ['--hostname', '127.0.0.1', '--port', String(port)], profile),
    { cwd: ROOT, detached: true, stdio: 'ignore', env },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url + opts.readyPath)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error(`The server did not answer on ${url} within 60 s.`);
}

/**
 * `measure` against a bench server (migrations applied) on the embedded database, then on a fresh
 * Postgres database when a server answers (dropped afterwards): the rows of both, in that order.
 */
export async function measureOnEachBackend(
  opts: Omit<Parameters<typeof startBenchServer>[0], 'databaseUrl' | 'migrate'>,
  measure: (url: string, backend: string) => Promise<BenchRow[]>,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const targets: { backend: string; databaseUrl?: string; cleanup?: () => Promise<void> }[] = [
    { backend: 'PGlite' },
  ];
  const pg = await openBenchDatabase(opts.name);
  if (pg) targets.push({ backend: 'Postgres', databaseUrl: pg.url, cleanup: pg.drop });
  for (const target of targets) {
    const server = await startBenchServer({ ...opts, databaseUrl: target.databaseUrl, migrate: true });
    try {
      rows.push(...(await measure(server.url, target.backend)));
    } finally {
      server.stop();
      await target.cleanup?.();
    }
  }
  return rows;
}
