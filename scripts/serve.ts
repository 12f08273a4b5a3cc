/**
 * `npm start`'s server: scripts/web-process.ts (Next's request handler, as `next start` serves
 * the build) in as many processes as lib/server/web-processes.ts decides (one per core on
 * Postgres, at most four by default; one on the embedded database), sharing one port through
 * Node's cluster module. The arguments after `serve.ts` are passed on to every process, and each
 * serves every route; nothing a request needs lives in one process only (docs/scaling.md,
 * "Stateless Next.js instances").
 *
 * A process that dies is started again after a short wait; if they keep dying within seconds of
 * starting, this gives up and exits 1 so a supervisor sees it. SIGTERM and SIGINT are passed on,
 * and this exits once every process has.
 */
import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getWebProcessExecArgv, getWebProcesses } from '../lib/server/web-processes';

const RESTART_DELAY_MS = 1_000;
/** A process that dies sooner than this after starting counts as a crash loop. */
const EARLY_DEATH_MS = 10_000;
const MAX_EARLY_DEATHS = 5;
const STOP_GRACE_MS = 15_000;

const decided = getWebProcesses(process.env, os.availableParallelism());
if (!decided.ok) {
  console.error(`Toolflow will not start: ${decided.message}`);
  process.exit(1);
}
const { count, why } = decided;
// Every process would fail the same way and be restarted until the crash-loop guard gives up.
if (!existsSync(join(process.cwd(), '.next', 'BUILD_ID'))) {
  console.error(
    `Toolflow will not start: there is no production build in ${join(process.cwd(), '.next')}. Run \`npm run build\` first.`,
  );
  process.exit(1);
}
const webProcess = fileURLToPath(new URL('./web-process.ts', import.meta.url));
const appDir = fileURLToPath(new URL('..', import.meta.url));

// Workers run scripts/web-process.ts with the arguments as given.
cluster.setupPrimary({
  exec: webProcess,
  args: process.argv.slice(2),
  execArgv: getWebProcessExecArgv(appDir, process.env),
});
console.log(`toolflow: ${count} web process${count === 1 ? '' : 'es'} (${why})`);

const startedAt = new Map<Worker, number>();
let earlyDeaths = 0;
let stopping = false;

function fork(): void {
  const worker = cluster.fork();
  startedAt.set(worker, Date.now());
}

cluster.on('exit', (worker, code, signal) => {
  const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
  startedAt.delete(worker);
  if (stopping) {
    if (startedAt.size === 0) process.exit();
    return;
  }
  earlyDeaths = lived < EARLY_DEATH_MS ? earlyDeaths + 1 : 0;
  const how = signal ? `signal ${signal}` : `code ${code}`;
  if (earlyDeaths >= MAX_EARLY_DEATHS) {
    console.error(
      `toolflow: web processes keep exiting right after starting (${how}, ${earlyDeaths} in a row); giving up. The lines above say why.`,
    );
    stop('SIGTERM', 1);
    return;
  }
  console.error(
    `toolflow: a web process exited (${how}) after ${Math.round(lived / 1000)} s; starting another`,
  );
  // Not unref'd: with no process left, this timer is what keeps the primary alive.
  setTimeout(() => {
    if (!stopping) fork();
  }, RESTART_DELAY_MS);
});

function stop(signal: NodeJS.Signals, exitCode = 0): void {
  if (stopping) return;
  stopping = true;
  process.exitCode = exitCode;
  if (startedAt.size === 0) process.exit(exitCode);
  for (const worker of startedAt.keys()) worker.process.kill(signal);
  setTimeout(() => {
    for (const worker of startedAt.keys()) worker.process.kill('SIGKILL');
    process.exit(exitCode);
  }, STOP_GRACE_MS).unref();
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

for (let i = 0; i < count; i++) fork();
