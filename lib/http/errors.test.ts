import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, withErrors } from './errors';

afterEach(() => vi.unstubAllEnvs());

describe('withErrors', () => {
  it('maps an AppError to its status and JSON body', async () => {
    const route = withErrors(async () => {
      throw new AppError('not_found:workflow', 'No such workflow.');
    });
    const response = await route();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'not_found:workflow', message: 'No such workflow.' });
  });

  // The proxy no longer runs for the API, so the API's own wrapper must refuse to serve when the
  // server cannot sign owner cookies: health included, with the reason, before the handler runs.
  it('answers 503 with the reason, without running the handler, in production without a secret', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('TOOLFLOW_SECRET', '');
    const handler = vi.fn(async () => Response.json({ ok: true }));
    const response = await withErrors(handler)();
    expect(handler).not.toHaveBeenCalled();
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    const body = (await response.json()) as { code: string; ready: boolean; message: string };
    expect(body.code).toBe('unavailable:configuration');
    expect(body.ready).toBe(false);
    expect(body.message).toMatch(/TOOLFLOW_SECRET is not set/);
  });

  it('answers 503 when the secret is too short, and serves once it is long enough', async () => {
    vi.stubEnv('TOOLFLOW_SECRET', 'short');
    const route = withErrors(async () => Response.json({ ok: true }));
    expect((await route()).status).toBe(503);
    vi.stubEnv('TOOLFLOW_SECRET', 'x'.repeat(32));
    expect((await route()).status).toBe(200);
  });
});
