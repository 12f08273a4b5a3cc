/**
 * `npm run load`: the load and soak test. Starts the production build on a fresh
 * Postgres database (or uses --server-url), runs many simulated owners for a bounded time, then
 * verifies in the database that every acknowledged save is there, and prints the figures.
 *
 *   npm run load                                  5 minutes, 40 owners (needs `npm run build`)
 *   npm run load -- --seconds 20                  a smoke run
 *   npm run load -- --app-dir /tmp/load           serve the build in another checkout
 *   npm run load -- --server-url URL --database-url URL   a server already running on that db,
 *                                                 e.g. N `next start` instances behind nginx
 *                                                 (docs/scaling.md); --server-pids P,Q counts
 *                                                 their CPU
 *   npm run load -- --record                      also write the figures into BENCHMARKS.md
 *   npm run load -- --callers accounts            the owners as signed-up accounts (session
 *                                                 cookie) or `tokens` (their API tokens as
 *                                                 Bearer, no cookies) instead of `guests`
 *                                                 (scripts/load/callers.ts); the server this
 *                                                 run starts allows the sign-ups from one
 *                                                 address (TOOLFLOW_SIGN_IN_LIMIT)
 *   npm run load -- --scenario patterns           schema patterns that backtracking would take
 *                                                 hours on, while /api/health is timed
 *                                                 (scripts/load/patterns.ts; 30 s per phase,
 *                                                 20 clients, 1 s think time)
 *
 * The server it starts is the build in --app-dir served as `npm start` serves it: one
 * `next start` on 127.0.0.1.
 *
 * Options: --seconds N (300) --owners N (40) --concurrency N (one request per tab)
 * --workflows-per-owner N (3) --two-tab-share F (0.25) --think-ms N (0) --max-requests N
 * (1000 × seconds) --timeout-ms N (30000) --seed N (1) --pg-url URL (admin connection,
 * postgres://postgres@127.0.0.1:5432/postgres) --keep (keep the database) --json FILE
 * --scenario patterns --clients N (20) --server-pids P,Q (with --server-url)
 * --callers guests|accounts|tokens (guests).
 * Exits 1 when any check fails: a lost or duplicated save, an error other than an intended 409.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  createLoadDatabase,
  getBackendPids,
  getDatabaseFacts,
  getDatabaseName,
  loadStoredWorkflows,
} from './database';
import { formatText, overallPercentiles, recordInBenchmarks, type LoadReport } from './report';
import { CpuMeter, getProcessTree, readMachineTicks, startServer, type StartedServer } from './server';
import { simulate, type SimulationResult } from './simulate';
import { percentile, Recorder } from './stats';
import { isClean, verifyAcks } from './verify';
import { parseCallers, type Callers } from './callers';
import { formatPatternReport, runPatternScenario } from './patterns';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface LoadOptions {
  seconds: number;
  owners: number;
  concurrency?: number;
  workflowsPerOwner: number;
  twoTabShare: number;
  thinkMs: number;
  maxRequests?: number;
  timeoutMs: number;
  seed: number;
  serverUrl?: string;
  /** With serverUrl: the pids of its processes (and their descendants), whose CPU is counted. */
  serverPids?: number[];
  databaseUrl?: string;
  pgUrl: string;
  appDir: string;
  keep: boolean;
  record: boolean;
  json?: string;
  /** `patterns`: the schema-pattern scenario instead of the owners' simulation. */
  scenario?: 'patterns';
  /** Clients of the patterns scenario. */
  clients?: number;
  /** Who the simulated owners are (scripts/load/callers.ts). */
  callers: Callers;
}

/** Reads the command line; throws with the offending option. */
export function parseArgs(argv: readonly string[]): LoadOptions {
  const opts: LoadOptions = {
    seconds: 300,
    owners: 40,
    workflowsPerOwner: 3,
    twoTabShare: 0.25,
    thinkMs: 0,
    timeoutMs: 30_000,
    seed: 1,
    pgUrl: process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    appDir: ROOT,
    keep: false,
    record: false,
    callers: 'guests',
  };
  const numeric: Record<string, keyof LoadOptions> = {
    '--seconds': 'seconds',
    '--owners': 'owners',
    '--concurrency': 'concurrency',
    '--workflows-per-owner': 'workflowsPerOwner',
    '--two-tab-share': 'twoTabShare',
    '--think-ms': 'thinkMs',
    '--max-requests': 'maxRequests',
    '--timeout-ms': 'timeoutMs',
    '--seed': 'seed',
    '--clients': 'clients',
  };
  const text: Record<string, keyof LoadOptions> = {
    '--server-url': 'serverUrl',
    '--database-url': 'databaseUrl',
    '--pg-url': 'pgUrl',
    '--app-dir': 'appDir',
    '--json': 'json',
    '--scenario': 'scenario',
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--keep') opts.keep = true;
    else if (flag === '--server-pids') {
      const raw = value();
      const pids = raw.split(',').map(Number);
      if (pids.some((pid) => !Number.isInteger(pid) || pid < 1))
        throw new Error(`--server-pids takes process ids separated by commas, not "${raw}"`);
      opts.serverPids = pids;
    } else if (flag === '--record') opts.record = true;
    else if (flag === '--callers') opts.callers = parseCallers(value());
    else if (flag in numeric) {
      const raw = value();
      const v = Number(raw);
      if (!Number.isFinite(v) || v < 0)
        throw new Error(`${flag} must be a non-negative number, not "${raw}"`);
      (opts as unknown as Record<string, number>)[numeric[flag]] = v;
    } else if (flag in text) (opts as unknown as Record<string, string>)[text[flag]] = value();
    else throw new Error(`unknown option ${flag} (see the comment at the top of scripts/load/index.ts)`);
  }
  if (opts.scenario !== undefined && opts.scenario !== 'patterns')
    throw new Error(`--scenario must be "patterns", not "${opts.scenario}"`);
  if (opts.scenario === 'patterns') {
    // Short phases and a pace a browser keeps, unless told otherwise.
    if (!argv.some((a) => a.startsWith('--seconds'))) opts.seconds = 30;
    if (!argv.some((a) => a.startsWith('--think-ms'))) opts.thinkMs = 1000;
  }
  if (opts.seconds <= 0) throw new Error('--seconds must be positive');
  if (opts.owners < 1) throw new Error('--owners must be at least 1');
  if (opts.twoTabShare > 1) throw new Error('--two-tab-share is a fraction between 0 and 1');
  if (opts.serverUrl && !opts.databaseUrl)
    throw new Error(
      '--server-url needs --database-url (the database that server uses) so the saves can be verified',
    );
  if (opts.serverPids && !opts.serverUrl)
    throw new Error('--server-pids goes with --server-url (the server this run starts is counted anyway)');
  return opts;
}

const log = (line: string) => process.stderr.write(line + '\n');

type Database = { url: string; name: string; drop(): Promise<void> };

/** What a run serves and measures: the server (started here or given), and its database. */
interface Target {
  baseUrl: string;
  databaseUrl: string;
  /** The server this run started, if it started one. */
  server?: StartedServer;
  /** The processes whose CPU is the server's: their trees are sampled. */
  serverPids: number[];
}

/**
 * Starts what the run needs and makes sure it does not outlive the run, however it ends (a
 * signal, a crash, a watchdog): `stop` stops the server and drops the database (unless --keep).
 */
function createRunState(opts: LoadOptions) {
  const state: { server?: StartedServer; database?: Database } = {};
  const stop = async () => {
    await state.server?.stop();
    state.server = undefined;
    const database = state.database;
    state.database = undefined;
    if (database && !opts.keep) {
      await database
        .drop()
        .catch((error: Error) =>
          log(`load: could not drop database ${database.name} (${error.message}); drop it by hand`),
        );
    } else if (database) log(`load: kept database ${database.name} (${database.url})`);
  };
  let stopRequested = false;
  const onSignal = () => {
    if (stopRequested) process.exit(130);
    stopRequested = true;
    log('load: interrupted; stopping the server and dropping the database…');
    void stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const onCrash = (error: unknown) => {
    log(`load: ${(error as Error)?.stack ?? error}`);
    void stop().finally(() => process.exit(1));
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // However the run goes, it ends: setup, run, drain and verification get generous bounds.
  const watchdog = setTimeout(
    () => {
      log('load: watchdog: the run took far longer than asked; giving up');
      void stop().finally(() => process.exit(2));
    },
    (opts.seconds + 600) * 1000,
  );
  watchdog.unref();

  /** The server given by --server-url, or a fresh database and the build served on it. */
  const start = async (): Promise<Target> => {
    if (opts.serverUrl) {
      return {
        baseUrl: opts.serverUrl.replace(/\/+$/, ''),
        databaseUrl: opts.databaseUrl!,
        serverPids: opts.serverPids ?? [],
      };
    }
    state.database = await createLoadDatabase(opts.pgUrl, opts.appDir);
    const databaseUrl = state.database.url;
    log(
      `load: database ${state.database.name} created and migrated; starting the server from ${opts.appDir}…`,
    );
    state.server = await startServer({
      appDir: opts.appDir,
      databaseUrl,
      secret: randomBytes(32).toString('hex'),
      env: getServerEnv(opts),
    });
    log(`load: server on ${state.server.url}`);
    return { baseUrl: state.server.url, databaseUrl, server: state.server, serverPids: [state.server.pid] };
  };
  const end = async () => {
    await stop();
    clearTimeout(watchdog);
  };
  return { start, end };
}

/**
 * What the server this run starts is told beyond the defaults: when the owners sign up, room for
 * all their sign-ups from this one address within a minute (the sign-in limiter's own setting,
 * app/api/auth/[...all]/route.ts), unless TOOLFLOW_SIGN_IN_LIMIT is set already.
 */
export function getServerEnv(
  opts: Pick<LoadOptions, 'callers' | 'owners'>,
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  if (opts.callers === 'guests' || env.TOOLFLOW_SIGN_IN_LIMIT) return {};
  return { TOOLFLOW_SIGN_IN_LIMIT: String(Math.max(30, opts.owners + 10)) };
}

/** The patterns scenario against `target`; the exit code. */
async function runPatterns(opts: LoadOptions, argv: string[], target: Target): Promise<number> {
  const scenario = await runPatternScenario(
    {
      baseUrl: target.baseUrl,
      clients: opts.clients ?? 20,
      seconds: opts.seconds,
      thinkMs: opts.thinkMs,
      timeoutMs: opts.timeoutMs,
      seed: opts.seed,
    },
    log,
  );
  const report = { command: `npm run load -- ${argv.join(' ')}`, ...scenario };
  process.stdout.write(formatPatternReport(report));
  if (opts.json) writeFileSync(opts.json, JSON.stringify(report, null, 2) + '\n');
  if (!report.passed && target.server) log(`load: last server output:\n${target.server.log().slice(-3000)}`);
  return report.passed ? 0 : 1;
}

interface Measured {
  sim: SimulationResult;
  recorder: Recorder;
  concurrency: number;
  durationSeconds: number;
  cpu: LoadReport['cpu'];
  facts: LoadReport['database'];
}

/**
 * The owners' simulation against `target`, with CPU accounted over the measured window: the
 * server's processes, the database's Postgres backends, this generator and the whole machine.
 * The monitoring connection is reopened after a Postgres restart (another test stopping the
 * cluster must not crash the run: the app's own answers show the outage as errors).
 */
async function measure(opts: LoadOptions, target: Target): Promise<Measured> {
  const dbName = getDatabaseName(target.databaseUrl);
  let monitor: pg.Client | undefined;
  const getMonitor = async (): Promise<pg.Client> => {
    if (monitor) return monitor;
    const client = new pg.Client({ connectionString: target.databaseUrl });
    client.on('error', (error) => {
      log(`load: lost the monitoring connection: ${error.message}`);
      if (monitor === client) monitor = undefined;
    });
    await client.connect();
    return (monitor = client);
  };
  const serverProcesses = () => target.serverPids.flatMap((pid) => getProcessTree(pid));
  const serverCpu = new CpuMeter();
  const pgCpu = new CpuMeter();
  let machineStart = readMachineTicks();
  let cpuStart = process.cpuUsage();
  let sampling: NodeJS.Timeout | undefined;
  const sample = async () => {
    serverCpu.sample(serverProcesses());
    pgCpu.sample(await getBackendPids(await getMonitor(), dbName));
  };

  const recorder = new Recorder();
  const tabsEstimate = opts.owners + Math.ceil(opts.owners * opts.twoTabShare);
  const concurrency = opts.concurrency || tabsEstimate;
  const originalReset = recorder.resetForMeasurement.bind(recorder);
  recorder.resetForMeasurement = (now: number) => {
    // The measured window starts here: zero the CPU meters too.
    serverCpu.start(serverProcesses());
    void getMonitor()
      .then((client) => getBackendPids(client, dbName))
      .then(
        (pids) => pgCpu.start(pids),
        () => pgCpu.start([]),
      );
    machineStart = readMachineTicks();
    cpuStart = process.cpuUsage();
    sampling = setInterval(() => void sample().catch(() => undefined), 2_000);
    return originalReset(now);
  };
  let sim: SimulationResult;
  try {
    sim = await simulate(
      {
        baseUrl: target.baseUrl,
        owners: opts.owners,
        workflowsPerOwner: opts.workflowsPerOwner,
        twoTabShare: opts.twoTabShare,
        concurrency,
        seconds: opts.seconds,
        maxRequests: opts.maxRequests ?? opts.seconds * 1000,
        thinkMs: opts.thinkMs,
        timeoutMs: opts.timeoutMs,
        seed: opts.seed,
        callers: opts.callers,
      },
      recorder,
      log,
    );
    await sample().catch(() => undefined);
  } finally {
    clearInterval(sampling);
  }
  const durationSeconds = (sim.endedAt - sim.startedAt) / 1000;
  const machineEnd = readMachineTicks();
  const cpuUsed = process.cpuUsage(cpuStart);
  const facts = await getMonitor()
    .then((client) => getDatabaseFacts(client, dbName))
    .catch(() => ({ sizeMb: Number.NaN, maxConnections: Number.NaN }));
  await monitor?.end().catch(() => undefined);
  const machineTicks = {
    busy: machineEnd.busy - machineStart.busy,
    total: machineEnd.total - machineStart.total,
  };
  const cpu = {
    nextCores: target.serverPids.length > 0 ? serverCpu.seconds() / durationSeconds : undefined,
    postgresCores: pgCpu.seconds() / durationSeconds,
    loadGeneratorCores: (cpuUsed.user + cpuUsed.system) / 1e6 / durationSeconds,
    machineBusyPercent: machineTicks.total > 0 ? (100 * machineTicks.busy) / machineTicks.total : 0,
  };
  return { sim, recorder, concurrency, durationSeconds, cpu, facts };
}

/** Every acknowledged save checked against what the database holds. */
async function verify(databaseUrl: string, sim: SimulationResult): Promise<LoadReport['verify']> {
  log(`load: verifying ${sim.acks.length} acknowledged writes in the database…`);
  const expected = new Map<string, Set<string>>();
  for (const ack of sim.acks) {
    let set = expected.get(ack.workflowId);
    if (!set) expected.set(ack.workflowId, (set = new Set()));
    set.add(ack.hash);
  }
  const { stored, reserialized } = await loadStoredWorkflows(databaseUrl, sim.workflowIds, expected);
  const retention = sim.retention ?? 200;
  return { ...verifyAcks(sim.acks, stored, retention), reserialized, retention };
}

/** What failed the run, each said in a few words; empty when it passed. */
function getFailures(
  report: Pick<LoadReport, 'verify' | 'errors' | 'setup' | 'bogusConflicts' | 'staleReads' | 'requests'>,
): string[] {
  const { verify: checked } = report;
  const failures: string[] = [];
  if (checked.lostSaves > 0) failures.push(`${checked.lostSaves} lost saves`);
  if (checked.duplicateAcks > 0) failures.push(`${checked.duplicateAcks} versions acknowledged twice`);
  if (checked.unacknowledged > 0)
    failures.push(`${checked.unacknowledged} stored versions never acknowledged`);
  if (!isClean(checked) && failures.length === 0) failures.push('verification found problems (listed below)');
  const errorCount = Object.values(report.errors).reduce((a, b) => a + b, 0);
  if (errorCount > 0) failures.push(`${errorCount} errors other than intended 409s`);
  if (report.setup.errors > 0) failures.push(`${report.setup.errors} errors during set-up`);
  if (report.bogusConflicts > 0) failures.push(`${report.bogusConflicts} 409s without a newer version`);
  if (report.staleReads > 0) failures.push(`${report.staleReads} stale reads`);
  if (report.requests === 0) failures.push('no requests were made');
  return failures;
}

/** Requests and p99 per minute of the run (a last bucket of a few seconds says nothing). */
function getPerMinute(recorder: Recorder, durationSeconds: number): LoadReport['perMinute'] {
  return recorder.perMinute
    .map((m, minute) => {
      const secondsInMinute = Math.min(60, durationSeconds - minute * 60);
      return {
        minute,
        requests: m.requests,
        perSecond: m.requests / Math.max(1, secondsInMinute),
        p99: percentile(
          [...m.latencies].sort((a, b) => a - b),
          99,
        ),
        errors: m.errors,
      };
    })
    .filter((m) => m.requests > 0 && Math.min(60, durationSeconds - m.minute * 60) >= 10);
}

function buildReport(
  opts: LoadOptions,
  argv: string[],
  loadBefore: number[],
  measured: Measured,
  checked: LoadReport['verify'],
): LoadReport {
  const { sim, recorder, durationSeconds, facts } = measured;
  const operations = recorder.summarize(durationSeconds);
  const requests = operations.reduce((sum, o) => sum + o.requests, 0);
  const errors: Record<string, number> = {};
  for (const o of operations)
    for (const [status, count] of Object.entries(o.errors)) errors[status] = (errors[status] ?? 0) + count;
  const cpus = os.cpus();
  const report: Omit<LoadReport, 'passed' | 'failures'> = {
    command: `npm run load${argv.length ? ' -- ' + argv.join(' ') : ''}`,
    date: new Date().toISOString(),
    machine: {
      cpu: cpus[0]?.model ?? 'unknown CPU',
      cores: cpus.length,
      ramGb: os.totalmem() / 1024 ** 3,
      node: process.version,
    },
    loadBefore,
    loadAfter: os.loadavg(),
    server: opts.serverUrl
      ? `server at ${opts.serverUrl}`
      : `the production build served by \`next start\` (NODE_ENV=production) on 127.0.0.1, Postgres ${facts.maxConnections} max_connections on 127.0.0.1, fresh database`,
    config: {
      owners: opts.owners,
      callers: opts.callers,
      tabs: sim.tabs,
      sharedOwners: sim.sharedOwners,
      concurrency: measured.concurrency,
      pool: process.env.TOOLFLOW_DB_POOL ?? '10 (default)',
      thinkMs: opts.thinkMs,
      seconds: opts.seconds,
    },
    setup: sim.setup,
    durationSeconds,
    stoppedBy: sim.stoppedBy,
    requests,
    throughput: requests / durationSeconds,
    overall: overallPercentiles(recorder.allLatencies()),
    operations,
    perMinute: getPerMinute(recorder, durationSeconds),
    errors,
    conflicts: operations.find((o) => o.operation === 'save')?.conflicts ?? 0,
    conflictsResolved: sim.conflictsResolved,
    conflictsAbandoned: sim.conflictsAbandoned,
    bogusConflicts: sim.bogusConflicts,
    staleReads: sim.staleReads,
    cpu: measured.cpu,
    database: facts,
    verify: checked,
    samples: sim.samples,
  };
  const failures = getFailures(report);
  return { ...report, passed: failures.length === 0, failures };
}

async function main(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  const loadBefore = os.loadavg();
  const run = createRunState(opts);
  try {
    const target = await run.start();
    const health = await fetch(`${target.baseUrl}/api/health`);
    if (!health.ok) throw new Error(`${target.baseUrl}/api/health answered ${health.status}`);
    if (opts.scenario === 'patterns') return await runPatterns(opts, argv, target);

    const measured = await measure(opts, target);
    const report = buildReport(
      opts,
      argv,
      loadBefore,
      measured,
      await verify(target.databaseUrl, measured.sim),
    );
    process.stdout.write(formatText(report));
    if (opts.json) writeFileSync(opts.json, JSON.stringify(report, null, 2) + '\n');
    if (opts.record) {
      recordInBenchmarks(join(ROOT, 'BENCHMARKS.md'), report);
      log('load: figures written to BENCHMARKS.md (Load and soak)');
    }
    if (!report.passed && target.server)
      log(`load: last server output:\n${target.server.log().slice(-3000)}`);
    return report.passed ? 0 : 1;
  } finally {
    await run.end();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      log(`load: ${(error as Error).stack ?? error}`);
      process.exit(1);
    },
  );
}
