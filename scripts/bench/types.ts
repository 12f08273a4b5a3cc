/** The contract between `scripts/bench.ts` and each bench module in `scripts/bench/`. */

/** One measured figure. */
export interface BenchRow {
  figure: string;
  value: number;
  unit: string;
  /** The figure to beat, when there is one. */
  target?: number;
  /** Whether a bigger value is better (default) or a smaller one. */
  better?: 'higher' | 'lower';
  /** A short note shown after the figure (what was measured, sizes, caveats). */
  note?: string;
}

/** A bench section: `scripts/bench/<name>.ts` exports `title` and `run`. */
export interface BenchModule {
  title: string;
  run(): Promise<BenchRow[]>;
}

/** Whether a row meets its target; undefined when it has none. */
export function isTargetMet(row: BenchRow): boolean | undefined {
  if (row.target === undefined) return undefined;
  return row.better === 'lower' ? row.value <= row.target : row.value >= row.target;
}

/** Median wall time in milliseconds of `runs` calls of `fn`, after `warmup` unmeasured calls. */
export function measureMedianMs(fn: () => void, runs: number, warmup = 3): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
