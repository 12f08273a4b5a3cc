/**
 * The measuring half of scripts/bench/save-path.ts (run with `--conditions=react-server`): times
 * each piece of a 500-node save, and a query through Prisma against one straight to the driver,
 * and prints the rows as JSON on stdout.
 */
import { validateUpdateWorkflow } from '../../app/api/workflows/schema';
import { generateWorkflow } from '../../lib/bench/generate-workflow';
import type { Db } from '../../lib/db/client';
import { createId } from '../../lib/db/ids';
import { sql } from '../../lib/db/sql';
import { createWorkflow, REVISION_LIMIT, TX_OPTIONS, updateWorkflow } from '../../lib/db/workflows';
import { MAX_JSON_DEPTH } from '../../lib/http/body';
import { getStorableIssues } from '../../lib/tools/storable';
import { parseJson } from '../../lib/tools/json-value';
import { getDocumentIssues } from '../../lib/workflow/check';
import { getDocumentStorageIssues } from '../../lib/workflow/storable';
import type { WorkflowDocument } from '../../lib/workflow/types';
import { measureOnEachDatabase, printRows } from './_child-db';
import type { BenchRow } from './types';

const NODES = 500;
const RUNS = 60;

const doc = generateWorkflow(NODES);
const moved = (i: number): WorkflowDocument => ({
  ...doc,
  nodes: doc.nodes.map((n, j) => (j === i % NODES ? { ...n, position: { x: n.position.x + i, y: 0 } } : n)),
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1];

/** The write as it was before: an interactive transaction of four statements, the document sent twice. */
async function updateBefore(db: Db, id: string, expectedVersion: number, document: WorkflowDocument) {
  const text = JSON.stringify(document);
  return db.$transaction(async (tx) => {
    const next = expectedVersion + 1;
    const [row] = await tx.$queryRaw<{ name: string; task: string }[]>`
      UPDATE "Workflow" SET "document" = ${text}::json, "version" = ${next}, "task" = ${document.task},
          "updatedAt" = ${new Date()}
      WHERE "id" = ${id} AND "version" = ${expectedVersion} RETURNING "name", "task"`;
    if (!row) throw new Error('conflict in bench');
    await tx.$executeRaw`
      INSERT INTO "WorkflowRevision" ("id", "workflowId", "version", "firstVersion", "name", "task", "document", "reason", "createdAt")
      VALUES (${createId('rev')}, ${id}, ${next}, ${next}, ${row.name}, ${row.task}, ${text}::json, 'save', ${new Date()})`;
    await tx.workflowRevision.deleteMany({
      where: { workflowId: id, label: null, version: { lte: next - REVISION_LIMIT } },
    });
  }, TX_OPTIONS);
}

async function measureWrites(db: Db, backend: string): Promise<BenchRow[]> {
  const a = await createWorkflow(db, { name: 'now', document: doc, ownerId: null });
  const b = await createWorkflow(db, { name: 'before', document: doc, ownerId: null });
  let va = a.version;
  let vb = b.version;
  const now: number[] = [];
  const before: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    let start = performance.now();
    const out = await updateWorkflow(db, a.id, { expectedVersion: va, document: moved(i) });
    if (!out.ok) throw new Error(`save failed: ${out.reason}`);
    va = out.workflow.version;
    if (i >= 5) now.push(performance.now() - start);
    start = performance.now();
    await updateBefore(db, b.id, vb, moved(i));
    vb++;
    if (i >= 5) before.push(performance.now() - start);
  }
  const note = `${NODES} nodes; ${RUNS} saves each, alternating; ${backend}`;
  return [
    {
      figure: `write p50 (${backend})`,
      value: median(now),
      unit: 'ms',
      better: 'lower',
      note: `updateWorkflow, one statement; ${note}`,
    },
    {
      figure: `write p99 (${backend})`,
      value: p99(now),
      unit: 'ms',
      better: 'lower',
      note: `updateWorkflow, one statement; ${note}`,
    },
    {
      figure: `before: write p50 (${backend})`,
      value: median(before),
      unit: 'ms',
      better: 'lower',
      note: `interactive transaction, 4 statements; ${note}`,
    },
    {
      figure: `before: write p99 (${backend})`,
      value: p99(before),
      unit: 'ms',
      better: 'lower',
      note: `interactive transaction, 4 statements; ${note}`,
    },
  ];
}

function measureCpu(): BenchRow[] {
  const body = JSON.stringify({ version: 3, document: doc });
  const pieces: Record<string, (parsed: { document: WorkflowDocument }) => unknown> = {
    // As readJson (lib/http/body.ts) does: records without a prototype, then the depth limit and
    // the text the database cannot store, in one walk.
    'JSON.parse + depth limit': () => {
      const v = parseJson(body);
      if (getStorableIssues(v, { at: '', what: 'body', maxDepth: MAX_JSON_DEPTH }).length) {
        throw new Error('not storable');
      }
    },
    'request schema (Ajv)': (parsed) => validateUpdateWorkflow(parsed),
    'storage check (declarations and values, lib/workflow/storable.ts)': (parsed) =>
      getDocumentStorageIssues(parsed.document),
    'write check (export + import validation, tool hashes)': (parsed) => getDocumentIssues(parsed.document),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(pieces).map((k) => [k, []]));
  for (let i = 0; i < RUNS + 5; i++) {
    // A fresh parse each time, as a request brings: no declaration object is reused across saves
    // (the write check's interning finds them by content; lib/tools/intern.ts).
    const parsed = parseJson(body) as { document: WorkflowDocument };
    for (const [name, fn] of Object.entries(pieces)) {
      const start = performance.now();
      fn(parsed);
      if (i >= 5) times[name].push(performance.now() - start);
    }
  }
  return Object.entries(times).map(([name, xs]) => ({
    figure: `${name} p50`,
    value: median(xs),
    unit: 'ms',
    better: 'lower' as const,
    note: `${NODES} nodes, ${(body.length / 1024).toFixed(0)} KB; median of ${RUNS}, in process`,
  }));
}

/**
 * Node's own CPU per query, through Prisma's raw query and straight to the driver (lib/db/sql.ts):
 * `SELECT 1`, and the 100-node document as a parameter (what a save sends), alternating.
 */
async function measureDriver(db: Db, backend: string): Promise<BenchRow[]> {
  const text = JSON.stringify(generateWorkflow(100));
  const queries = {
    'SELECT 1': {
      prisma: () => db.$queryRawUnsafe('SELECT 1'),
      direct: () => sql(db)`SELECT 1`,
    },
    [`a ${(text.length / 1000).toFixed(0)} KB document as a parameter`]: {
      prisma: () => db.$queryRawUnsafe('SELECT length($1::json::text) AS n', text),
      direct: () => sql(db)`SELECT length(${text}::json::text) AS n`,
    },
  };
  const rows: BenchRow[] = [];
  for (const [name, ways] of Object.entries(queries)) {
    const cpu = { prisma: [] as number[], direct: [] as number[] };
    for (let round = 0; round < 7; round++) {
      for (const way of round % 2 ? (['direct', 'prisma'] as const) : (['prisma', 'direct'] as const)) {
        const start = process.cpuUsage();
        for (let i = 0; i < 50; i++) await ways[way]();
        const used = process.cpuUsage(start);
        cpu[way].push((used.user + used.system) / 1000 / 50);
      }
    }
    const note = `Node CPU per query (process.cpuUsage), median of 7 alternating rounds of 50; ${backend}`;
    rows.push(
      {
        figure: `${name}, through Prisma (${backend})`,
        value: median(cpu.prisma),
        unit: 'ms',
        better: 'lower',
        note,
      },
      {
        figure: `${name}, direct (${backend})`,
        value: median(cpu.direct),
        unit: 'ms',
        better: 'lower',
        note,
      },
    );
  }
  return rows;
}

printRows(async () => [
  ...measureCpu(),
  ...(await measureOnEachDatabase('save', async (db, backend) => [
    ...(await measureWrites(db, backend)),
    ...(await measureDriver(db, backend)),
  ])),
]);
