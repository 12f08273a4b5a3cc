/**
 * Half a single sign-on configuration (lib/http/oidc-config.ts): `npm run dev` and `npm start`
 * refuse to start (scripts/migrate.ts), naming the missing variable; a server started anyway
 * answers pages and the API with 503 and that reason, as for a missing secret
 * (tests/production-secret.test.ts). The working configuration is exercised in e2e/oidc.spec.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { proxy } from '@/proxy';

const ROOT = path.resolve(import.meta.dirname, '..');
const MISSING_SECRET =
  /^TOOLFLOW_OIDC_CLIENT_SECRET is not set, but TOOLFLOW_OIDC_ISSUER and TOOLFLOW_OIDC_CLIENT_ID are\./;

describe('a partial single sign-on configuration', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('stops the migrations before the server starts, naming the missing variable', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolflow-oidc-'));
    const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/migrate.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        TOOLFLOW_DATA_DIR: dataDir,
        DATABASE_URL: '',
        TOOLFLOW_OIDC_ISSUER: 'https://id.example.org',
        TOOLFLOW_OIDC_CLIENT_ID: 'toolflow',
        TOOLFLOW_OIDC_CLIENT_SECRET: '',
        BETTER_AUTH_URL: 'http://127.0.0.1:3000',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Toolflow will not start: TOOLFLOW_OIDC_CLIENT_SECRET is not set/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a server started anyway answer 503 with the reason, API and pages', async () => {
    vi.stubEnv('TOOLFLOW_OIDC_ISSUER', 'https://id.example.org');
    vi.stubEnv('TOOLFLOW_OIDC_CLIENT_ID', 'toolflow');
    vi.stubEnv('TOOLFLOW_OIDC_CLIENT_SECRET', '');
    vi.stubEnv('BETTER_AUTH_URL', 'http://127.0.0.1:3000');
    const api = await health();
    expect(api.status).toBe(503);
    const body = await api.json();
    expect(body).toMatchObject({ ok: false, ready: false, code: 'unavailable:configuration' });
    expect(body.message).toMatch(MISSING_SECRET);

    const page = await proxy(new NextRequest(new URL('/sign-in', 'http://127.0.0.1:3000')));
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('TOOLFLOW_OIDC_CLIENT_SECRET is not set');
  });

  it('lets the server serve once the configuration is whole or absent', async () => {
    vi.stubEnv('TOOLFLOW_OIDC_ISSUER', 'https://id.example.org');
    vi.stubEnv('TOOLFLOW_OIDC_CLIENT_ID', 'toolflow');
    vi.stubEnv('TOOLFLOW_OIDC_CLIENT_SECRET', 's3cret');
    vi.stubEnv('BETTER_AUTH_URL', 'http://127.0.0.1:3000');
    expect((await proxy(new NextRequest(new URL('/sign-in', 'http://127.0.0.1:3000')))).status).toBe(200);
    vi.stubEnv('TOOLFLOW_OIDC_ISSUER', '');
    vi.stubEnv('TOOLFLOW_OIDC_CLIENT_ID', '');
    vi.stubEnv('TOOLFLOW_OIDC_CLIENT_SECRET', '');
    expect((await proxy(new NextRequest(new URL('/sign-in', 'http://127.0.0.1:3000')))).status).toBe(200);
  });
});
