/**
 * The measuring half of scripts/bench/history.ts (run with `--conditions=react-server`, since
 * lib/db is server-only): builds a workflow with 10 revisions and one with 10,000 on each backend,
 * times `listRevisions` pages on both, and prints the rows as JSON on stdout.
 */
import { generateWorkflow } from '../../lib/bench/generate-workflow';
import type { Db } from '../../lib/db/client';
import { listRevisions } from '../../lib/db/revisions';
import { createWorkflow } from '../../lib/db/workflows';
import { measureOnEachDatabase, printRows } from './_child-db';
import type { BenchRow } from './types';

const NODES = 30;
const SMALL = 10;
const LARGE = 10_000;
const PAGE = 10;
const RUNS = 200;

/** A workflow whose history has `count` revisions, each a copy of the first (counts included). */
async function seedHistory(db: Db, count: number): Promise<string> {
  const wf = await createWorkflow(db, {
    name: `History ${count}`,
    document: generateWorkflow(NODES),
    ownerId: null,
  });
  await db.$executeRaw`
    INSERT INTO "WorkflowRevision"
      ("id", "workflowId", "version", "firstVersion", "name", "task", "document", "nodeCount", "edgeCount",
       "reason", "createdAt", "updatedAt")
    SELECT 'rev_bench_' || ${wf.id} || '_' || g, r."workflowId", g, g, r."name", r."task", r."document",
           r."nodeCount", r."edgeCount", 'save', r."createdAt", r."createdAt"
    FROM generate_series(2, ${count}::int) AS g,
         (SELECT * FROM "WorkflowRevision" WHERE "workflowId" = ${wf.id} AND "version" = 1) AS r`;
  await db.$executeRawUnsafe('ANALYZE "WorkflowRevision"');
  return wf.id;
}

/** The list as it was before the counts were stored: each listed document is parsed. */
const listParsing = (db: Db, workflowId: string, limit: number, before = 2 ** 31 - 1) => db.$queryRaw`
    SELECT "version", "name", "label", "reason", "createdAt",
           COALESCE(json_array_length(CASE WHEN json_typeof("document"->'nodes') = 'array'
                                            THEN "document"->'nodes' END), 0) AS "nodeCount",
           COALESCE(json_array_length(CASE WHEN json_typeof("document"->'edges') = 'array'
                                            THEN "document"->'edges' END), 0) AS "edgeCount"
    FROM "WorkflowRevision"
    WHERE "workflowId" = ${workflowId} AND "version" < ${before}
    ORDER BY "version" DESC
    LIMIT ${limit}`;

/** Median milliseconds of `RUNS` calls, the kinds interleaved so load drifts hit all alike. */
async function timeAll(cases: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const names = Object.keys(cases);
  for (const name of names) for (let i = 0; i < 10; i++) await cases[name]();
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const name of names) {
      const start = performance.now();
      await cases[name]();
      times[name].push(performance.now() - start);
    }
  }
  return Object.fromEntries(names.map((n) => [n, times[n].sort((a, b) => a - b)[Math.floor(RUNS / 2)]]));
}

async function measure(db: Db, backend: string): Promise<BenchRow[]> {
  const small = await seedHistory(db, SMALL);
  const large = await seedHistory(db, LARGE);
  const page = await listRevisions(db, large, { limit: PAGE });
  if (page.length !== PAGE || page[0].version !== LARGE || page[0].nodeCount !== NODES)
    throw new Error(`unexpected history page: ${JSON.stringify(page[0])}`);
  const t = await timeAll({
    small: () => listRevisions(db, small, { limit: PAGE }),
    largeNewest: () => listRevisions(db, large, { limit: PAGE }),
    largeDeep: () => listRevisions(db, large, { limit: PAGE, before: LARGE / 2 }),
    large100: () => listRevisions(db, large, { limit: 100 }),
    parsingSmall: () => listParsing(db, small, PAGE),
    parsingLarge: () => listParsing(db, large, PAGE),
    parsingLarge100: () => listParsing(db, large, 100),
  });
  const note = (what: string) => `${what}; ${NODES}-node documents; median of ${RUNS}; ${backend}`;
  const worst = Math.max(t.largeNewest, t.largeDeep);
  return [
    {
      figure: `page of ${PAGE}, ${SMALL} revisions (${backend})`,
      value: t.small,
      unit: 'ms',
      better: 'lower',
      note: note('listRevisions'),
    },
    {
      figure: `page of ${PAGE}, ${LARGE} revisions, newest (${backend})`,
      value: t.largeNewest,
      unit: 'ms',
      better: 'lower',
      note: note('listRevisions'),
    },
    {
      figure: `page of ${PAGE}, ${LARGE} revisions, before ${LARGE / 2} (${backend})`,
      value: t.largeDeep,
      unit: 'ms',
      better: 'lower',
      note: note('listRevisions'),
    },
    {
      figure: `page cost at ${LARGE} ÷ at ${SMALL} revisions (${backend})`,
      value: worst / t.small,
      unit: '×',
      target: 1.5,
      better: 'lower',
      note: 'slower of the two 10,000-revision pages over the 10-revision page',
    },
    {
      figure: `page of 100, ${LARGE} revisions (${backend})`,
      value: t.large100,
      unit: 'ms',
      better: 'lower',
      note: note('listRevisions, the route default page'),
    },
    {
      figure: `before: page of ${PAGE}, ${SMALL} revisions (${backend})`,
      value: t.parsingSmall,
      unit: 'ms',
      better: 'lower',
      note: note('counting by parsing each document'),
    },
    {
      figure: `before: page of ${PAGE}, ${LARGE} revisions (${backend})`,
      value: t.parsingLarge,
      unit: 'ms',
      better: 'lower',
      note: note('counting by parsing each document'),
    },
    {
      figure: `before: page of 100, ${LARGE} revisions (${backend})`,
      value: t.parsingLarge100,
      unit: 'ms',
      better: 'lower',
      note: note('counting by parsing each document'),
    },
  ];
}

printRows(() => measureOnEachDatabase('history', measure));
