/** Starts the production build (as `npm start` does) for the load test and accounts for CPU time. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether `port` is free on 127.0.0.1. */
function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Node's flags for a profiled server when BENCH_CPU_PROF=DIR is set (Node refuses --cpu-prof in
 * NODE_OPTIONS): a .cpuprofile per process in DIR when it exits, for Chrome DevTools or
 * `npx tsx scripts/bench/profile.ts DIR`. The benches' servers and the load test's use it.
 */
export function getProfileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/**
 * A free port on 127.0.0.1: any the system gives, or the first free one in TOOLFLOW_PORTS
 * (`3300-3399`) when a shared machine hands out port ranges.
 */
export async function getFreePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TOOLFLOW_PORTS ?? '');
  if (range) {
    for (let port = Number(range[1]); port <= Number(range[2]); port++)
      if (await isPortFree(port)) return port;
    throw new Error(`No free port in TOOLFLOW_PORTS=${process.env.TOOLFLOW_PORTS}.`);
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The command (after `node`) that serves the build in `appDir` as `npm start` does: Next's own
 * server, `next start` (after `profile` from getProfileArgs).
 */
export function getNextStartCommand(appDir: string, address: string[], profile: string[]): string[] {
  return [...profile, join(appDir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', ...address];
}

export interface StartedServer {
  url: string;
  /** The pid of the server (it leads its own process group, with anything it starts). */
  pid: number;
  /** The last lines the server wrote (shown when something goes wrong). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The production server on 127.0.0.1 and a free port, from `appDir` (which holds the `.next` build), with
 * NODE_ENV=production, `databaseUrl` and a TOOLFLOW_SECRET. Resolves once /api/health answers.
 */
export async function startServer(opts: {
  appDir: string;
  databaseUrl: string;
  secret: string;
  /** More environment for the server (the load test's own settings). */
  env?: Record<string, string>;
}): Promise<StartedServer> {
  if (!existsSync(join(opts.appDir, '.next', 'BUILD_ID')))
    throw new Error(
      `No production build in ${join(opts.appDir, '.next')}: run \`npm run build\` there first (or pass --app-dir / --server-url).`,
    );
  const port = await getFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'toolflow-load-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    DATABASE_URL: opts.databaseUrl,
    TOOLFLOW_DATA_DIR: dataDir,
    TOOLFLOW_SECRET: opts.secret,
    ...opts.env,
  };
  const address = ['--hostname', '127.0.0.1', '--port', String(port)];
  const command = getNextStartCommand(opts.appDir, address, getProfileArgs());
  const child = spawn(process.execPath, command, {
    cwd: opts.appDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  child.once('exit', () => (exited = true));
  const pgid = child.pid!;
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) {
      try {
        process.kill(-pgid, 'SIGTERM');
      } catch {
        // already gone
      }
      const deadline = Date.now() + 10_000;
      while (!exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (!exited) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !exited) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, pid: pgid, log: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`The server did not answer on ${url}/api/health within 90 s.\n${output}`);
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a process in clock ticks, and its parent; undefined when gone. */
function readProcessTicks(pid: number): { ticks: number; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ticks: Number(fields[11]) + Number(fields[12]), ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** Pids of `root` and every process descended from it. */
export function getProcessTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = readProcessTicks(Number(entry))?.ppid;
    if (parent === undefined) continue;
    const list = children.get(parent);
    if (list) list.push(Number(entry));
    else children.set(parent, [Number(entry)]);
  }
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]) ?? []));
  return pids;
}

/**
 * CPU seconds used by a changing set of processes since `start()`: each pid's ticks are taken
 * relative to the first time it was seen after start (a pid first seen later counts from zero,
 * so a connection opened during the run is counted whole).
 */
export class CpuMeter {
  private readonly base = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private started = false;

  /** Records the current ticks of `pids` as the zero point. */
  start(pids: readonly number[]): void {
    for (const pid of pids) {
      const t = readProcessTicks(pid);
      if (t) {
        this.base.set(pid, t.ticks);
        this.last.set(pid, t.ticks);
      }
    }
    this.started = true;
  }

  /** Samples `pids` (call every second or two; processes that exit keep their last sample). */
  sample(pids: readonly number[]): void {
    if (!this.started) return;
    for (const pid of pids) {
      const t = readProcessTicks(pid);
      if (!t) continue;
      if (!this.base.has(pid)) this.base.set(pid, 0);
      this.last.set(pid, t.ticks);
    }
  }

  /** CPU seconds used since start. */
  seconds(): number {
    let ticks = 0;
    for (const [pid, last] of this.last) ticks += last - (this.base.get(pid) ?? 0);
    return ticks / TICKS_PER_SECOND;
  }
}

/** Busy and total jiffies of the whole machine (all cores), from /proc/stat. */
export function readMachineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = values[3] + (values[4] ?? 0);
  return { busy: total - idle, total };
}
