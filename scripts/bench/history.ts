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
import { runBenchChild } from './_child';
import { runWhenCalledDirectly } from './_main';
import type { BenchRow } from './types';

export const title = 'history';

export async function run(): Promise<BenchRow[]> {
  return runBenchChild(new URL('./_history-child.ts', import.meta.url));
}

runWhenCalledDirectly(import.meta.url, run);
