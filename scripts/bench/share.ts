/**
 * The share page under load, beside the server's own ceiling: autocannon on GET /s/<token> (a
 * 50-node workflow) and on GET /api/health (one `SELECT 1`) of the same `next start`, alternated
 * in rounds so both see the same machine; the ratio of the two is the figure that travels between
 * machines. Also the page's HTML size, and that a revoked link answers 404 on the very next
 * request right after the load (when any cache is as warm as it gets). PGlite, then Postgres when
 * a server answers.
 *
 *   npm run bench -- share                    (needs `npm run build` first)
 */
import autocannon from 'autocannon';
import { generateWorkflow } from '../../lib/bench/generate-workflow';
import { measureOnEachBackend } from './_server';
import { runWhenCalledDirectly } from './_main';
import type { BenchRow } from './types';

export const title = 'share page';

const NODES = 50;
const SECONDS = 5;
const ROUNDS = 2;
const CONNECTIONS = 10;

function createClient(base: string) {
  let cookie = '';
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(base + path, {
      ...init,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...init.headers },
    });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
    return res;
  };
  return { send, cookie: () => cookie };
}

async function cannon(url: string, cookie: string) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { cookie },
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

async function measure(base: string, backend: string): Promise<BenchRow[]> {
  const api = createClient(base);
  const created = await api.send('/api/workflows', {
    method: 'POST',
    body: JSON.stringify({ name: 'Shared bench', document: generateWorkflow(NODES) }),
  });
  const { workflow } = await created.json();
  const shared = await api.send(`/api/workflows/${workflow.id}/shares`, {
    method: 'POST',
    body: JSON.stringify({ acknowledgeSecrets: true }),
  });
  const { path, share } = await shared.json();
  const page = await fetch(base + path, { headers: { cookie: api.cookie() } });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`share page failed: HTTP ${page.status}`);

  const pageRuns: Awaited<ReturnType<typeof cannon>>[] = [];
  const healthRuns: Awaited<ReturnType<typeof cannon>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    healthRuns.push(await cannon(base + '/api/health', api.cookie()));
    pageRuns.push(await cannon(base + path, api.cookie()));
  }
  // Revoke right after the load, then ask once: the very next request must not see the link.
  const revoked = await api.send(`/api/workflows/${workflow.id}/shares/${share.id}`, { method: 'DELETE' });
  if (revoked.status !== 204) throw new Error(`revoke failed: HTTP ${revoked.status}`);
  const after = await fetch(base + path, { headers: { cookie: api.cookie() } });
  await after.text();

  const sum = (runs: typeof pageRuns, k: 'rps' | 'failed') => runs.reduce((a, r) => a + r[k], 0);
  const pageRps = sum(pageRuns, 'rps') / ROUNDS;
  const healthRps = sum(healthRuns, 'rps') / ROUNDS;
  const failed = sum(pageRuns, 'failed') + sum(healthRuns, 'failed');
  const note = `autocannon ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s each, alternating with /api/health; ${NODES}-node workflow; ${backend}${failed ? `; ${failed} failed` : ''}`;
  return [
    { figure: `share page throughput (${backend})`, value: pageRps, unit: 'req/s', note },
    { figure: `/api/health throughput (${backend})`, value: healthRps, unit: 'req/s', note },
    { figure: `share page ÷ /api/health (${backend})`, value: pageRps / healthRps, unit: '×', note },
    {
      figure: `share page latency p99 (${backend})`,
      value: Math.max(...pageRuns.map((r) => r.p99)),
      unit: 'ms',
      better: 'lower',
      note,
    },
    {
      figure: `share page HTML (${backend})`,
      value: Buffer.byteLength(html) / 1024,
      unit: 'KB',
      target: 94,
      better: 'lower',
      note: `GET ${NODES}-node share page, uncompressed`,
    },
    {
      figure: `first request after revoking answers 404 (${backend})`,
      value: after.status === 404 ? 1 : 0,
      unit: 'yes=1',
      target: 1,
      note: `HTTP ${after.status} right after ${ROUNDS * SECONDS} s of load on the link`,
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  return measureOnEachBackend({ name: 'share', readyPath: '/api/health' }, measure);
}

runWhenCalledDirectly(import.meta.url, run);
