/**
 * The database side of a bench child (_child.ts): `measure` on an in-memory PGlite, then on a
 * fresh Postgres database when a server answers (dropped afterwards).
 */
import { createPrisma, type Db } from '../../lib/db/client';
import { openBenchDatabase } from './_database';
import type { BenchRow } from './types';

export async function measureOnEachDatabase(
  name: string,
  measure: (db: Db, backend: string) => Promise<BenchRow[]>,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const pglite = await createPrisma({ kind: 'pglite', dataDir: 'memory://' });
  try {
    rows.push(...(await measure(pglite, 'PGlite')));
  } finally {
    await pglite.$disconnect();
  }
  const pg = await openBenchDatabase(name);
  if (pg) {
    try {
      const db = await createPrisma({ kind: 'postgres', url: pg.url });
      try {
        rows.push(...(await measure(db, 'Postgres')));
      } finally {
        await db.$disconnect();
      }
    } finally {
      await pg.drop();
    }
  }
  return rows;
}

/** Prints the rows `produce` gives as JSON for the parent, and exits (1 on an error). */
export function printRows(produce: () => Promise<BenchRow[]>): void {
  produce().then(
    (rows) => {
      process.stdout.write(JSON.stringify(rows));
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
