import 'server-only';
/**
 * The one place that decides which database the app talks to (docs/design.md §8.1): a real Postgres when
 * `DATABASE_URL` is set, else embedded PGlite in `.data/pglite` (`TOOLFLOW_DATA_DIR` moves it).
 * The client is created lazily, on first use, so `next build` never opens a database, and
 * migrations are applied before the first query.
 */
import type { Pool } from 'pg';
import { PrismaClient } from './generated/client';
import { installShareChangeWatch, type LiveShareMemo } from './live-shares';
import { applyMigrations } from './migrate';
import {
  createPgliteRunner,
  createPgRunner,
  getDatabaseTarget,
  openPglite,
  type DatabaseTarget,
} from './sql-runner';

export type Db = InstanceType<typeof PrismaClient>;

/**
 * What a client talks to underneath: the job queue (lib/queue) shares the database, on PGlite
 * through the very same instance (it is single-process), on Postgres through its own pool.
 */
export type DatabaseBacking =
  | { kind: 'postgres'; url: string; pool: Pool }
  | {
      kind: 'pglite';
      pglite: Awaited<ReturnType<typeof openPglite>>;
      /** What the share link check found, until the database next writes a share or workflow. */
      liveShares?: LiveShareMemo;
    };

/**
 * Kept on globalThis like the client itself (below): the proxy, route handlers and pages can each
 * hold their own copy of this module in one process, and all of them must find the one client's
 * backing (lib/db/sql.ts would otherwise send its queries through Prisma).
 */
const backings: WeakMap<Db, DatabaseBacking> = ((globalThis as Record<symbol, WeakMap<Db, DatabaseBacking>>)[
  Symbol.for('toolflow.prisma.backings')
] ??= new WeakMap());

/** The database under a client made by createPrisma, or undefined (a transaction, a foreign client). */
export function findDatabaseBacking(db: unknown): DatabaseBacking | undefined {
  return typeof db === 'object' && db !== null ? backings.get(db as Db) : undefined;
}

/** The database under a client made by createPrisma. */
export function getDatabaseBacking(db: Db): DatabaseBacking {
  const backing = backings.get(db);
  if (!backing)
    throw new Error('This Prisma client was not made by createPrisma, so its database is unknown.');
  return backing;
}

const globalKey = Symbol.for('toolflow.prisma');
type Holder = { promise?: Promise<Db>; override?: Db };
// Survives Next's dev-mode module reloads, so one process holds one PGlite (it is single-process).
const holder: Holder = ((globalThis as Record<symbol, Holder>)[globalKey] ??= {});

/** Opens a Prisma client on `target` with migrations applied. Tests use it for each backend. */
export async function createPrisma(target: DatabaseTarget): Promise<Db> {
  if (target.kind === 'postgres') {
    const runner = await createPgRunner(target.url);
    try {
      await applyMigrations(runner);
    } finally {
      await runner.close();
    }
    const [{ PrismaPg }, { default: pg }] = await Promise.all([import('@prisma/adapter-pg'), import('pg')]);
    // One pool for Prisma and for the hot queries that bypass it (lib/db/sql.ts).
    const pool = new pg.Pool({
      connectionString: target.url,
      max: Number(process.env.TOOLFLOW_DB_POOL ?? 10),
      // pg counts waiting for a free pooled connection in this timeout too, so under a burst it
      // must outlast Prisma's transaction maxWait (15 s); a server that is down still fails at once
      // (ECONNREFUSED), which the API turns into 503.
      connectionTimeoutMillis: 16_000,
    });
    // An idle connection the server closed (a restart, a failover) is dropped by the pool, and the
    // next query opens a new one; without a listener that event would end the process.
    pool.on('error', () => {});
    const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    backings.set(db, { kind: 'postgres', url: target.url, pool });
    return db;
  }
  const pglite = await openPglite(target.dataDir);
  await applyMigrations(createPgliteRunner(pglite, false));
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) as never });
  backings.set(db, { kind: 'pglite', pglite, liveShares: await installShareChangeWatch(pglite) });
  return db;
}

/** The app's database client, created on first call. */
export function getPrisma(): Promise<Db> {
  if (holder.override) return Promise.resolve(holder.override);
  holder.promise ??= createPrisma(getDatabaseTarget()).catch((error) => {
    holder.promise = undefined; // let the next request try again (e.g. the server came back)
    throw error;
  });
  return holder.promise;
}

/** Tests point the app at a database of their own (one per backend). */
export function setPrismaForTests(db: Db | undefined): void {
  holder.override = db;
}
