/**
 * The smallest SQL surface both backends share, so migrations and test set-up run the same
 * code on PGlite and on a real server. No `server-only` here: scripts/migrate.ts runs it too.
 */
export interface SqlRunner {
  /** Runs one or more statements with no parameters. */
  exec(sql: string): Promise<void>;
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/** Where the database lives, decided from the environment (docs/design.md §8.1). */
export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

/** `DATABASE_URL=postgres://…` means a real server; otherwise embedded PGlite under `.data/`. */
export function getDatabaseTarget(env: NodeJS.ProcessEnv = process.env): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error(
        `DATABASE_URL must start with postgres:// or postgresql:// (got "${url.slice(0, 20)}…"). Unset it to use the embedded database.`,
      );
    }
    return { kind: 'postgres', url };
  }
  const base = env.TOOLFLOW_DATA_DIR?.trim() || '.data';
  return { kind: 'pglite', dataDir: `${base.replace(/\/+$/, '')}/pglite` };
}

/**
 * PGlite options that matter: without `log_startup_progress_interval = 0`, reopening an existing
 * data dir re-arms a timer forever and the process never exits (docs/design.md §10.4).
 */
export const PGLITE_OPTIONS = { postgresqlconf: ['log_startup_progress_interval = 0'] } as const;

/** Opens PGlite at `dataDir` (`memory://` for a throwaway database). */
export async function openPglite(dataDir: string) {
  const { PGlite } = await import('@electric-sql/pglite');
  if (!dataDir.startsWith('memory://')) {
    const fs = await import('node:fs');
    const path = await import('node:path');
    fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  }
  // PGlite's typings lag behind its options; the option exists in 0.5.x.
  const db = new PGlite(dataDir, PGLITE_OPTIONS as never);
  await db.waitReady;
  return db;
}

type PgliteDb = Awaited<ReturnType<typeof openPglite>>;

/** A SqlRunner over an open PGlite instance (closing it closes the database). */
export function createPgliteRunner(db: PgliteDb, ownsDb = true): SqlRunner {
  return {
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async <R>(sql: string, params?: unknown[]) => (await db.query<R>(sql, params as unknown[])).rows,
    close: async () => {
      if (ownsDb) await db.close();
    },
  };
}

/** A SqlRunner over one pg connection. */
export async function createPgRunner(url: string): Promise<SqlRunner> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  return {
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <R>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[],
    close: async () => {
      await client.end();
    },
  };
}
