/**
 * A production server that `npm start` would have refused (no TOOLFLOW_SECRET) but that was
 * started anyway with `next start`: health says it is not ready, and every page and API call
 * answers 503 with the reason and how to fix it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

// Beside the suite's own server (E2E_PORT) and the scripted model (E2E_PORT + 1).
const PORT = Number(process.env.E2E_PORT ?? 3210) + 2;
const BASE = `http://127.0.0.1:${PORT}`;

let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolflow-nosecret-'));
  const env: NodeJS.ProcessEnv = { ...process.env, TOOLFLOW_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' };
  delete env.TOOLFLOW_SECRET;
  delete env.DATABASE_URL;
  server = spawn('npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', String(PORT)], {
    env,
    stdio: 'ignore',
    detached: true, // its own process group, so the whole tree stops at the end
  });
  for (let i = 0; i < 120; i++) {
    try {
      await fetch(`${BASE}/api/health`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`next start did not listen on ${BASE}`);
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('health reports not ready, with the reason', async ({ request }) => {
  const health = await request.get(`${BASE}/api/health`);
  expect(health.status()).toBe(503);
  const body = await health.json();
  expect(body).toMatchObject({ ok: false, ready: false, code: 'unavailable:configuration' });
  expect(body.message).toContain('TOOLFLOW_SECRET is not set.');
  expect(body.message).toContain('openssl rand -hex 32');

  const api = await request.post(`${BASE}/api/workflows`, { data: { name: 'x' } });
  expect(api.status()).toBe(503);
  expect((await api.json()).code).toBe('unavailable:configuration');
});

test('a page says why it cannot serve and how to fix it', async ({ page }) => {
  const response = await page.goto(`${BASE}/`);
  expect(response?.status()).toBe(503);
  await expect(page.getByText('Toolflow is not configured and cannot serve requests.')).toBeVisible();
  await expect(page.getByText(/TOOLFLOW_SECRET=\$\(openssl rand -hex 32\) npm start/)).toBeVisible();
});
