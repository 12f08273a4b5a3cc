/**
 * `npm run worker`: a test-run worker process for a real Postgres server (DATABASE_URL). Start as
 * many as you like, on this machine or others; each takes runs from the shared queue. The app
 * runs one itself unless TOOLFLOW_APP_WORKER=0. The embedded database (no DATABASE_URL) is
 * single-process, so there the app's own worker is the only one and this refuses to start.
 * SIGTERM / SIGINT: stop taking runs, give running ones TOOLFLOW_WORKER_GRACE_MS (default 30 s)
 * to finish, then mark the rest interrupted.
 */
import { allowServerOnlyImports } from '../lib/server-context';
import { getDatabaseTarget } from '../lib/db/sql-runner';

allowServerOnlyImports();
const target = getDatabaseTarget();
if (target.kind !== 'postgres') {
  console.error(
    'npm run worker needs DATABASE_URL=postgres://… : the embedded database can be opened by one process only, and the app already runs its worker.',
  );
  process.exit(2);
}
const { createPrisma, getDatabaseBacking } = await import('../lib/db/client');
const { startBoss } = await import('../lib/queue/boss');
const { startRunWorker } = await import('../lib/queue/run-worker');
const { getMcpClientOptions } = await import('../lib/mcp/config');

const db = await createPrisma(target);
const boss = await startBoss(getDatabaseBacking(db));
const concurrency = Number(process.env.TOOLFLOW_WORKER_CONCURRENCY) || 2;
const worker = await startRunWorker({ db, boss, client: getMcpClientOptions(), concurrency });
console.log(`toolflow worker ${worker.id}: taking test-runs (${concurrency} at a time)`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`toolflow worker ${worker.id}: ${signal}, finishing running test-runs`);
  await worker.stop(Number(process.env.TOOLFLOW_WORKER_GRACE_MS) || 30_000);
  await boss.stop({ graceful: false, wait: true, close: true });
  await db.$disconnect();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
