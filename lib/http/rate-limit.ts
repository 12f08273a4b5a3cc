import 'server-only';
/**
 * Request budgets per key (owner id or client address) for the endpoints that cost the most or
 * create things in bulk (planning, workflows, imports, share links, forks, toolkits), against a
 * runaway script; saves are not limited (autosave and concurrent tabs must never be refused).
 * The counts are rate-limiter-flexible's Postgres store on the `rate_limits` table of the app's
 * own database — a real Postgres or the embedded PGlite alike, through the Prisma client — so
 * every instance behind a balancer shares them and a restart does not reset them
 * (docs/scaling.md).
 */
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { getPrisma, type Db } from '../db/client';
import { queryText } from '../db/sql';
import { AppError } from './errors';

export interface RateLimiter {
  /** Counts one request for `key`; says how long to wait when the window's budget is spent. */
  take(key: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;
}

/** The table the migration `rate_limits` makes; every limiter keeps its keys apart by name. */
const TABLE = 'rate_limits';

/**
 * rate-limiter-flexible's Postgres store sends `{text, values}` to a pg client; this one runs
 * them on the database under the app's client (lib/db/sql.ts: the pool or the PGlite instance,
 * past Prisma's query compiler), so PGlite and Postgres are served alike. `expire` is BIGINT,
 * which comes back as a string (pg) or a BigInt: the store does arithmetic on it.
 */
function createStoreClient(db: Db) {
  return {
    async query({ text, values = [] }: { text: string; values?: unknown[] }) {
      const rows = await queryText<Record<string, unknown>>(db, text, values);
      const plain = rows.map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => [
            k,
            typeof v === 'bigint' || (k === 'expire' && typeof v === 'string') ? Number(v) : v,
          ]),
        ),
      );
      return { rows: plain, rowCount: plain.length };
    },
  };
}

/**
 * Creates a limiter allowing `limit` requests per `windowMs` for each key; the window starts at
 * a key's first request. `name` keeps this limiter's keys apart from the others' in the table.
 */
export function createRateLimiter(opts: {
  name: string;
  limit: number;
  windowMs: number;
  /** The database to count in; the app's by default. */
  getDb?: () => Promise<Db>;
}): RateLimiter {
  const getDb = opts.getDb ?? getPrisma;
  // One store per database client: tests point the app at a database of their own.
  const stores = new WeakMap<Db, RateLimiterPostgres>();
  const getStore = (db: Db) => {
    let store = stores.get(db);
    if (!store) {
      store = new RateLimiterPostgres({
        storeClient: createStoreClient(db),
        storeType: 'client',
        tableName: TABLE,
        tableCreated: true,
        keyPrefix: opts.name,
        points: opts.limit,
        duration: opts.windowMs / 1000,
      });
      stores.set(db, store);
    }
    return store;
  };
  return {
    async take(key) {
      const store = getStore(await getDb());
      try {
        await store.consume(key);
        return { ok: true };
      } catch (outcome) {
        // The store rejects with its RateLimiterRes when the budget is spent, with an Error when
        // the database failed (the route answers that as it answers any database failure).
        if (outcome instanceof RateLimiterRes) return { ok: false, retryAfterMs: outcome.msBeforeNext };
        throw outcome;
      }
    },
  };
}

/** Throws 429 naming what was limited and when to try again. */
export async function enforceRateLimit(limiter: RateLimiter, key: string, what: string): Promise<void> {
  const result = await limiter.take(key);
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
