/**
 * What the document column's compression costs a save on Postgres: inserts of one workflow
 * document (100 and 500 nodes) into a `json` column compressed with pglz (Postgres's default) and
 * with lz4 (migration 20261127000000_document_lz4), alternated in rounds on a throwaway database.
 * A save writes its document twice (the workflow and its revision). Skipped without a Postgres
 * server.
 *
 *   npm run bench -- compression
 */
import { generateWorkflow } from '../../lib/bench/generate-workflow';
import { createPgRunner } from '../../lib/db/sql-runner';
import { openBenchDatabase } from './_database';
import { runWhenCalledDirectly } from './_main';
import type { BenchRow } from './types';

export const title = 'document compression';

const INSERTS = 200;
const ROUNDS = 3;

export async function run(): Promise<BenchRow[]> {
  const database = await openBenchDatabase('compression');
  if (!database) return [];
  const db = await createPgRunner(database.url);
  const rows: BenchRow[] = [];
  try {
    await db.exec('CREATE TABLE "pglz" ("id" serial PRIMARY KEY, "d" json COMPRESSION pglz)');
    await db.exec('CREATE TABLE "lz4" ("id" serial PRIMARY KEY, "d" json COMPRESSION lz4)');
    for (const nodes of [100, 500]) {
      const text = JSON.stringify(generateWorkflow(nodes));
      const ms: Record<'pglz' | 'lz4', number[]> = { pglz: [], lz4: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const table of round % 2 ? (['lz4', 'pglz'] as const) : (['pglz', 'lz4'] as const)) {
          const start = performance.now();
          for (let i = 0; i < INSERTS; i++)
            await db.query(`INSERT INTO "${table}" ("d") VALUES ($1::json)`, [text]);
          ms[table].push((performance.now() - start) / INSERTS);
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const note = `${nodes} nodes, ${(text.length / 1000).toFixed(0)} KB; INSERT of one document, mean of ${INSERTS}, median of ${ROUNDS} alternating rounds; Postgres`;
      const [pglz, lz4] = [median(ms.pglz), median(ms.lz4)];
      rows.push(
        { figure: `insert, pglz (${nodes} nodes)`, value: pglz, unit: 'ms', better: 'lower', note },
        { figure: `insert, lz4 (${nodes} nodes)`, value: lz4, unit: 'ms', better: 'lower', note },
        { figure: `lz4 ÷ pglz (${nodes} nodes)`, value: lz4 / pglz, unit: '×', better: 'lower', note },
      );
    }
  } finally {
    await db.close();
    await database.drop();
  }
  return rows;
}

runWhenCalledDirectly(import.meta.url, run);
