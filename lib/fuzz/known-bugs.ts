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

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'drift-dangling-edge',
    where:
      'lib/workflow/commands.ts addNode (a changed declaration replaces the snapshot for every node of that tool) with lib/workflow/export.ts (edges exported as they are)',
    summary:
      'When a follow-up plan (or the palette) adds a node of a tool whose declaration changed since the workflow was built, the new declaration replaces the snapshot for the existing nodes too; an existing edge into an input the new declaration no longer has stays in the document, and the export writes it, so importWorkflow refuses the exported file (unknown_port at /edges/i/target_input). The same happens when the run declares a tool that existing nodes called while it was undeclared. Drift should be reported, not turned into an unimportable export.',
    counterexample:
      "a document with node step_1 of tool T {inputs: a} and an edge into step_1.a; runPlanner with tools [T' without a] adding a step of T'; applyPlanOperations → export → validateExport gives unknown_port (target planner, seed 2).",
  },
];

/** True when `id` is a known bug whose inputs the targets should leave out. */
export function isAvoided(id: string, includeKnownBugs: boolean): boolean {
  return !includeKnownBugs && KNOWN_BUGS.some((b) => b.id === id);
}
