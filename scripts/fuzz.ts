/**
 * `npm run fuzz`: property-based fuzzing of tool schemas, declaration files, model replies and
 * workflow exports (the properties live in tests/fuzz). The default budget is 100,000
 * generated cases split across the targets by their shares, bounded by a time limit; it prints
 * cases and time per target and, for a failure, the shrunk counterexample with the seed and
 * path that replay it. Exit 1 on any failure or unhandled promise rejection.
 *
 *   npm run fuzz                                 the default budget (100,000 cases)
 *   npm run fuzz -- --runs 5000 --seconds 60     a smaller budget, at most a minute
 *   npm run fuzz -- --target planner --seed 42   one target (comma-separate several)
 *   npm run fuzz -- --target planner --seed 42 --path "17:3:1"   replay one counterexample
 *   npm run fuzz -- --include-known-bugs         also generate the inputs of known bugs
 *   npm run fuzz -- --list                       the targets and the known bugs
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  FUZZ_TARGETS,
  KNOWN_BUGS,
  formatFailure,
  runTarget,
  splitBudget,
  type FuzzTarget,
  type TargetReport,
} from '../tests/fuzz';

const DEFAULT_RUNS = 100_000;
const DEFAULT_SECONDS = 1_800;

const USAGE = `usage: npm run fuzz -- [--runs N] [--seconds S] [--target a,b] [--seed N] [--path P] [--include-known-bugs] [--list]`;

/** Rejections nobody handled, collected until a target takes them. */
const unhandled: unknown[] = [];
process.on('unhandledRejection', (reason) => {
  unhandled.push(reason);
});

function fail(message: string): number {
  process.stderr.write(`fuzz: ${message}\n${USAGE}\n`);
  return 2;
}

function replayCommand(report: TargetReport, includeKnownBugs: boolean): string {
  return `npm run fuzz -- --target ${report.target} --seed ${report.seed} --path "${report.path ?? ''}"${includeKnownBugs ? ' --include-known-bugs' : ''}`;
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        runs: { type: 'string' },
        seconds: { type: 'string' },
        target: { type: 'string' },
        seed: { type: 'string' },
        path: { type: 'string' },
        'include-known-bugs': { type: 'boolean' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.list) {
    for (const t of FUZZ_TARGETS)
      process.stdout.write(`${t.name.padEnd(22)} ${t.title} (${t.share * 100}%)\n`);
    process.stdout.write(`\nknown bugs (inputs left out unless --include-known-bugs):\n`);
    for (const b of KNOWN_BUGS) process.stdout.write(`- ${b.id}: ${b.summary}\n  where: ${b.where}\n`);
    return 0;
  }
  const total = values.runs === undefined ? DEFAULT_RUNS : Number(values.runs);
  const seconds = values.seconds === undefined ? DEFAULT_SECONDS : Number(values.seconds);
  if (!Number.isInteger(total) || total < 1) return fail(`--runs must be a positive whole number`);
  if (!(seconds > 0)) return fail(`--seconds must be a positive number`);
  const seed =
    values.seed === undefined ? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0 : Number(values.seed);
  if (!Number.isInteger(seed)) return fail(`--seed must be a whole number`);
  let targets: readonly FuzzTarget[] = FUZZ_TARGETS;
  if (values.target !== undefined) {
    const names = values.target.split(',').map((n) => n.trim());
    const unknown = names.filter((n) => !FUZZ_TARGETS.some((t) => t.name === n));
    if (unknown.length > 0) {
      return fail(`no target ${unknown.join(', ')}; targets: ${FUZZ_TARGETS.map((t) => t.name).join(', ')}`);
    }
    targets = FUZZ_TARGETS.filter((t) => names.includes(t.name));
  }
  if (values.path !== undefined && targets.length !== 1)
    return fail('--path replays one target: give --target');
  const includeKnownBugs = values['include-known-bugs'] === true;

  const budget = splitBudget(targets, total);
  const cpus = os.cpus();
  const what =
    values.path !== undefined
      ? `replaying one case of ${targets[0].name}, seed ${seed}, path ${values.path}`
      : `${total.toLocaleString('en-US')} cases over ${targets.length} targets, seed ${seed}, at most ${seconds} s`;
  process.stdout.write(
    `fuzz: ${what}` +
      `${includeKnownBugs ? ', known bugs included' : `, ${KNOWN_BUGS.length} known bugs left out`}` +
      ` (${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version})\n`,
  );
  const started = performance.now();
  const reports: TargetReport[] = [];
  for (const target of targets) {
    const runs = budget.get(target)!;
    const elapsed = (performance.now() - started) / 1000;
    // Each target may use its share of the time left, so one slow target cannot starve the rest.
    const remainingShare = targets.slice(targets.indexOf(target)).reduce((s, t) => s + t.share, 0);
    const timeLimitMs = Math.max(1_000, ((seconds - elapsed) * 1000 * target.share) / remainingShare);
    const report = await runTarget(target, {
      opts: { includeKnownBugs, takeUnhandledRejections: () => unhandled.splice(0) },
      numRuns: values.path !== undefined ? 1 : runs,
      seed,
      ...(values.path !== undefined ? { path: values.path } : {}),
      timeLimitMs,
      caseTimeoutMs: 20_000,
    });
    reports.push(report);
    const rate = report.ms > 0 ? Math.round((report.runs * 1000) / report.ms) : report.runs;
    process.stdout.write(
      `  ${report.failed ? 'FAIL' : report.interrupted ? 'STOP' : 'ok  '} ${target.name.padEnd(22)} ${String(report.runs).padStart(7)} cases` +
        `${report.skipped > 0 ? ` (+${report.skipped} skipped)` : ''}  ${(report.ms / 1000).toFixed(1).padStart(6)} s  ${rate}/s` +
        `${report.interrupted ? `  stopped by the time limit before ${runs}` : ''}\n`,
    );
  }
  const seconds_ = (performance.now() - started) / 1000;
  const cases = reports.reduce((s, r) => s + r.runs, 0);
  process.stdout.write(`fuzz: ${cases.toLocaleString('en-US')} cases in ${seconds_.toFixed(1)} s\n`);

  const failures = reports.filter((r) => r.failed);
  for (const r of failures)
    process.stdout.write(`\n${formatFailure(r, (x) => replayCommand(x, includeKnownBugs))}\n`);
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (unhandled.length > 0) {
    process.stdout.write(
      `\nFAIL unhandled promise rejections: ${unhandled.map((u) => String(u)).join('; ')}\n`,
    );
    return 1;
  }
  if (failures.length > 0) return 1;
  if (cases < total && values.path === undefined) {
    process.stdout.write(
      `fuzz: the time limit stopped the run at ${cases} of ${total} cases (nothing failed).\n`,
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `fuzz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
