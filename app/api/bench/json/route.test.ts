import { afterEach, describe, expect, it } from 'vitest';
import { BENCH_PAGES_FLAG } from '@/lib/bench/pages';
import { GET } from './route';

describe('GET /api/bench/json', () => {
  const before = process.env[BENCH_PAGES_FLAG];
  afterEach(() => {
    if (before === undefined) delete process.env[BENCH_PAGES_FLAG];
    else process.env[BENCH_PAGES_FLAG] = before;
  });

  it('is not part of the product: 404 unless the server runs with the bench flag', async () => {
    delete process.env[BENCH_PAGES_FLAG];
    const res = GET();
    expect(res.status).toBe(404);
    expect((await res.json()).message).toContain(`${BENCH_PAGES_FLAG}=1`);
  });

  it('answers a bare JSON body with the flag', async () => {
    process.env[BENCH_PAGES_FLAG] = '1';
    const res = GET();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"ok":true}');
  });
});
