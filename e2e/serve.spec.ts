/**
 * `npm start`'s server on Postgres (scripts/serve.ts): several web processes (scripts/web-process.ts) share one
 * port; one that dies is replaced while the others keep serving; SIGTERM stops them all.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { getProcessTree } from '../scripts/load/server';

// Beside the suite's own server (E2E_PORT), the scripted model (+1) and configuration.spec (+2).
const PORT = Number(process.env.E2E_PORT ?? 3210) + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `toolflow_serve_${randomBytes(4).toString('hex')}`;
const DATABASE_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

let server: ChildProcess | undefined;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The web processes under the server: the cluster's workers (scripts/web-process.ts names them toolflow-web). */
function getWorkers(primary: number): number[] {
  return getProcessTree(primary).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('toolflow-web');
    } catch {
      return false; // gone
    }
  });
}

/**
 * GET on a new connection each time: a kept-alive one may belong to the process just killed
 * (a browser retries such a request; Node's fetch does not).
 */
function get(path: string, cookie?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${BASE}${path}`, { agent: false, headers: cookie ? { cookie } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function healthy(): Promise<boolean> {
  try {
    return (await get('/api/health')) === 200;
  } catch {
    return false;
  }
}

test.beforeAll(async () => {
  await admin((client) => client.query(`CREATE DATABASE "${DB_NAME}"`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL,
    TOOLFLOW_SECRET: 'serve-spec-secret-not-for-real-use',
    TOOLFLOW_WEB_PROCESSES: '2',
    TOOLFLOW_APP_WORKER: '0',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  execFileSync('npx', ['tsx', 'scripts/migrate.ts'], { env, stdio: 'ignore' });
  // tsx's command line passes SIGTERM on to the script, as `npm start` runs it.
  const tsx = 'node_modules/tsx/dist/cli.mjs';
  server = spawn(
    process.execPath,
    [tsx, 'scripts/serve.ts', '--hostname', '127.0.0.1', '--port', String(PORT)],
    {
      env,
      stdio: 'ignore',
      detached: true, // its own process group, so nothing outlives the spec
    },
  );
  await expect.poll(healthy, { timeout: 90_000, intervals: [500] }).toBe(true);
});

test.afterAll(async () => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already stopped by the test
    }
  }
  await admin((client) => client.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`));
});

test('two processes serve one port; one that dies is replaced; SIGTERM stops them all', async () => {
  test.setTimeout(120_000);
  const primary = server!.pid!;
  await expect.poll(() => getWorkers(primary).length, { timeout: 30_000 }).toBe(2);
  const [first, second] = getWorkers(primary);

  // A workflow written through one process is read through whichever answers next.
  const created = await fetch(`${BASE}/api/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({ name: 'Served twice' }),
  });
  expect(created.status).toBe(201);
  const cookie = created.headers.get('set-cookie')!.split(';')[0];
  const { workflow } = await created.json();

  process.kill(first, 'SIGKILL');
  // Once the primary has reaped it (a connection handed to it in the moment before is reset, as
  // with any process that dies), the other answers alone while the first is replaced.
  await expect.poll(() => alive(first), { timeout: 10_000, intervals: [20] }).toBe(false);
  for (let i = 0; i < 10; i++) expect(await get(`/api/workflows/${workflow.id}`, cookie)).toBe(200);
  await expect
    .poll(() => getWorkers(primary).filter((pid) => pid !== first).length, { timeout: 30_000 })
    .toBe(2);
  expect(getWorkers(primary)).toContain(second);
  await expect.poll(healthy, { timeout: 30_000 }).toBe(true);

  const workers = getWorkers(primary);
  process.kill(server!.pid!, 'SIGTERM');
  await expect.poll(() => [primary, ...workers].filter(alive).length, { timeout: 30_000 }).toBe(0);
  expect(await healthy()).toBe(false);
});
