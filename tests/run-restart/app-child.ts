/**
 * The app side of tests/run-restart.test.ts: opens the embedded database at argv[2], starts the
 * queue and the in-process worker as the app does, stores and enqueues a run whose one step
 * sleeps for a minute, prints `RUNNING <runId>` once that step is being called, and waits to be
 * killed.
 */
import { allowServerOnlyImports } from '../../lib/server-context';

allowServerOnlyImports();
const { createPrisma } = await import('../../lib/db/client');
const { createWorkflow } = await import('../../lib/db/workflows');
const { createRun } = await import('../../lib/db/runs');
const { enqueueRun, getAppQueue } = await import('../../lib/queue/app');
const { planRun } = await import('../../lib/run/preflight');
const { DEFAULT_RUN_LIMITS } = await import('../../lib/run/limits');
const { exportWorkflow } = await import('../../lib/workflow/export');
const { createDocumentFromPlan } = await import('../../lib/workflow/plan');

const db = await createPrisma({ kind: 'pglite', dataDir: process.argv[2] });
await getAppQueue(db);
const doc = createDocumentFromPlan({ steps: [{ id: 'nap', tool: 'sleep', args: { ms: 60_000 } }] }, [
  {
    name: 'sleep',
    description: 'wait',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
    source: { kind: 'mcp-stdio', server: 'faulty' },
  },
]);
if (!doc.ok) throw new Error('plan');
await db.owner.create({ data: { id: 'own_restart' } });
const workflow = await createWorkflow(db, { name: 'Restart', document: doc.value, ownerId: 'own_restart' });
const file = exportWorkflow(doc.value, { id: workflow.id, name: workflow.name });
const run = await createRun(db, {
  workflowId: workflow.id,
  ownerId: 'own_restart',
  version: 1,
  exportText: JSON.stringify(file, null, 2) + '\n',
  exportHash: 'sha256:test',
  limits: DEFAULT_RUN_LIMITS,
  plan: planRun(file),
});
await enqueueRun(db, run.id);
for (;;) {
  const node = await db.nodeRun.findFirst({ where: { runId: run.id } });
  if (node?.status === 'running') break;
  await new Promise((r) => setTimeout(r, 50));
}
console.log(`RUNNING ${run.id}`);
await new Promise(() => {});
