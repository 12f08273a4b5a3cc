/**
 * How late a test-run's step statuses reach a person: from the moment the executor records a
 * change (a step's `startedAt` when it starts running, its `finishedAt` when it ends, both taken
 * before the record is stored) to the arrival, at a client over HTTP, of the first line of
 * `GET /api/runs/:id/events` that shows it. A status the stream skipped (a step already finished
 * in the first line that shows it started) counts from its own time to that line.
 *
 * Against the production build (`npm run build` first): on the embedded database, where the
 * app's own worker runs the steps, and on a fresh Postgres database (when one answers) with the
 * app's worker off and the steps run by a separate `scripts/worker.ts` process, so the change
 * crosses processes. Each run is a chain of STEPS `sleep` calls of varied length on a small stdio
 * server (lib/mcp/__fixtures__/run-server.mjs), so changes fall at every moment of any polling.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDeclaration } from '../../lib/tools/types';
import { createDocumentFromPlan } from '../../lib/workflow/plan';
import { openBenchDatabase } from './_database';
import { startBenchServer } from './_server';
import type { BenchRow } from './types';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WAITER = join(ROOT, 'lib/mcp/__fixtures__/run-server.mjs');
const STEPS = 12;
const RUNS = Number(process.env.TOOLFLOW_BENCH_LATENCY_RUNS) || 6;
/** The latency a person should see at most (a step's status within 300 ms). */
const TARGET_MS = 300;

const SLEEP: ToolDeclaration = {
  name: 'sleep',
  description: 'Wait ms milliseconds',
  inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
  source: { kind: 'mcp-stdio', server: 'waiter' },
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

/** An API client that keeps the owner cookie the server issues, as a browser would. */
function createClient(base: string) {
  let cookie = '';
  return async (path: string, init: RequestInit = {}) => {
    const res = await fetch(base + path, {
      ...init,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...init.headers },
    });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
    return res;
  };
}

interface StreamNode {
  nodeId: string;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Reads a run's event stream to its end; each state line with the time it arrived. */
async function readStates(res: Response): Promise<{ at: number; nodes: StreamNode[] }[]> {
  const states: { at: number; nodes: StreamNode[] }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    const at = Date.now();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const line = JSON.parse(buffered.slice(0, newline)) as { type: string; nodes?: StreamNode[] };
      buffered = buffered.slice(newline + 1);
      if (line.type === 'state') states.push({ at, nodes: line.nodes! });
    }
  }
  return states;
}

/** The delays of every status change the stream showed after it opened. */
function getDelays(states: { at: number; nodes: StreamNode[] }[]): number[] {
  const opened = states[0]?.at ?? 0;
  const delays: number[] = [];
  const shown = (at: number, changedAt: string | null) => {
    const t = changedAt ? Date.parse(changedAt) : NaN;
    // A change made before the stream opened was not waiting on the stream.
    if (Number.isFinite(t) && t >= opened) delays.push(Math.max(0, at - t));
  };
  const ids = new Set(states.flatMap((s) => s.nodes.map((n) => n.nodeId)));
  for (const id of ids) {
    const running = states.find((s) => s.nodes.some((n) => n.nodeId === id && n.status !== 'queued'));
    const node = running?.nodes.find((n) => n.nodeId === id);
    if (running && node) shown(running.at, node.startedAt);
    const final = states.find((s) =>
      s.nodes.some((n) => n.nodeId === id && n.status !== 'queued' && n.status !== 'running'),
    );
    if (final) shown(final.at, final.nodes.find((n) => n.nodeId === id)!.finishedAt);
  }
  return delays;
}

async function measureServer(base: string): Promise<number[]> {
  const api = createClient(base);
  // Varied step lengths (60–250 ms), the same on every backend.
  const steps = Array.from({ length: STEPS }, (_, i) => ({
    id: `s${i + 1}`,
    tool: 'sleep',
    args: { ms: 60 + ((i * 37) % 190) },
  }));
  const doc = createDocumentFromPlan({ steps }, [SLEEP]);
  if (!doc.ok) throw new Error(JSON.stringify(doc.error));
  const created = await api('/api/workflows', {
    method: 'POST',
    body: JSON.stringify({ name: 'Latency', document: doc.value }),
  });
  if (created.status !== 201) throw new Error(`create: HTTP ${created.status} ${await created.text()}`);
  const { workflow } = (await created.json()) as { workflow: { id: string; version: number } };
  const delays: number[] = [];
  for (let r = 0; r < RUNS + 1; r++) {
    const started = await api(`/api/workflows/${workflow.id}/runs`, {
      method: 'POST',
      body: JSON.stringify({ version: workflow.version }),
    });
    if (started.status !== 201) throw new Error(`run: HTTP ${started.status} ${await started.text()}`);
    const { run } = (await started.json()) as { run: { id: string } };
    const events = await api(`/api/runs/${run.id}/events`);
    const states = await readStates(events);
    const last = states.at(-1)?.nodes ?? [];
    if (last.length !== STEPS || last.some((n) => n.status !== 'succeeded'))
      throw new Error(`run ${run.id} did not succeed: ${JSON.stringify(last.map((n) => n.status))}`);
    // The first run warms the server up (routes compiled, the stdio server's first start).
    if (r > 0) delays.push(...getDelays(states));
  }
  return delays;
}

/** A `scripts/worker.ts` process, resolved once it takes runs. */
function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
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
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${output}`)));
  });
}

const rowsOf = (backend: string, delays: number[]): BenchRow[] => {
  const note = `${delays.length} status changes over ${RUNS} runs of ${STEPS} steps; max ${Math.round(Math.max(...delays))} ms`;
  return [
    {
      figure: `step status to client, p50, ${backend}`,
      value: percentile(delays, 50),
      unit: 'ms',
      target: TARGET_MS,
      better: 'lower',
      note,
    },
    {
      figure: `step status to client, p95, ${backend}`,
      value: percentile(delays, 95),
      unit: 'ms',
      target: TARGET_MS,
      better: 'lower',
    },
  ];
};

/** The latency rows: embedded database (in-process worker), then Postgres (a worker process). */
export async function measureStatusLatency(): Promise<BenchRow[]> {
  const servers = JSON.stringify({ waiter: { command: process.execPath, args: [WAITER] } });
  const rows: BenchRow[] = [];
  const embedded = await startBenchServer({
    name: 'latency',
    readyPath: '/api/health',
    migrate: true,
    env: { TOOLFLOW_MCP_SERVERS: servers },
  });
  try {
    rows.push(...rowsOf('PGlite, in-process worker', await measureServer(embedded.url)));
  } finally {
    embedded.stop();
  }
  const pg = await openBenchDatabase('latency');
  if (!pg) return rows;
  const server = await startBenchServer({
    name: 'latency-pg',
    readyPath: '/api/health',
    migrate: true,
    databaseUrl: pg.url,
    env: { TOOLFLOW_MCP_SERVERS: servers, TOOLFLOW_APP_WORKER: '0' },
  });
  let worker: ChildProcess | undefined;
  try {
    worker = await startWorker({
      ...process.env,
      DATABASE_URL: pg.url,
      TOOLFLOW_MCP_SERVERS: servers,
      TOOLFLOW_WORKER_GRACE_MS: '2000',
    });
    rows.push(...rowsOf('Postgres, worker process', await measureServer(server.url)));
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker!.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    server.stop();
    await pg.drop();
  }
  return rows;
}
