/**
 * Saving and sharing against a started production server (`next start` on the build, over HTTP
 * on 127.0.0.1): save (PUT with its version, one revision written per save) and load (GET) latency
 * of a 500-node workflow, p50 and p99 over sequential requests; then the share page's request
 * throughput under autocannon. Runs on embedded PGlite (the default set-up) and, when a Postgres
 * server answers, on a fresh database there too.
 *
 *   npx tsx scripts/bench/saving.ts        alone (needs `npm run build` first)
 *   npm run bench -- saving                as a section of the bench table
 */
import autocannon from 'autocannon';
import { generateWorkflow } from '../../lib/bench/generate-workflow';
import { measureOnEachBackend } from './_server';
import { runWhenCalledDirectly } from './_main';
import type { BenchRow } from './types';

export const title = 'saving';

const NODES = 500;
const SAVES = 120;
const LOADS = 120;
const WARMUP = 5;
const SHARE_NODES = 50;
const CANNON_SECONDS = 10;
const CANNON_CONNECTIONS = 10;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** `next start` on the production build with its own data dir (and database, when given). */
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

async function measure(base: string, backend: string): Promise<BenchRow[]> {
  const api = createClient(base);
  const doc = generateWorkflow(NODES);
  const bytes = JSON.stringify(doc).length;
  const created = await api('/api/workflows', {
    method: 'POST',
    body: JSON.stringify({ name: 'Bench', document: doc }),
  });
  if (created.status !== 201)
    throw new Error(`create failed: HTTP ${created.status} ${await created.text()}`);
  const { workflow } = await created.json();
  let version = workflow.version as number;

  const saves: number[] = [];
  for (let i = 0; i < WARMUP + SAVES; i++) {
    // A real edit each time: one node moved, as a drag would save.
    const nodes = doc.nodes.map((n, j) =>
      j === i % NODES ? { ...n, position: { x: n.position.x + 1, y: n.position.y } } : n,
    );
    const body = JSON.stringify({ version, document: { ...doc, nodes } });
    const start = performance.now();
    const res = await api(`/api/workflows/${workflow.id}`, { method: 'PUT', body });
    const json = await res.json();
    const ms = performance.now() - start;
    if (res.status !== 200)
      throw new Error(`save failed: HTTP ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
    version = json.workflow.version;
    if (i >= WARMUP) saves.push(ms);
  }
  const loads: number[] = [];
  for (let i = 0; i < WARMUP + LOADS; i++) {
    const start = performance.now();
    const res = await api(`/api/workflows/${workflow.id}`);
    await res.json();
    const ms = performance.now() - start;
    if (res.status !== 200) throw new Error(`load failed: HTTP ${res.status}`);
    if (i >= WARMUP) loads.push(ms);
  }
  const note = `${NODES} nodes, ${(bytes / 1024).toFixed(0)} KB; ${backend}; sequential, over HTTP`;
  return [
    { figure: `save p50 (${backend})`, value: percentile(saves, 50), unit: 'ms', better: 'lower', note },
    { figure: `save p99 (${backend})`, value: percentile(saves, 99), unit: 'ms', better: 'lower', note },
    { figure: `load p50 (${backend})`, value: percentile(loads, 50), unit: 'ms', better: 'lower', note },
    { figure: `load p99 (${backend})`, value: percentile(loads, 99), unit: 'ms', better: 'lower', note },
  ];
}

async function measureSharePage(base: string, backend: string): Promise<BenchRow[]> {
  const api = createClient(base);
  const created = await api('/api/workflows', {
    method: 'POST',
    body: JSON.stringify({ name: 'Shared bench', document: generateWorkflow(SHARE_NODES) }),
  });
  const { workflow } = await created.json();
  const shared = await api(`/api/workflows/${workflow.id}/shares`, {
    method: 'POST',
    body: JSON.stringify({ acknowledgeSecrets: true }),
  });
  const { path } = await shared.json();
  const page = await fetch(base + path);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`share page failed: HTTP ${page.status}`);
  const result = await autocannon({
    url: base + path,
    connections: CANNON_CONNECTIONS,
    duration: CANNON_SECONDS,
    // A browser that already has its owner cookie (the proxy would otherwise sign a new one).
    headers: { cookie: (page.headers.get('set-cookie') ?? '').split(';')[0] },
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  const note = `GET /s/<token>, ${SHARE_NODES}-node workflow (${(html.length / 1024).toFixed(0)} KB HTML); autocannon ${CANNON_CONNECTIONS} connections × ${CANNON_SECONDS} s; ${backend}${failed ? `; ${failed} failed` : ''}`;
  return [
    { figure: `share page throughput (${backend})`, value: result.requests.average, unit: 'req/s', note },
    {
      figure: `share page latency p50 (${backend})`,
      value: result.latency.p50,
      unit: 'ms',
      better: 'lower',
      note,
    },
    {
      figure: `share page latency p99 (${backend})`,
      value: result.latency.p99,
      unit: 'ms',
      better: 'lower',
      note,
    },
  ];
}

/** The bench section: latencies and throughput on PGlite, then on Postgres when there is one. */
export async function run(): Promise<BenchRow[]> {
  return measureOnEachBackend({ name: 'saving', readyPath: '/api/health' }, async (url, backend) => [
    ...(await measure(url, backend)),
    ...(await measureSharePage(url, backend)),
  ]);
}

runWhenCalledDirectly(import.meta.url, run, { digits: 1 });
