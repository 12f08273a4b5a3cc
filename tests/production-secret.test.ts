/**
 * Production without TOOLFLOW_SECRET: `npm start` refuses to start and says how to
 * set it; a server started anyway (`next start`) answers every request, health included, with
 * 503 and that reason. The running server is exercised in e2e/configuration.spec.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { POST as plan } from '@/app/api/plan/route';
import { POST as createWorkflow } from '@/app/api/workflows/route';
import { config, proxy } from '@/proxy';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('npm start without TOOLFLOW_SECRET', () => {
  it('refuses to start, printing how to set it, before touching the database', () => {
    // `npm start` runs the built migrations (dist/migrate.js): build them as `npm run build` does.
    execFileSync(process.execPath, ['scripts/build-scripts.mjs'], { cwd: ROOT, stdio: 'ignore' });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolflow-start-'));
    const env: NodeJS.ProcessEnv = { ...process.env, TOOLFLOW_DATA_DIR: dataDir, DATABASE_URL: '' };
    delete env.TOOLFLOW_SECRET;
    const run = spawnSync('npm', ['start', '--', '--port', '3319'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Toolflow will not start: TOOLFLOW_SECRET is not set.');
    expect(run.stderr).toContain('TOOLFLOW_SECRET=$(openssl rand -hex 32) npm start');
    expect(fs.readdirSync(dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('a production server started without TOOLFLOW_SECRET', () => {
  afterEach(() => vi.unstubAllEnvs());
  const request = (url: string) => new NextRequest(new URL(url, 'http://127.0.0.1:3000'));

  it('answers health and every API call with 503 and the reason', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('TOOLFLOW_SECRET', '');
    // The proxy runs for pages only; each API route answers for itself (withErrors).
    const post = (url: string) =>
      new Request(new URL(url, 'http://127.0.0.1:3000'), { method: 'POST', body: '{}' });
    for (const res of [
      await health(),
      await createWorkflow(post('/api/workflows')),
      await plan(post('/api/plan')),
    ]) {
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body).toMatchObject({ ok: false, ready: false, code: 'unavailable:configuration' });
      expect(body.message).toMatch(/^TOOLFLOW_SECRET is not set\..*openssl rand -hex 32/);
    }
  });

  it('answers a page with 503 and the reason in words', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('TOOLFLOW_SECRET', '');
    const res = await proxy(request('/w/wf_1'));
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('TOOLFLOW_SECRET is not set.');
  });

  it('serves normally once the secret is set: a page visit gets its owner cookie', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('TOOLFLOW_SECRET', 'a-production-secret-long-enough');
    const page = await proxy(request('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toMatch(/^toolflow_owner=v1\./);
  });

  it('runs for pages only: the API, static chunks and images skip it', () => {
    const [matcher] = config.matcher;
    const runs = (pathname: string) => new RegExp(`^${matcher}$`).test(pathname);
    for (const pathname of ['/', '/w/wf_1', '/s/abc', '/toolkits']) expect(runs(pathname)).toBe(true);
    for (const pathname of [
      '/api/health',
      '/api/workflows/wf_1',
      '/_next/static/chunks/a.js',
      '/_next/image',
    ])
      expect(runs(pathname)).toBe(false);
  });
});
