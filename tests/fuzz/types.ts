/** What a fuzz target is: a named fast-check property and its share of the default budget. */
import type fc from 'fast-check';

/** A property over one generated case; synchronous or asynchronous. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each target has its own case type
export type FuzzProperty = fc.IRawProperty<any, boolean>;

/** How a target's property is built. */
export interface FuzzOptions {
  /**
   * Generate the inputs of the bugs listed in `known-bugs.ts` too. Off by default so the suites
   * stay green while a reported bug waits for its fix; on, they reproduce it.
   */
  includeKnownBugs: boolean;
  /**
   * The unhandled promise rejections seen since the last call (the runner listens to the
   * process; asynchronous targets fail on any). Absent: nobody listens.
   */
  takeUnhandledRejections?: () => unknown[];
}

export interface FuzzTarget {
  /** Short id used on the command line (`--target params`). */
  name: string;
  /** What is fuzzed, for the report. */
  title: string;
  /** Fraction of the default budget (`npm run fuzz`) this target gets; the shares sum to 1. */
  share: number;
  /** A fresh property (targets may keep per-run state, so each run builds its own). */
  property: (opts: FuzzOptions) => FuzzProperty;
}
