/**
 * Server CPU per request, route by route: where the mixed load's CPU goes, without a profiler.
 * Serves the build in --app-dir as `npm run load` does (one `next start` on a fresh Postgres
 * database), makes one owner's workflows from the load test's documents, then sends each
 * operation of the mix on its own, `--requests` times with 8 in flight, and divides the server's
 * CPU time (/proc) by the requests. Compare builds side by side, in one sitting.
 *
 *   npx tsx scripts/load/routes.ts [--app-dir DIR] [--requests N (300)] [--only save,read]
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { WorkflowDocument } from '../../lib/workflow/types';
import { createLoadDatabase } from './database';
import { buildDocument, editDocument, pickNodeCount } from './documents';
import { createHttpClient } from './http';
import { createRandom } from './random';
import { CpuMeter, getProcessTree, startServer } from './server';
import { MIX } from './simulate';

const IN_FLIGHT = 8;
const WORKFLOWS = 20;

function readOptions(argv: string[]) {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    appDir: value('--app-dir') ?? fileURLToPath(new URL('../../', import.meta.url)),
    requests: Number(value('--requests') ?? 300),
    only: value('--only')?.split(','),
    pgUrl: process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

async function main() {
  const opts = readOptions(process.argv.slice(2));
  const database = await createLoadDatabase(opts.pgUrl, opts.appDir);
  const server = await startServer({
    appDir: opts.appDir,
    databaseUrl: database.url,
    secret: randomBytes(32).toString('hex'),
  }).catch(async (error: Error) => {
    await database.drop();
    throw error;
  });
  const client = createHttpClient(server.url, IN_FLIGHT);
  try {
    let cookie = '';
    const send = async (method: string, path: string, body?: string) => {
      const headers: Record<string, string> = { cookie, origin: server.url };
      if (body) headers['content-type'] = 'application/json';
      const reply = await client.send(method, path, headers, body, 60_000);
      cookie ||= (reply.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
      if (reply.status >= 400 && reply.status !== 409)
        throw new Error(`${method} ${path} → ${reply.status}: ${reply.text.slice(0, 200)}`);
      return reply;
    };
    await send('GET', '/api/workflows');
    const random = createRandom(7);
    const workflows: { id: string; version: number; doc: WorkflowDocument }[] = [];
    for (let i = 0; i < WORKFLOWS; i++) {
      const doc = buildDocument(random, pickNodeCount(random));
      const reply = await send('POST', '/api/workflows', JSON.stringify({ name: `w${i}`, document: doc }));
      const { id, version } = (JSON.parse(reply.text) as { workflow: { id: string; version: number } })
        .workflow;
      workflows.push({ id, version, doc });
    }
    const pick = (i: number) => workflows[i % WORKFLOWS];
    const save = async (i: number) => {
      const w = pick(i);
      const { doc } = editDocument(random, w.doc);
      const reply = await send(
        'PUT',
        `/api/workflows/${w.id}`,
        JSON.stringify({ version: w.version, document: doc }),
      );
      if (reply.status !== 200) return;
      w.version = (JSON.parse(reply.text) as { workflow: { version: number } }).workflow.version;
      w.doc = doc;
    };
    const operations: Record<Exclude<keyof typeof MIX, 'create'>, (i: number) => Promise<unknown>> = {
      save,
      read: (i) => send('GET', `/api/workflows/${pick(i).id}`),
      list: () => send('GET', '/api/workflows'),
      export: (i) => send('GET', `/api/workflows/${pick(i).id}/export`),
      revisions: (i) => send('GET', `/api/workflows/${pick(i).id}/revisions?limit=50`),
      revision: (i) => send('GET', `/api/workflows/${pick(i).id}/revisions/${pick(i).version}`),
    };
    for (let i = 0; i < 100; i++) await save(i); // histories to read, and a warmed-up server
    let weighted = 0;
    let weights = 0;
    for (const [name, operation] of Object.entries(operations)) {
      if (opts.only && !opts.only.includes(name)) continue;
      for (let i = 0; i < 30; i++) await operation(i);
      const meter = new CpuMeter();
      const pids = getProcessTree(server.pid);
      meter.start(pids);
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < opts.requests) await operation(next++);
        }),
      );
      meter.sample(pids);
      const ms = (meter.seconds() * 1000) / opts.requests;
      const weight = MIX[name as keyof typeof MIX];
      weighted += ms * weight;
      weights += weight;
      console.log(`${name.padEnd(10)} ${ms.toFixed(2)} ms of server CPU per request`);
    }
    console.log(`weighted as the mix (creates left out): ${(weighted / weights).toFixed(2)} ms`);
  } finally {
    client.close();
    await server.stop();
    await database.drop();
  }
}

await main();
