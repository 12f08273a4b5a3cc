/**
 * How a bench section ends when it is run by itself (`npx tsx scripts/bench/<name>.ts`) rather
 * than as a section of `npm run bench`: a line per row, then exit 1 on an error, or, with
 * `failOnMissedTarget`, when a row misses its target (the first-load budgets in CI do).
 */
import { fileURLToPath } from 'node:url';
import { isTargetMet, type BenchRow } from './types';

export function runWhenCalledDirectly(
  moduleUrl: string,
  run: () => Promise<BenchRow[]>,
  opts: { digits?: number; failOnMissedTarget?: boolean } = {},
): void {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return;
  run().then(
    (rows) => {
      for (const r of rows) {
        const target =
          r.target === undefined ? '' : ` (target ${r.better === 'lower' ? '≤' : '≥'} ${r.target})`;
        console.log(
          `${r.figure}: ${r.value.toFixed(opts.digits ?? 2)} ${r.unit}${target}${r.note ? ` — ${r.note}` : ''}`,
        );
      }
      const missed = opts.failOnMissedTarget && rows.some((r) => isTargetMet(r) === false);
      process.exit(missed ? 1 : 0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
