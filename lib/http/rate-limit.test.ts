import { describe, expect, it } from 'vitest';
import { createRateLimiter, enforceRateLimit } from './rate-limit';

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
