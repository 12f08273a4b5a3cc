/**
 * An app restart in the middle of a test-run: the process running it is killed
 * (SIGKILL, nothing gets to clean up), and the next process to start marks the run interrupted,
 * its running step interrupted, never "running". On the embedded database (the app restarts on
 * the same data directory) and on Postgres (a worker process, built as `npm run worker` runs it,
 * dies; another worker's sweep finds its stale heartbeat).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrisma, getDatabaseBacking } from '@/lib/db/client';
import { createRun } from '@/lib/db/runs';
import { createWorkflow } from '@/lib/db/workflows';
import { runServerConfig } from '@/lib/mcp/__fixtures__/servers';
import { getAppQueue, stopAppQueue } from '@/lib/queue/app';
import { RUN_QUEUE, startBoss } from '@/lib/queue/boss';
import { startRunWorker } from '@/lib/queue/run-worker';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { planRun } from '@/lib/run/preflight';
import { exportWorkflow } from '@/lib/workflow/export';
import { createDocumentFromPlan } from '@/lib/workflow/plan';
import { getTestBackends } from './db';

const backends = await getTestBackends();
const postgres = backends.find((b) => b.name === 'postgres');
const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env, TOOLFLOW_MCP_SERVERS: runServerConfig('faulty'), TOOLFLOW_SAMPLE_SERVERS: '0' };
const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill('SIGKILL')));

/**
 * The production scripts as `npm run build` makes them (scripts/build-scripts.mjs), in a folder
 * of their own inside node_modules (so their imports resolve as from dist/). Built once, on first
 * use.
 */
let built: string | undefined;
function getBuiltScripts(): string {
  if (built) return built;
  const cache = path.join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(path.join(cache, 'toolflow-built-scripts-'));
  execFileSync(process.execPath, ['scripts/build-scripts.mjs', '--outdir', outdir], {
    cwd: root,
    stdio: 'ignore',
  });
  return (built = outdir);
}
afterAll(() => {
  if (built) rmSync(built, { recursive: true, force: true });
});

/** A TypeScript file (through tsx) or a built script (plain Node, as production runs it). */
function start(args: string[], extraEnv: Record<string, string> = {}) {
  // tsx as a loader in this one process (its CLI would run the script in a second process, which
  // a kill of the first would leave alive).
  const loader = args[0].endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, ...args], {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const waitFor = (pattern: RegExp, ms = 60_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${output}`)), ms);
      const check = () => {
        const match = pattern.exec(output);
        if (match) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve(match);
        }
      };
      const poll = setInterval(check, 50);
    });
  const kill = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return { waitFor, kill };
}

const sleepTool = {
  name: 'sleep',
  description: 'wait',
  inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
  source: { kind: 'mcp-stdio' as const, server: 'faulty' },
};

describe('an app restart in the middle of a run', () => {
  it('on the embedded database: the restarted app marks the run interrupted', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'toolflow-restart-')), 'pglite');
    const app = start([path.join(root, 'tests/run-restart/app-child.ts'), dataDir]);
    const [, runId] = await app.waitFor(/RUNNING (\S+)/);
    await app.kill();

    const db = await createPrisma({ kind: 'pglite', dataDir });
    try {
      expect((await db.run.findUnique({ where: { id: runId } }))?.status).toBe('running');
      await getAppQueue(db); // what the app does when it starts
      const run = await db.run.findUnique({ where: { id: runId }, include: { nodes: true } });
      expect(run).toMatchObject({ status: 'interrupted', error: { code: 'interrupted' } });
      expect(run!.finishedAt).not.toBeNull();
      expect(run!.nodes.map((n) => n.status)).toEqual(['interrupted']);
    } finally {
      await stopAppQueue(db);
      await db.$disconnect();
    }
  }, 120_000);

  it.runIf(postgres !== undefined)(
    'on Postgres: a worker process dies, another worker finds its stale heartbeat',
    async () => {
      const database = await postgres!.open();
      const { db } = database;
      try {
        const doc = createDocumentFromPlan({ steps: [{ id: 'nap', tool: 'sleep', args: { ms: 60_000 } }] }, [
          sleepTool,
        ]);
        if (!doc.ok) throw new Error('plan');
        await db.owner.create({ data: { id: 'own_pg' } });
        const workflow = await createWorkflow(db, {
          name: 'Restart',
          document: doc.value,
          ownerId: 'own_pg',
        });
        const file = exportWorkflow(doc.value, { id: workflow.id, name: workflow.name });
        const run = await createRun(db, {
          workflowId: workflow.id,
          ownerId: 'own_pg',
          version: 1,
          exportText: JSON.stringify(file),
          exportHash: 'sha256:test',
          limits: DEFAULT_RUN_LIMITS,
          plan: planRun(file),
        });
        const boss = await startBoss(getDatabaseBacking(db));
        // The worker as `npm run worker` runs it: the built file, no TypeScript loader.
        const worker = start([path.join(getBuiltScripts(), 'worker.js')], { DATABASE_URL: database.url! });
        await worker.waitFor(/taking test-runs/);
        await boss.send(RUN_QUEUE, { runId: run.id });
        for (let i = 0; i < 600; i++) {
          if ((await db.nodeRun.findFirst({ where: { runId: run.id } }))?.status === 'running') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await worker.kill();
        expect((await db.run.findUnique({ where: { id: run.id } }))?.status).toBe('running');
        await new Promise((r) => setTimeout(r, 1_500));
        const other = await startRunWorker({
          db,
          boss,
          client: { timeoutMs: 5_000, maxBytes: 1_000_000, allowPrivate: true },
          staleAfterMs: 1_000,
        });
        const after = await db.run.findUnique({ where: { id: run.id }, include: { nodes: true } });
        expect(after).toMatchObject({ status: 'interrupted' });
        expect(after!.nodes.map((n) => n.status)).toEqual(['interrupted']);
        await other.stop(0);
        await boss.stop({ graceful: false, wait: true, close: true });
      } finally {
        await database.close();
      }
    },
    120_000,
  );
});
