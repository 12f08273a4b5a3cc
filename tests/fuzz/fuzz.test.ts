/**
 * The short fuzz run inside `npm test`: every target of tests/fuzz for a few hundred
 * cases, on a fixed seed (the same cases every run) and on a fresh random seed (printed with
 * the replay command when it finds something). `npm run fuzz` runs the same properties for
 * 100,000 cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_TARGETS, formatFailure, runTarget, type TargetReport } from '@/tests/fuzz';

const FIXED_SEED = 0x5eed;
const RANDOM_SEED = (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
/** Cases per target and seed: two seeds make a few hundred per target in well under 20 s. */
const RUNS = 150;

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason);
};

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

function explain(report: TargetReport): string {
  return formatFailure(
    report,
    (r) => `npm run fuzz -- --target ${r.target} --seed ${r.seed} --path "${r.path ?? ''}"`,
  );
}

describe.each(FUZZ_TARGETS.map((target) => ({ name: target.name, target })))(
  'fuzz target $name',
  ({ target }) => {
    for (const [label, seed] of [
      ['the fixed seed', FIXED_SEED],
      ['a random seed', RANDOM_SEED],
    ] as const) {
      it(`holds for ${RUNS} cases on ${label}`, async () => {
        const report = await runTarget(target, {
          opts: { includeKnownBugs: false, takeUnhandledRejections: () => unhandled.splice(0) },
          numRuns: RUNS,
          seed,
          caseTimeoutMs: 15_000,
        });
        expect(report.failed, report.failed ? explain(report) : '').toBe(false);
        expect(report.runs).toBeGreaterThan(0);
        expect(unhandled).toEqual([]);
      });
    }
  },
);
