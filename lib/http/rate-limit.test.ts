import { describe, expect, it } from 'vitest';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from './rate-limit';

describe('createRateLimiter', () => {
  it('allows the budget per window, then says how long to wait, then allows again', () => {
    let t = 1_000;
    const limiter = createRateLimiter({ limit: 2, windowMs: 10_000, now: () => t });
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: true });
    t += 4_000;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 6_000 });
    expect(limiter.take('b')).toEqual({ ok: true });
    t += 6_000;
    expect(limiter.take('a')).toEqual({ ok: true });
  });

  it('forgets stale keys when it holds too many', () => {
    let t = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 10, now: () => t, maxKeys: 2 });
    limiter.take('a');
    limiter.take('b');
    t = 20;
    expect(limiter.take('c')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: true });
  });
});

describe('enforceRateLimit', () => {
  it('throws 429 naming what was limited and the wait', () => {
    const limiter = createRateLimiter({ limit: 0, windowMs: 30_000 });
    expect(() => enforceRateLimit(limiter, 'k', 'share links')).toThrow(
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
