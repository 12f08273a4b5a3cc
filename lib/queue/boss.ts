import 'server-only';
/**
 * The job queue: pg-boss, in the same database as everything else (an existing
 * Postgres queue rather than one of our own). On a real Postgres server pg-boss has its own small pool; on embedded
 * PGlite it runs through the app's own PGlite instance with pg-boss's `db` option
 * (`executeSql`), because PGlite is single-process and cannot take a second connection.
 * pg-boss keeps its tables in the `pgboss` schema and creates or migrates them on start.
 */
import PgBoss from 'pg-boss';
import type { DatabaseBacking } from '../db/client';

/** The queue test-runs go through. */
export const RUN_QUEUE = 'toolflow-runs';

type Pglite = Extract<DatabaseBacking, { kind: 'pglite' }>['pglite'];

/**
 * pg-boss's `Db` over PGlite: statements with parameters go through the extended protocol
 * (`query`); pg-boss's parameterless scripts (several statements, its own BEGIN…COMMIT with an
 * advisory lock) through `exec`, which runs them as one simple-protocol batch.
 */
export function createPgliteBossDb(pglite: Pglite): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return pglite.query(text, values as unknown[]);
      const results = await pglite.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

/**
 * A run has side effects, so the queue never retries one; its job expires (pg-boss's own limit,
 * under 24 h) long after the run's time limit would have ended it.
 */
export const RUN_QUEUE_OPTIONS = { name: RUN_QUEUE, retryLimit: 0, expireInSeconds: 12 * 3600 };

export interface BossOptions {
  /** Pool size on a real server (each worker process has its own). */
  max?: number;
}

/** Starts pg-boss on the database behind `backing`, with the run queue created. */
export async function startBoss(backing: DatabaseBacking, opts: BossOptions = {}): Promise<PgBoss> {
  const common = {
    schema: 'pgboss',
    // Jobs are kept a day after they end, then pg-boss removes them (the Run rows stay).
    deleteAfterDays: 1,
    // Its cron scheduler is not used.
    schedule: false,
  };
  const boss =
    backing.kind === 'postgres'
      ? new PgBoss({
          ...common,
          connectionString: backing.url,
          max: opts.max ?? 4,
          application_name: 'toolflow-queue',
        })
      : new PgBoss({ ...common, db: createPgliteBossDb(backing.pglite) });
  boss.on('error', (error) => console.error('toolflow queue:', error));
  await boss.start();
  if (!(await boss.getQueue(RUN_QUEUE))) {
    try {
      await boss.createQueue(RUN_QUEUE, RUN_QUEUE_OPTIONS);
    } catch (error) {
      // Another process created it at the same moment.
      if (!(await boss.getQueue(RUN_QUEUE))) throw error;
    }
  }
  return boss;
}
