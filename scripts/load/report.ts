/** The load test's report: printed as text, and as Markdown for BENCHMARKS.md ("Load and soak"). */
import { readFileSync, writeFileSync } from 'node:fs';
import { percentile, type OperationSummary } from './stats';
import type { VerifyResult } from './verify';

export interface LoadReport {
  command: string;
  date: string;
  machine: { cpu: string; cores: number; ramGb: number; node: string };
  loadBefore: number[];
  loadAfter: number[];
  server: string;
  config: {
    owners: number;
    /** Who the owners are: `guests`, `accounts` or `tokens` (callers.ts). */
    callers: string;
    tabs: number;
    sharedOwners: number;
    concurrency: number;
    pool: string;
    thinkMs: number;
    seconds: number;
  };
  setup: { requests: number; errors: number; ms: number; workflows: number; nodes: number; bytes: number };
  durationSeconds: number;
  stoppedBy: string;
  requests: number;
  throughput: number;
  overall: { p50: number; p90: number; p99: number };
  operations: OperationSummary[];
  perMinute: { minute: number; requests: number; perSecond: number; p99: number; errors: number }[];
  errors: Record<string, number>;
  conflicts: number;
  conflictsResolved: number;
  conflictsAbandoned: number;
  bogusConflicts: number;
  staleReads: number;
  cpu: { nextCores?: number; postgresCores?: number; loadGeneratorCores: number; machineBusyPercent: number };
  database: { sizeMb: number; maxConnections: number };
  verify: VerifyResult & { reserialized: number; retention: number };
  samples: string[];
  passed: boolean;
  failures: string[];
}

const ms = (v: number) => (Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const n = (v: number) => v.toLocaleString('en-US');
const errorsText = (errors: Record<string, number>) =>
  Object.entries(errors)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ') || '0';

function operationRows(report: LoadReport): string[] {
  const rows = report.operations.map(
    (o) =>
      `| ${o.operation} | ${n(o.requests)} | ${o.perSecond.toFixed(1)} | ${ms(o.p50)} | ${ms(o.p90)} | ${ms(o.p99)} | ${ms(o.max)} | ${errorsText(o.errors)} | ${o.operation === 'save' ? n(o.conflicts) : ''} |`,
  );
  rows.push(
    `| **all** | **${n(report.requests)}** | **${report.throughput.toFixed(1)}** | ${ms(report.overall.p50)} | ${ms(report.overall.p90)} | ${ms(report.overall.p99)} | | ${errorsText(report.errors)} | ${n(report.conflicts)} |`,
  );
  return rows;
}

const CALLER_TEXT: Record<string, string> = {
  guests: 'guests, one cookie jar each',
  accounts: 'signed-up accounts, one cookie jar each',
  tokens: "an API token each, of its account's personal workspace, no cookies",
};

/** The report as the Markdown body of the "Load and soak" section. */
export function formatMarkdown(report: LoadReport): string {
  const { config, cpu, verify } = report;
  const lines = [
    `\`${report.command}\``,
    '',
    `- **When**: ${report.date}; load average before the run ${report.loadBefore.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min), after ${report.loadAfter.map((l) => l.toFixed(2)).join(' / ')}`,
    `- **Machine**: ${report.machine.cpu}, ${report.machine.cores} cores, ${report.machine.ramGb.toFixed(0)} GB RAM, Node ${report.machine.node}; the load generator, the server and Postgres share it`,
    `- **Set-up**: ${report.server}; ${config.owners} owners (${CALLER_TEXT[config.callers] ?? config.callers}), ${config.tabs} tabs (${config.sharedOwners} owners edit one workflow in two tabs), ${config.concurrency} requests in flight at most, think time ${config.thinkMs} ms, TOOLFLOW_DB_POOL ${config.pool}; ${report.setup.workflows} workflows created first (${n(report.setup.nodes)} nodes, ${(report.setup.bytes / 1048576).toFixed(1)} MB of documents, 10–200 nodes each from the built-in toolkits)`,
    `- **Ran** ${report.durationSeconds.toFixed(1)} s (stopped by ${report.stoppedBy}): ${n(report.requests)} requests, **${report.throughput.toFixed(1)} req/s**, errors other than intended 409s: **${Object.values(report.errors).reduce((a, b) => a + b, 0)}**`,
    '',
    '| operation | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | 409 (intended) |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|',
    ...operationRows(report),
    '',
    `- **Conflicts**: ${n(report.conflicts)} intended 409s from two tabs on one workflow; ${n(report.conflictsResolved)} edits then saved on top after re-reading, ${report.conflictsAbandoned} given up after 8 tries in a row; ${report.bogusConflicts} 409s that named a version not newer than the one sent; ${report.staleReads} reads older than an already acknowledged save`,
    `- **Verified against Postgres**: ${n(verify.acknowledged)} acknowledged writes on ${n(verify.workflows)} workflows; **lost saves ${verify.lostSaves}**, versions acknowledged twice ${verify.duplicateAcks}, stored versions never acknowledged ${verify.unacknowledged}; every workflow's stored version and document are the highest acknowledged (document hashes compared on the stored JSON text${verify.reserialized ? `; ${verify.reserialized} matched only after re-serialising` : ', byte for byte'}); ${n(verify.pruned)} older acknowledged versions pruned by the ${verify.retention}-entry retention and ${n(verify.folded)} folded into later autosave entries (both by design), every other one present with the same document hash`,
    `- **CPU** (average cores busy over the run, of ${report.machine.cores}): server ${cpu.nextCores === undefined ? 'n/a' : cpu.nextCores.toFixed(2)}, Postgres backends ${cpu.postgresCores === undefined ? 'n/a' : cpu.postgresCores.toFixed(2)}, load generator ${cpu.loadGeneratorCores.toFixed(2)}; machine ${cpu.machineBusyPercent.toFixed(0)} % busy; database ${report.database.sizeMb.toFixed(0)} MB after the run`,
    `- **Per minute**: ${report.perMinute.map((m) => `${m.perSecond.toFixed(0)} req/s (p99 ${ms(m.p99)} ms${m.errors ? `, ${m.errors} errors` : ''})`).join(' · ')}`,
    `- **Result**: ${report.passed ? 'passed' : `FAILED: ${report.failures.join('; ')}`}`,
  ];
  return lines.join('\n') + '\n';
}

/** The report for the terminal. */
export function formatText(report: LoadReport): string {
  const md = formatMarkdown(report);
  const extra = report.samples.length
    ? `\nFirst unexpected responses:\n${report.samples.map((s) => `  ${s}`).join('\n')}\n`
    : '';
  const problems = report.verify.problems.length
    ? `\nVerification problems:\n${report.verify.problems.map((p) => `  ${p}`).join('\n')}\n`
    : '';
  return md + extra + problems;
}

const SECTION = '## Load and soak';

/**
 * Writes the report into BENCHMARKS.md's "Load and soak" section, replacing what the section held
 * (up to the next `## ` heading) or adding the section; the rest of the file is left as it is.
 */
export function recordInBenchmarks(file: string, report: LoadReport): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text =
      '# Benchmarks\n\nFigures measured on this project, with the command, machine and date of each run.\n';
  }
  const body = `${SECTION}\n\n${SECTION_INTRO}\n\n${formatMarkdown(report)}`;
  const start = text.indexOf(`\n${SECTION}\n`);
  if (start === -1) {
    writeFileSync(file, text.replace(/\n*$/, '\n\n') + body);
    return;
  }
  const next = text.indexOf('\n## ', start + SECTION.length + 1);
  writeFileSync(file, text.slice(0, start + 1) + body + (next === -1 ? '' : '\n' + text.slice(next + 1)));
}

const SECTION_INTRO = [
  '`npm run load` (scripts/load/) runs the production build (as `npm start` serves it) against a fresh',
  'Postgres database on 127.0.0.1 with many simulated owners doing a mix of list, read, save,',
  'export and history requests, then checks in the database that every acknowledged save is',
  'there (no lost update). 409s come from owners who edit one workflow in two tabs on purpose;',
  'each is resolved by re-reading and saving on top. See docs/scaling.md for what the figures mean.',
].join('\n');

/** Overall percentiles of a sorted latency list. */
export function overallPercentiles(sorted: readonly number[]): { p50: number; p90: number; p99: number } {
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) };
}
