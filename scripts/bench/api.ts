/**
 * API throughput beside a bare JSON route on the same server: autocannon, 10 connections, on
 * GET /api/bench/json (no database, no cookie), GET /api/workflows/<id> (a read of a 100-node
 * workflow, the owner's cookie verified) and PUT /api/workflows/<id> (a save: each connection saves
 * its own workflow on top of the version it last got back, so every save is accepted), alternated
 * in rounds. Reports each as req/s and as a fraction of the bare route. PGlite, then Postgres when
 * a server answers.
 *
 *   npm run bench -- api                      (needs `npm run build` first)
 */
import autocannon, { type Options } from 'autocannon';
import { generateWorkflow } from '../../lib/bench/generate-workflow';
import { measureOnEachBackend } from './_server';
import { runWhenCalledDirectly } from './_main';
import type { BenchRow } from './types';

export const title = 'API throughput';

const NODES = 100;
const SECONDS = 5;
const ROUNDS = 2;
const CONNECTIONS = 10;

interface Run {
  rps: number;
  p99: number;
  failed: number;
}

async function measure(base: string, backend: string): Promise<BenchRow[]> {
  const doc = generateWorkflow(NODES);
  // One owner; two workflows per connection (autocannon prepares a connection's next request
  // before it hands over the answer to the last), so concurrent saves never race on a version.
  let cookie = '';
  const workflows: { id: string; version: number }[] = [];
  for (let i = 0; i < 2 * CONNECTIONS; i++) {
    const res = await fetch(base + '/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ name: `API bench ${i}`, document: doc }),
    });
    if (res.status !== 201) throw new Error(`create failed: HTTP ${res.status} ${await res.text()}`);
    cookie ||= (res.headers.get('set-cookie') ?? '').split(';')[0];
    const { workflow } = await res.json();
    workflows.push({ id: workflow.id, version: workflow.version });
  }
  const headers = { cookie, 'content-type': 'application/json' };
  const bare = await fetch(base + '/api/bench/json');
  if (bare.status !== 200)
    throw new Error('GET /api/bench/json did not answer: start with TOOLFLOW_BENCH_PAGES=1.');

  const cannon = async (opts: Partial<Options>): Promise<Run> => {
    const r = await autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, headers, ...opts });
    return { rps: r.requests.average, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts };
  };
  const bodies = doc.nodes.length;
  const free = workflows.map((_, i) => i);
  let failure = '';
  const runs: Record<'bare' | 'read' | 'save', Run[]> = { bare: [], read: [], save: [] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.bare.push(await cannon({ url: base + '/api/bench/json' }));
    runs.read.push(await cannon({ url: `${base}/api/workflows/${workflows[0].id}` }));
    runs.save.push(
      await cannon({
        requests: [
          {
            method: 'PUT',
            // Each request takes a workflow no other request holds and gives it back with its
            // answer, so no two saves race on one version (autocannon resets `context` per request).
            setupRequest: (req, context) => {
              const slot = free.pop();
              if (slot === undefined) throw new Error('more requests in flight than workflows');
              context.slot = slot;
              const wf = workflows[slot];
              const i = wf.version % bodies;
              const nodes = doc.nodes.map((n, j) =>
                j === i ? { ...n, position: { x: n.position.x + wf.version, y: n.position.y } } : n,
              );
              return {
                ...req,
                path: `/api/workflows/${wf.id}`,
                body: JSON.stringify({ version: wf.version, document: { ...doc, nodes } }),
              };
            },
            onResponse: (status, body, context) => {
              if (status === 200) workflows[context.slot].version = JSON.parse(body).workflow.version;
              else if (!failure) failure = `HTTP ${status} ${body.slice(0, 200)}`;
              free.push(context.slot);
            },
          },
        ],
      }),
    );
  }
  if (failure) process.stderr.write(`api bench: a save failed: ${failure}\n`);
  const mean = (xs: Run[]) => xs.reduce((a, r) => a + r.rps, 0) / xs.length;
  const failed = (xs: Run[]) => xs.reduce((a, r) => a + r.failed, 0);
  const bareRps = mean(runs.bare);
  const note = (xs: Run[], what: string) =>
    `${what}; autocannon ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s, alternating; ${backend}; p99 ${Math.max(...xs.map((r) => r.p99))} ms${failed(xs) ? `; ${failed(xs)} failed` : ''}`;
  return [
    {
      figure: `bare JSON route (${backend})`,
      value: bareRps,
      unit: 'req/s',
      note: note(runs.bare, 'GET /api/bench/json'),
    },
    {
      figure: `read (${backend})`,
      value: mean(runs.read),
      unit: 'req/s',
      note: note(runs.read, `GET a ${NODES}-node workflow`),
    },
    { figure: `read ÷ bare (${backend})`, value: mean(runs.read) / bareRps, unit: '×' },
    {
      figure: `save (${backend})`,
      value: mean(runs.save),
      unit: 'req/s',
      note: note(runs.save, `PUT a ${NODES}-node workflow`),
    },
    { figure: `save ÷ bare (${backend})`, value: mean(runs.save) / bareRps, unit: '×' },
  ];
}

export async function run(): Promise<BenchRow[]> {
  return measureOnEachBackend(
    { name: 'api', readyPath: '/api/health', env: { TOOLFLOW_BENCH_PAGES: '1' } },
    measure,
  );
}

runWhenCalledDirectly(import.meta.url, run);
