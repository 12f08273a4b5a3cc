/**
 * Benches that measure lib/db in process: lib/db is server-only, so the measuring runs in a child
 * Node with the `react-server` condition, which prints its rows as JSON (see _child-db.ts).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types';

/** Runs the child script at `childUrl` and returns the rows it printed. */
export async function runBenchChild(childUrl: URL): Promise<BenchRow[]> {
  const child = fileURLToPath(childUrl);
  const out = await new Promise<string>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', child], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    proc.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    proc.once('error', reject);
    proc.once('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`bench child ${child} exited ${code}`)),
    );
  });
  return JSON.parse(out) as BenchRow[];
}
