/**
 * Where a 500-node save spends its time, piece by piece, in process (no HTTP): reading the body
 * (JSON.parse and the depth limit), the request schema (Ajv), the write check
 * (lib/workflow/check.ts: export, then the import's own validation, tool hashes included), the
 * response (JSON.stringify) and the write itself (`updateWorkflow`: one statement that updates the
 * workflow, inserts the revision and prunes), on PGlite and, when a server answers, Postgres.
 * Beside the write, the write as it was (an interactive transaction of four statements).
 *
 * lib/db is server-only, so it runs in a child Node with the `react-server` condition
 * (scripts/bench/_save-path-child.ts).
 *
 *   npm run bench -- save-path
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types';

export const title = 'save path';

export async function run(): Promise<BenchRow[]> {
  const child = fileURLToPath(new URL('./_save-path-child.ts', import.meta.url));
  const out = await new Promise<string>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', child], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    proc.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    proc.once('error', reject);
    proc.once('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`save-path bench child exited ${code}`)),
    );
  });
  return JSON.parse(out) as BenchRow[];
}
