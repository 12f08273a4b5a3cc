import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPrisma } from '@/lib/db/client';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from './rate-limit';

const backends = await getTestBackends();

describe.each(backends)('createRateLimiter on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  let names = 0;
  const name = () => `test-${names++}`;

  it('allows the budget per window, then says how long to wait, then allows again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const limiter = createRateLimiter({ name: name(), limit: 2, windowMs: 10_000 });
    expect(await limiter.take('a')).toEqual({ ok: true });
    expect(await limiter.take('a')).toEqual({ ok: true });
    vi.setSystemTime(1_004_000);
    expect(await limiter.take('a')).toEqual({ ok: false, retryAfterMs: 6_000 });
    expect(await limiter.take('b')).toEqual({ ok: true });
    vi.setSystemTime(1_010_000);
    expect(await limiter.take('a')).toEqual({ ok: true });
  });

  it('keeps the counts of limiters with different names apart', async () => {
    const first = createRateLimiter({ name: name(), limit: 1, windowMs: 60_000 });
    const second = createRateLimiter({ name: name(), limit: 1, windowMs: 60_000 });
    expect(await first.take('k')).toEqual({ ok: true });
    expect(await second.take('k')).toEqual({ ok: true });
    expect((await first.take('k')).ok).toBe(false);
  });

  it('counts every one of many simultaneous requests exactly once', async () => {
    const limiter = createRateLimiter({ name: name(), limit: 10, windowMs: 60_000 });
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.take('burst')));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
  });

  it('keeps its counts in the database, so a new limiter (a restarted process) goes on counting', async () => {
    const shared = name();
    const before = createRateLimiter({ name: shared, limit: 2, windowMs: 60_000 });
    expect(await before.take('k')).toEqual({ ok: true });
    expect(await before.take('k')).toEqual({ ok: true });
    const after = createRateLimiter({ name: shared, limit: 2, windowMs: 60_000 });
    expect((await after.take('k')).ok).toBe(false);
    expect(await database.db.rateLimit.count({ where: { key: `${shared}:k` } })).toBe(1);
  });

  it.runIf(backend.name === 'postgres')(
    'shares one budget between two server processes on the same database',
    async () => {
      // A second Prisma client with its own connection pool stands for a second instance.
      const other = await createPrisma({ kind: 'postgres', url: database.url! });
      try {
        const shared = name();
        const here = createRateLimiter({ name: shared, limit: 3, windowMs: 60_000 });
        const there = createRateLimiter({
          name: shared,
          limit: 3,
          windowMs: 60_000,
          getDb: async () => other,
        });
        const results = await Promise.all([here, there, here, there, here, there].map((l) => l.take('k')));
        expect(results.filter((r) => r.ok)).toHaveLength(3);
      } finally {
        await other.$disconnect();
      }
    },
  );

  it('throws 429 naming what was limited and the wait', async () => {
    const limiter = createRateLimiter({ name: name(), limit: 0, windowMs: 30_000 });
    await expect(enforceRateLimit(limiter, 'k', 'share links')).rejects.toThrow(
      'Too many share links in a short time. Try again in 30 s.',
    );
  });
});

describe('getRateLimitKey', () => {
  it('counts a known owner by id, and a caller without a cookie by address', () => {
    const request = new Request('http://x/', { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' } });
    expect(getRateLimitKey(request, { id: 'own_a', isNew: false })).toBe('owner:own_a');
    expect(getRateLimitKey(request, { id: 'own_fresh', isNew: true })).toBe('addr:203.0.113.7');
  });
});
