/**
 * Where a 500-node save spends its time, piece by piece, in process (no HTTP): reading the body
 * (JSON.parse and the depth limit), the request schema (Ajv), the write check
 * (lib/workflow/check.ts: export, then the import's own validation, tool hashes included) and
 * the write itself (`updateWorkflow`: one statement that updates the
 * workflow, inserts the revision and prunes), on PGlite and, when a server answers, Postgres.
 * The answer is the workflow without its document, so its JSON is no longer a piece worth timing.
 * Beside the write, the write as it was (an interactive transaction of four statements).
 *
 * lib/db is server-only, so it runs in a child Node with the `react-server` condition
 * (scripts/bench/_save-path-child.ts).
 *
 *   npm run bench -- save-path
 */
import { runBenchChild } from './_child';
import type { BenchRow } from './types';

export const title = 'save path';

export async function run(): Promise<BenchRow[]> {
  return runBenchChild(new URL('./_save-path-child.ts', import.meta.url));
}
