/**
 * Test-runs, three measures:
 *
 * 1. **Overhead per step.** A chain of CHAIN `echo` steps on server-everything over stdio, each
 *    step's message wired from the step before (so they run one after another and every step
 *    passes a value along an edge), run three ways: calling the server directly with the MCP SDK
 *    (`Client` + `StdioClientTransport`, the same calls with the same messages); `runExportHere`
 *    (what `toolflow run` does: plan, arguments, conversions, Ajv checks, caps); and a run through
 *    pg-boss and the in-process worker on embedded PGlite, every step stored as the app does. A
 *    step's cost is the run's pace once the server is up: from the first step's end to the last
 *    one's, divided by the steps between (server start and queueing are paid once per run and
 *    shown apart). The ratio is that pace over the direct call's.
 * 2. **Status latency** (_run-latency.ts): from the executor recording a step's change to a client
 *    of the run's event stream receiving it, p50 and p95, against the production build.
 * 3. **Draining a backlog.** On a fresh Postgres database (when one answers on
 *    TOOLFLOW_TEST_PG_URL), BACKLOG queued runs, each of its own workflow, are drained by 1 and
 *    then by 2 worker processes (`scripts/worker.ts`, which `npm run worker` runs built; each runs 2
 *    at a time, the default). Two workloads: `files`, the filesystem sample (write, read, file
 *    info: its server starts for every run, so mostly CPU), and `wait`, a tool call that waits
 *    WAIT_MS (as a remote API would) then an echo. The clock starts when the jobs are put on the
 *    queue (the workers are up and idle) and stops when every run has ended; any run that did not
 *    succeed fails the bench.
 *
 *   npm run bench -- runs
 *   TOOLFLOW_BENCH_RUNS_ONLY=latency npm run bench -- runs     one measure (overhead, latency, drain)
 *   TOOLFLOW_BENCH_RUNS=100 TOOLFLOW_BENCH_RUNS_ROUNDS=2 TOOLFLOW_BENCH_DB_PREFIX=… npm run bench -- runs
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowServerOnlyImports } from '../../lib/server-context';
import type { ToolDeclaration } from '../../lib/tools/types';
import type { Plan } from '../../lib/workflow/types';
import { measureStatusLatency } from './_run-latency';
import type { BenchRow } from './types';

export const title = 'test-runs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const CHAIN = 50;
const REPEATS = 9;
const WAITER = join(ROOT, 'lib/mcp/__fixtures__/run-server.mjs');
const WAIT_MS = 500;
const BACKLOG = Number(process.env.TOOLFLOW_BENCH_RUNS) || 100;
const ROUNDS = Number(process.env.TOOLFLOW_BENCH_RUNS_ROUNDS) || 2;
const PG_ADMIN_URL = process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_PREFIX = process.env.TOOLFLOW_BENCH_DB_PREFIX ?? 'toolflow_bench_runs';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Workload = 'files' | 'wait';

/** `steps` echo steps, each one's `message` wired from the previous step's `result`. */
function chainPlan(steps: number) {
  return {
    steps: Array.from({ length: steps }, (_, i) => ({
      id: `s${i + 1}`,
      tool: 'echo',
      args: { message: i === 0 ? 'hello' : `{{s${i}.result}}` },
    })),
  };
}

const MEASURES = { overhead: measureOverhead, latency: measureStatusLatency, drain: measureDrain };

export async function run(): Promise<BenchRow[]> {
  allowServerOnlyImports();
  const only = process.env.TOOLFLOW_BENCH_RUNS_ONLY;
  if (only !== undefined && !(only in MEASURES))
    throw new Error(`TOOLFLOW_BENCH_RUNS_ONLY is one of ${Object.keys(MEASURES).join(', ')}, not "${only}".`);
  const rows: BenchRow[] = [];
  for (const [name, measure] of Object.entries(MEASURES)) {
    if (only === undefined || only === name) rows.push(...(await measure()));
  }
  return rows;
}

// ---- 1. overhead per step ----

/** The pace of a chain: time from the first step's end to the last one's, per step. */
const getPace = (finishedAt: number[]) => (finishedAt.at(-1)! - finishedAt[0]) / (finishedAt.length - 1);

interface Timing {
  /** Milliseconds per step once the server is up (see getPace). */
  pace: number;
  /** The whole run, server start included. */
  total: number;
}

async function measureOverhead(): Promise<BenchRow[]> {
  const [{ Client }, { StdioClientTransport }, client, runPort, preflight, exportMod, planMod] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('../../lib/mcp/client'),
      import('../../lib/mcp/run-port'),
      import('../../lib/run/preflight'),
      import('../../lib/workflow/export'),
      import('../../lib/workflow/plan'),
    ]);
  const dbClient = await import('../../lib/db/client');
  const runsDb = await import('../../lib/db/runs');
  const workflows = await import('../../lib/db/workflows');
  const queue = await import('../../lib/queue/app');
  const { DEFAULT_RUN_LIMITS } = await import('../../lib/run/limits');

  const dataDir = mkdtempSync(join(tmpdir(), 'toolflow-bench-runs-'));
  process.env.TOOLFLOW_DATA_DIR = dataDir;
  process.env.TOOLFLOW_MCP_SERVERS = JSON.stringify({
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  });
  const mcpOptions = { timeoutMs: 30_000, maxBytes: 5_000_000, allowPrivate: true };
  const listed = await client.listMcpTools(
    { kind: 'stdio', name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    mcpOptions,
  );
  if (!listed.ok) throw new Error(listed.error.message);
  const tools = listed.value.tools.filter((t) => t.name === 'echo');
  const limits = { ...DEFAULT_RUN_LIMITS, concurrency: 4 };
  const doc = planMod.createDocumentFromPlan(chainPlan(CHAIN), tools);
  if (!doc.ok) throw new Error(`the chain does not build: ${JSON.stringify(doc.error)}`);

  /** The same calls straight through the SDK: start, connect, the echoes one after another, close. */
  const direct = async (): Promise<Timing> => {
    const started = performance.now();
    const sdk = new Client({ name: 'bench', version: '1.0.0' });
    await sdk.connect(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
    );
    let message = 'hello';
    const finished: number[] = [];
    for (let i = 0; i < CHAIN; i++) {
      const result = await sdk.callTool({ name: 'echo', arguments: { message } });
      finished.push(Date.now());
      if (result.isError) throw new Error('echo failed');
      message = (result.content as { type: string; text: string }[])
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('\n');
    }
    await sdk.close();
    return { pace: getPace(finished), total: performance.now() - started };
  };

  /** `runExportHere`, as `toolflow run` does it. */
  const file = exportMod.exportWorkflow(doc.value, { id: 'wf_bench', name: 'Bench' });
  const here = async (): Promise<Timing> => {
    const started = performance.now();
    const config = { env: process.env };
    const plan = await runPort.planRunHere(file, { client: mcpOptions, config });
    const outcome = await runPort.runExportHere(file, plan, { client: mcpOptions, config, limits });
    const total = performance.now() - started;
    if (outcome.status !== 'succeeded') throw new Error(`run ${outcome.status}: ${outcome.error?.message}`);
    return { pace: getPace(outcome.nodes.map((n) => Date.parse(n.finishedAt!))), total };
  };

  // Through the queue: the in-process worker on embedded PGlite, every step stored.
  const db = await dbClient.createPrisma({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  await queue.getAppQueue(db);
  const wf = await workflows.createWorkflow(db, { name: 'chain', document: doc.value, ownerId: 'own_bench' });
  const storedFile = exportMod.exportWorkflow(doc.value, { id: wf.id, name: wf.name });
  const exportText = exportMod.formatExportFile(storedFile);
  const queued = async (): Promise<Timing> => {
    const started = performance.now();
    const created = await runsDb.createRun(db, {
      workflowId: wf.id,
      ownerId: 'own_bench',
      version: 1,
      exportText,
      exportHash: exportMod.getExportHash(exportText),
      limits,
      plan: preflight.planRun(storedFile),
    });
    await queue.enqueueRun(db, created.id);
    for (;;) {
      const current = await runsDb.getRun(db, created.id);
      if (current && !['queued', 'running'].includes(current.status)) {
        const total = performance.now() - started;
        if (current.status !== 'succeeded') throw new Error(`queued run ${current.status}`);
        const nodes = await runsDb.getRunNodes(db, created.id);
        return { pace: getPace(nodes.map((n) => n.finishedAt!.getTime())), total };
      }
      // Not too often: PGlite answers one query at a time, and the worker needs it more.
      await sleep(50);
    }
  };

  const ways = { direct, here, queued } as const;
  type Way = keyof typeof ways;
  const names = Object.keys(ways) as Way[];
  const timings: Record<Way, Timing[]> = { direct: [], here: [], queued: [] };
  try {
    for (const way of names) await ways[way](); // warm-up
    // Interleaved, so a busy moment of the machine falls on every way alike.
    for (let r = 0; r < REPEATS; r++) for (const way of names) timings[way].push(await ways[way]());
  } finally {
    await queue.stopAppQueue(db);
    await db.$disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const pace = (way: Way) => median(timings[way].map((t) => t.pace));
  const note = (way: Way) => {
    const paces = timings[way].map((t) => t.pace);
    return `median of ${REPEATS} runs of ${CHAIN} chained steps (${Math.min(...paces).toFixed(2)}–${Math.max(...paces).toFixed(2)}); whole run ${Math.round(median(timings[way].map((t) => t.total)))} ms with the server start`;
  };
  return [
    { figure: 'one echo step, direct MCP SDK call', value: pace('direct'), unit: 'ms', note: note('direct') },
    {
      figure: 'one echo step, toolflow run (runExportHere)',
      value: pace('here'),
      unit: 'ms',
      note: note('here'),
    },
    {
      figure: 'one echo step, queued run on PGlite, stored',
      value: pace('queued'),
      unit: 'ms',
      note: note('queued'),
    },
    { figure: 'ratio per step, toolflow run / direct', value: pace('here') / pace('direct'), unit: '×' },
    {
      figure: 'ratio per step, queued and stored / direct',
      value: pace('queued') / pace('direct'),
      unit: '×',
    },
  ];
}

// ---- 2. draining a backlog with 1 and 2 worker processes ----

async function isPostgresUp(): Promise<boolean> {
  const { createPgRunner } = await import('../../lib/db/sql-runner');
  try {
    const r = await createPgRunner(PG_ADMIN_URL);
    await r.close();
    return true;
  } catch {
    return false;
  }
}

interface WorkerProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** One `scripts/worker.ts` process (what `npm run worker` runs), resolved once it takes runs. */
function startWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/worker.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/taking test-runs/.test(output)) {
        clearTimeout(timer);
        resolve({
          child,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${output}`)));
  });
}

/** What each workload's runs call: the filesystem sample's tools, or a small waiting server. */
function getWorkloads(
  fileTools: ToolDeclaration[],
): Record<Workload, { tools: ToolDeclaration[]; steps: (tag: string) => Plan['steps'] }> {
  const waiterTools: ToolDeclaration[] = [
    ['sleep', { ms: { type: 'integer' } }],
    ['echo', { text: { type: 'string' } }],
  ].map(([tool, properties]) => ({
    name: tool as string,
    description: tool as string,
    inputSchema: { type: 'object', properties, required: Object.keys(properties) },
    source: { kind: 'mcp-stdio', server: 'waiter' },
  }));
  return {
    files: {
      tools: fileTools,
      steps: (tag) => [
        { id: 'write', tool: 'write_file', args: { path: `${tag}.txt`, content: `run ${tag}` } },
        { id: 'read', tool: 'read_text_file', args: { path: `${tag}.txt` } },
        { id: 'info', tool: 'get_file_info', args: { path: `${tag}.txt` } },
      ],
    },
    wait: {
      tools: waiterTools,
      steps: (tag) => [
        { id: 'wait', tool: 'sleep', args: { ms: WAIT_MS } },
        { id: 'echo', tool: 'echo', args: { text: tag } },
      ],
    },
  };
}

/** The drain times of each workload, 1 worker against 2, as bench rows. */
function getDrainRows(seconds: Record<Workload, Record<1 | 2, number[]>>): BenchRow[] {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const each = (values: number[]) => values.map((v) => `${v.toFixed(1)} s`).join(', ');
  const described: Record<Workload, string> = {
    files: 'filesystem sample: write, read, file info; its server started per run',
    wait: `a ${WAIT_MS} ms tool call then an echo, on a small stdio server (tests' run-server.mjs)`,
  };
  return (['files', 'wait'] as const).flatMap((workload): BenchRow[] => {
    const one = mean(seconds[workload][1]);
    const two = mean(seconds[workload][2]);
    const what = `${described[workload]}; 2 runs at a time per worker; mean of ${ROUNDS}`;
    return [
      {
        figure: `drain ${BACKLOG} ${workload} runs, 1 worker`,
        value: one,
        unit: 's',
        note: `${what}: ${each(seconds[workload][1])}`,
      },
      {
        figure: `drain ${BACKLOG} ${workload} runs, 2 workers`,
        value: two,
        unit: 's',
        note: `${what}: ${each(seconds[workload][2])}`,
      },
      {
        figure: `speed-up of 2 workers over 1, ${workload}`,
        value: one / two,
        unit: '×',
        // The claim of docs/scaling.md: where runs wait on their tools, a second worker drains
        // faster. Where they are CPU (a server started per run), more workers help only with more
        // cores: on a busy 2-core machine they do not, and that is shown, not failed.
        ...(workload === 'wait' ? { target: 1 } : {}),
        note:
          workload === 'wait'
            ? 'above 1: two workers drain the backlog faster'
            : 'CPU-bound: more workers help only with more cores',
      },
    ];
  });
}

async function measureDrain(): Promise<BenchRow[]> {
  if (!(await isPostgresUp())) {
    process.stderr.write(`bench runs: no Postgres on ${PG_ADMIN_URL}; the drain measure is skipped\n`);
    return [];
  }
  const { createPgRunner } = await import('../../lib/db/sql-runner');
  const dbClient = await import('../../lib/db/client');
  const runsDb = await import('../../lib/db/runs');
  const workflows = await import('../../lib/db/workflows');
  const { RUN_QUEUE, startBoss } = await import('../../lib/queue/boss');
  const { BUILTIN_TOOLKITS } = await import('../../lib/toolkits/builtin');
  const { DEFAULT_RUN_LIMITS } = await import('../../lib/run/limits');
  const { planRun } = await import('../../lib/run/preflight');
  const { exportWorkflow, formatExportFile, getExportHash } = await import('../../lib/workflow/export');
  const { createDocumentFromPlan } = await import('../../lib/workflow/plan');

  const name = `${DB_PREFIX}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = await createPgRunner(PG_ADMIN_URL);
  await admin.exec(`CREATE DATABASE "${name}"`);
  await admin.close();
  const url = PG_ADMIN_URL.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`).replace(/undefined$/, '');
  const dataDir = mkdtempSync(join(tmpdir(), 'toolflow-bench-drain-'));
  const db = await dbClient.createPrisma({ kind: 'postgres', url });
  const boss = await startBoss(dbClient.getDatabaseBacking(db));
  const fileTools = BUILTIN_TOOLKITS.find((k) => k.key === 'files')!.tools;
  const workerEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    TOOLFLOW_DATA_DIR: dataDir,
    TOOLFLOW_MCP_SERVERS: JSON.stringify({ waiter: { command: process.execPath, args: [WAITER] } }),
    TOOLFLOW_WORKER_GRACE_MS: '5000',
  };
  delete workerEnv.TOOLFLOW_WORKER_CONCURRENCY;
  const workers: WorkerProcess[] = [];

  const workloads = getWorkloads(fileTools);

  /** Stores `count` runs of their own workflows; returns their ids. */
  const createBacklog = async (workload: Workload, tag: string, count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const { tools, steps } = workloads[workload];
      const doc = createDocumentFromPlan({ steps: steps(`${tag}-${i}`) }, tools);
      if (!doc.ok) throw new Error(JSON.stringify(doc.error));
      const wf = await workflows.createWorkflow(db, {
        name: `${tag}-${i}`,
        document: doc.value,
        ownerId: 'own_bench',
      });
      const file = exportWorkflow(doc.value, { id: wf.id, name: wf.name });
      const exportText = formatExportFile(file);
      const created = await runsDb.createRun(db, {
        workflowId: wf.id,
        ownerId: 'own_bench',
        version: 1,
        exportText,
        exportHash: getExportHash(exportText),
        limits: DEFAULT_RUN_LIMITS,
        plan: planRun(file),
      });
      ids.push(created.id);
    }
    return ids;
  };

  const drain = async (workload: Workload, workerCount: number, round: number) => {
    const ids = await createBacklog(workload, `${workload}-w${workerCount}r${round}`, BACKLOG);
    for (let i = 0; i < workerCount; i++) workers.push(await startWorker(workerEnv));
    const started = performance.now();
    await boss.insert(ids.map((runId) => ({ name: RUN_QUEUE, data: { runId } })));
    let ended: { status: string }[] = [];
    for (;;) {
      ended = await db.run.findMany({
        where: { id: { in: ids }, status: { notIn: ['queued', 'running'] } },
        select: { status: true },
      });
      if (ended.length === ids.length) break;
      if (performance.now() - started > 15 * 60_000) throw new Error('the backlog did not drain in 15 min');
      await sleep(100);
    }
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    const failed = ended.filter((r) => r.status !== 'succeeded').length;
    if (failed > 0) throw new Error(`${failed} of ${ids.length} runs did not succeed`);
    process.stderr.write(
      `bench runs: ${BACKLOG} ${workload} runs, ${workerCount} worker(s), round ${round}: ${seconds.toFixed(1)} s\n`,
    );
    return seconds;
  };

  const seconds: Record<Workload, Record<1 | 2, number[]>> = {
    files: { 1: [], 2: [] },
    wait: { 1: [], 2: [] },
  };
  try {
    for (const workload of ['files', 'wait'] as const) {
      for (let round = 1; round <= ROUNDS; round++) {
        // Alternate which goes first, so a busy stretch of the machine does not favour one.
        const order: (1 | 2)[] = round % 2 === 1 ? [1, 2] : [2, 1];
        for (const count of order) seconds[workload][count].push(await drain(workload, count, round));
      }
    }
  } finally {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await boss.stop({ graceful: false, wait: true, close: true });
    await db.$disconnect();
    const cleanup = await createPgRunner(PG_ADMIN_URL);
    await cleanup.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await cleanup.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return getDrainRows(seconds);
}
