/**
 * Bugs the fuzzers found in code owned elsewhere, not fixed yet. Each entry names the minimal
 * counterexample and the seed that found it; the targets skip exactly that input class unless
 * `includeKnownBugs` is set (`npm run fuzz -- --include-known-bugs`), so the suites stay green
 * and the bug stays one flag away from reproducing. Delete an entry (and its guard) with the fix.
 */
export interface KnownBug {
  id: string;
  where: string;
  summary: string;
  /** Minimal input, and how the fuzzer found it. */
  counterexample: string;
}

export const KNOWN_BUGS: readonly KnownBug[] = [];

/** True when `id` is a known bug whose inputs the targets should leave out. */
export function isAvoided(id: string, includeKnownBugs: boolean): boolean {
  return !includeKnownBugs && KNOWN_BUGS.some((b) => b.id === id);
}
