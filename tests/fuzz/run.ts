/**
 * Running one fuzz target with fast-check and summarising the outcome: cases run, time, and on
 * failure the shrunk counterexample with the seed and path that replay it. Shared by
 * `npm run fuzz` and the in-test run.
 */
import fc from 'fast-check';
import { show } from './json';
import type { FuzzOptions, FuzzTarget } from './types';

export interface TargetRunOptions {
  opts: FuzzOptions;
  numRuns: number;
  seed: number;
  /** Replay one case: the `counterexamplePath` of an earlier failure. */
  path?: string;
  /** Stop generating after this long (the cases run so far are reported). */
  timeLimitMs?: number;
  /** A single case taking longer than this fails (asynchronous targets only). */
  caseTimeoutMs?: number;
}

export interface TargetReport {
  target: string;
  title: string;
  /** Cases generated and checked (excluding those skipped by a precondition). */
  runs: number;
  skipped: number;
  failed: boolean;
  interrupted: boolean;
  seed: number;
  ms: number;
  /** Set on failure: where to replay it and what failed. */
  path?: string;
  counterexample?: string;
  error?: string;
  shrinks?: number;
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const stack =
      error.name === 'PropertyFailure' ? '' : `\n${error.stack?.split('\n').slice(1, 6).join('\n') ?? ''}`;
    return `${error.name}: ${error.message}${stack}`;
  }
  return show(error);
}

function runCheck(target: FuzzTarget, opts: TargetRunOptions): Promise<fc.RunDetails<unknown[]>> {
  return Promise.resolve(
    fc.check(target.property(opts.opts), {
      numRuns: opts.numRuns,
      seed: opts.seed,
      ...(opts.path !== undefined ? { path: opts.path } : {}),
      ...(opts.timeLimitMs !== undefined ? { interruptAfterTimeLimit: opts.timeLimitMs } : {}),
      ...(opts.caseTimeoutMs !== undefined ? { timeout: opts.caseTimeoutMs } : {}),
      markInterruptAsFailure: false,
    }),
  );
}

/** Run `target` for `opts.numRuns` cases (or until the time limit) and summarise. */
export async function runTarget(target: FuzzTarget, opts: TargetRunOptions): Promise<TargetReport> {
  const started = performance.now();
  let details: fc.RunDetails<unknown[]>;
  try {
    details = await runCheck(target, opts);
  } catch (error) {
    // A generator (not the property) threw: report it like a failure, with what is known.
    return {
      target: target.name,
      title: target.title,
      runs: 0,
      skipped: 0,
      failed: true,
      interrupted: false,
      seed: opts.seed,
      ms: Math.round(performance.now() - started),
      error: `the generator threw: ${describeError(error)}`,
    };
  }
  const report: TargetReport = {
    target: target.name,
    title: target.title,
    runs: details.numRuns,
    skipped: details.numSkips,
    failed: details.failed,
    interrupted: details.interrupted,
    seed: details.seed,
    ms: Math.round(performance.now() - started),
  };
  if (details.failed) {
    report.path = details.counterexamplePath ?? undefined;
    report.counterexample = details.counterexample ? show(details.counterexample[0], 3_000) : undefined;
    report.error = describeError(details.errorInstance);
    report.shrinks = details.numShrinks;
  }
  return report;
}

/** A failure as text: what failed, the counterexample and the command that replays it. */
export function formatFailure(report: TargetReport, replay: (report: TargetReport) => string): string {
  return [
    `FAIL ${report.target} (${report.title}) after ${report.runs} cases, ${report.shrinks ?? 0} shrinks`,
    `  error: ${report.error ?? '(none)'}`,
    `  counterexample: ${report.counterexample ?? '(none)'}`,
    `  seed ${report.seed}, path ${JSON.stringify(report.path ?? '')}`,
    `  replay: ${replay(report)}`,
  ].join('\n');
}
