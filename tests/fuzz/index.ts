/**
 * The fuzz targets: one list, so `npm run fuzz` (scripts/fuzz.ts) and the short run
 * inside `npm test` (tests/fuzz/fuzz.test.ts) check the same properties. Pure: no IO.
 */
import { conversionsTarget } from './conversions';
import { declarationsMutatedTarget, declarationsTarget } from './declarations';
import { exportsMutatedTarget, exportsTarget } from './exports';
import { paramsTarget } from './params';
import { plannerTarget } from './planner';
import type { FuzzTarget } from './types';

export type { FuzzOptions, FuzzProperty, FuzzTarget } from './types';
export { KNOWN_BUGS, type KnownBug } from './known-bugs';
export { runTarget, formatFailure, type TargetReport, type TargetRunOptions } from './run';

/** Every target, in the order they run. Their shares of the default budget sum to 1. */
export const FUZZ_TARGETS: readonly FuzzTarget[] = [
  paramsTarget,
  declarationsTarget,
  declarationsMutatedTarget,
  conversionsTarget,
  plannerTarget,
  exportsTarget,
  exportsMutatedTarget,
];

/** Split `total` cases over `targets` by their shares (each gets at least one). */
export function splitBudget(targets: readonly FuzzTarget[], total: number): Map<FuzzTarget, number> {
  const shares = targets.reduce((sum, t) => sum + t.share, 0);
  const out = new Map<FuzzTarget, number>();
  let left = total;
  targets.forEach((t, i) => {
    const runs = i === targets.length - 1 ? left : Math.max(1, Math.round((total * t.share) / shares));
    out.set(t, Math.max(1, runs));
    left -= runs;
  });
  return out;
}
