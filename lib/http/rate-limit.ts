import 'server-only';
/**
 * A fixed-window request counter per key (owner id or client address), in process memory. It
 * guards the endpoints that create things in bulk (workflows, imports, share links, forks) from a
 * runaway script; saves are not limited (autosave and concurrent tabs must never be refused).
 * One process is all Toolflow runs today; several processes would each count separately.
 */
import { AppError } from './errors';

export interface RateLimiter {
  /** Counts one request for `key`; says how long to wait when the window's budget is spent. */
  take(key: string): { ok: true } | { ok: false; retryAfterMs: number };
}

/** Creates a limiter allowing `limit` requests per `windowMs` for each key. */
export function createRateLimiter(opts: {
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Keys kept before stale windows are swept. */
  maxKeys?: number;
}): RateLimiter {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 10_000;
  const windows = new Map<string, { start: number; count: number }>();
  const sweep = (t: number) => {
    for (const [key, w] of windows) if (t - w.start >= opts.windowMs) windows.delete(key);
  };
  return {
    take(key) {
      const t = now();
      let w = windows.get(key);
      if (!w || t - w.start >= opts.windowMs) {
        if (!w && windows.size >= maxKeys) sweep(t);
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      if (w.count <= opts.limit) return { ok: true };
      return { ok: false, retryAfterMs: w.start + opts.windowMs - t };
    },
  };
}

/** Throws 429 naming what was limited and when to try again. */
export function enforceRateLimit(limiter: RateLimiter, key: string, what: string): void {
  const result = limiter.take(key);
  if (result.ok) return;
  const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  throw new AppError('rate_limited', `Too many ${what} in a short time. Try again in ${seconds} s.`, {
    details: { retryAfterSeconds: seconds },
  });
}

/** The client address as the server saw it (first x-forwarded-for hop when proxied). */
export function getClientAddress(request: Request): string {
  return (
    request.headers.get('x-forwarded-for')?.split(',')[0].trim() ||
    request.headers.get('x-real-ip') ||
    'local'
  );
}

/**
 * Whom to count a request against: the owner when the request carries a valid owner cookie, else
 * the client address (dropping the cookie must not reset the count).
 */
export function getRateLimitKey(request: Request, owner: { id: string; isNew: boolean }): string {
  return owner.isNew ? `addr:${getClientAddress(request)}` : `owner:${owner.id}`;
}
