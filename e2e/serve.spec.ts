/**
 * `npm start` on Postgres as production runs it (docs/design.md §10.10): the built migrations,
 * then Next's own server (`next start`), with no TypeScript loader in any of its processes; Next
 * compresses pages and the API's answers itself; a share page's rendered copy is asked for at
 * TOOLFLOW_PUBLIC_URL (here a recording proxy in front of the server, as a reverse proxy or load
 * balancer would be); SIGTERM stops it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { getProcessTree } from '../scripts/load/server';

// Beside the suite's own server (E2E_PORT), the scripted model (+1) and configuration.spec (+2).
const PORT = Number(process.env.E2E_PORT ?? 3210) + 3;
/** The recording proxy that TOOLFLOW_PUBLIC_URL names. */
const PUBLIC_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `toolflow_serve_${randomBytes(4).toString('hex')}`;
const DATABASE_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

let server: ChildProcess | undefined;
let output = '';
let publicProxy: http.Server | undefined;
/** What reached the server through TOOLFLOW_PUBLIC_URL: path, whether it was marked, status. */
const throughPublic: { path: string; marked: boolean; status: number }[] = [];

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return ''; // gone
  }
}

/** A GET on a new connection, with the raw (still compressed) body. */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const req = http.get(`${BASE}${path}`, { agent: false, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
    },
  );
}

async function healthy(): Promise<boolean> {
  try {
    return (await get('/api/health')).status === 200;
  } catch {
    return false;
  }
}

/** Passes every request on to the server and records it, as a reverse proxy would. */
function startPublicProxy(): Promise<http.Server> {
  const proxy = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: PORT, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        throughPublic.push({
          path: req.url ?? '',
          marked: 'x-toolflow-share-checked' in req.headers,
          status: answer.statusCode ?? 0,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(PUBLIC_PORT, '127.0.0.1', () => resolve(proxy)));
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await admin((client) => client.query(`CREATE DATABASE "${DB_NAME}"`));
  publicProxy = await startPublicProxy();
  server = spawn('npm', ['start', '--', '--port', String(PORT)], {
    env: {
      ...process.env,
      DATABASE_URL,
      TOOLFLOW_SECRET: 'serve-spec-secret-not-for-real-use',
      TOOLFLOW_PUBLIC_URL: `http://127.0.0.1:${PUBLIC_PORT}`,
      TOOLFLOW_APP_WORKER: '0',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so nothing outlives the spec
  });
  server.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  server.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await expect.poll(healthy, { timeout: 150_000, intervals: [500] }).toBe(true);
});

test.afterAll(async () => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already stopped by the test
    }
  }
  await new Promise((resolve) => (publicProxy ? publicProxy.close(resolve) : resolve(undefined)));
  await admin((client) => client.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`));
});

test('npm start is the built migrations, then next start: no TypeScript loader in any process', () => {
  expect(output).toMatch(/database \(postgres, .*\): applied \d+/);
  const processes = getProcessTree(server!.pid!).map(commandLine).filter(Boolean);
  expect(
    processes.some((line) => /^next-server\b/.test(line)),
    processes.join('\n'),
  ).toBe(true);
  expect(processes.filter((line) => /tsx|\.ts\b/.test(line))).toEqual([]);
});

test("Next compresses pages and the API's answers", async () => {
  const page = await get('/', { 'accept-encoding': 'gzip' });
  expect(page.status).toBe(200);
  expect(page.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(page.body).toString()).toContain('<html');

  const created = await fetch(`${BASE}/api/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({ name: 'Served by next start', task: 'x'.repeat(4_000) }),
  });
  expect(created.status).toBe(201);
  const cookie = created.headers.get('set-cookie')!.split(';')[0];
  const { workflow } = await created.json();
  const read = await get(`/api/workflows/${workflow.id}`, { cookie, 'accept-encoding': 'gzip' });
  expect(read.status).toBe(200);
  expect(read.headers['content-encoding']).toBe('gzip');
  expect(read.headers['vary']).toMatch(/accept-encoding/i);
  expect(JSON.parse(gunzipSync(read.body).toString()).workflow.task).toBe('x'.repeat(4_000));
  // A client that does not ask gets it as it is.
  const plain = await get(`/api/workflows/${workflow.id}`, { cookie });
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(plain.body.toString()).workflow.id).toBe(workflow.id);
});

test("a share page's rendered copy is asked for at TOOLFLOW_PUBLIC_URL, marked, and then served from memory", async () => {
  const created = await fetch(`${BASE}/api/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({ name: 'Shared through the front' }),
  });
  const cookie = created.headers.get('set-cookie')!.split(';')[0];
  const { workflow } = await created.json();
  const shared = await fetch(`${BASE}/api/workflows/${workflow.id}/shares`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE, cookie },
    body: '{}',
  });
  expect(shared.status).toBe(201);
  const { path } = (await shared.json()) as { path: string };

  // The first request, as a TLS-terminating reverse proxy forwards it: the copy is fetched, not
  // reached by a rewrite that Next would proxy to itself over https (docs/design.md §10.10).
  const first = await get(path, { 'x-forwarded-proto': 'https' });
  expect(first.status).toBe(200);
  expect(first.headers['x-toolflow-share-copy']).toBe('memory');
  await expect
    .poll(async () => (await get(path)).headers['x-toolflow-share-copy'], { timeout: 15_000 })
    .toBe('memory');
  const fills = throughPublic.filter((r) => r.path.startsWith('/s/v/'));
  expect(fills.length).toBeGreaterThanOrEqual(1);
  expect(fills[0]).toEqual({ path: expect.stringMatching(/^\/s\/v\/[^/]+\/1$/), marked: true, status: 200 });
  // Unmarked, the same copy is refused from outside: the share page's 404.
  expect((await get(fills[0].path)).status).toBe(404);
});

test('SIGTERM stops every process of the server', async () => {
  const tree = getProcessTree(server!.pid!);
  process.kill(-server!.pid!, 'SIGTERM');
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await expect.poll(() => tree.filter(alive).length, { timeout: 30_000 }).toBe(0);
  expect(await healthy()).toBe(false);
});
