/**
 * History: what one page of the revision list costs at 10 and at 10,000 revisions, on PGlite and
 * (when a server answers) Postgres. The list reads the node and edge counts stored with each
 * revision (prisma/migrations/20261126000000_revision_counts), so a page of the same size should
 * cost the same however long the history is. Beside it, the list as it was before (counting with
 * `json_array_length` over each listed document) for the same pages.
 *
 * lib/db is server-only, so the measuring runs in a child Node with the `react-server` condition
 * (scripts/bench/_history-child.ts), which prints its rows as JSON.
 *
 *   npm run bench -- history
 */
import { fileURLToPath } from 'node:url';
import { runBenchChild } from './_child';
import type { BenchRow } from './types';

export const title = 'history';

export async function run(): Promise<BenchRow[]> {
  return runBenchChild(new URL('./_history-child.ts', import.meta.url));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().then(
    (rows) => {
      for (const r of rows) console.log(`${r.figure}: ${r.value.toFixed(2)} ${r.unit} — ${r.note ?? ''}`);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
