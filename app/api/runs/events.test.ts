/**
 * The event stream of a run sends a change as soon as it is stored, not at its next look: well
 * within the stream's fallback interval, from this process and, on Postgres, from another one (a
 * second database client stands for a worker process).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, type Db } from '@/lib/db/client';
import { stopRunChanges } from '@/lib/db/run-changes';
import { claimRun, createRun, finishRun, saveNodeRecord } from '@/lib/db/runs';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { POST as createWorkflow } from '../workflows/route';
import { GET as followRun } from './[runId]/events/route';

const backends = await getTestBackends();
/** The stream's own look when told nothing (app/api/runs/[runId]/events/route.ts). */
const FALLBACK_MS = 2_000;

/** Reads NDJSON lines as they arrive. */
function readLines(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return async function next(): Promise<{ type: string; nodes?: { status: string }[] }> {
    for (;;) {
      const newline = buffered.indexOf('\n');
      if (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        return JSON.parse(line);
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };
}

describe.each(backends)('the event stream on $name', (backend) => {
  let database: TestDatabase;
  let writer: Db;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
    // On Postgres the worker may be another process: a client of its own writes.
    writer = database.url ? await createPrisma({ kind: 'postgres', url: database.url }) : database.db;
  });
  afterAll(async () => {
    if (writer && writer !== database.db) await writer.$disconnect();
    await stopRunChanges(database.db);
    await database?.close();
  });

  it('sends each stored change at once', async () => {
    const alice = createOwnerClient();
    const created = await alice.send(createWorkflow, 'POST', '/api/workflows', { name: 'Followed' });
    const { workflow } = await created.json();
    const ownerId = (await database.db.workflow.findUnique({ where: { id: workflow.id } }))!.ownerId!;
    const run = await createRun(database.db, {
      workflowId: workflow.id,
      ownerId,
      version: 1,
      exportText: '{}',
      exportHash: 'sha256:0',
      limits: DEFAULT_RUN_LIMITS,
      plan: {
        nodes: [{ nodeId: 'a', stepIndex: 1, toolName: 't', server: null, readOnly: true, sources: [] }],
        servers: [],
        order: ['a'],
      },
    });
    await claimRun(writer, run.id, 'test-worker');
    const res = await alice.send(followRun, 'GET', '', undefined, { runId: run.id });
    const next = readLines(res.body!);
    expect((await next()).nodes?.[0].status).toBe('queued');
    // Let the stream settle into waiting (and, on Postgres, its listener connect).
    await new Promise((r) => setTimeout(r, 300));

    const delays: number[] = [];
    for (const status of ['running', 'succeeded'] as const) {
      const stored = performance.now();
      await saveNodeRecord(writer, run.id, {
        nodeId: 'a',
        stepIndex: 1,
        toolName: 't',
        server: null,
        status,
      });
      const line = await next();
      delays.push(performance.now() - stored);
      expect(line.nodes?.[0].status).toBe(status);
    }
    await finishRun(writer, run.id, 'succeeded');
    expect((await next()).type).toBe('state');
    expect(await next()).toEqual({ type: 'end', status: 'succeeded' });
    for (const delay of delays) expect(delay).toBeLessThan(FALLBACK_MS / 4);
  });
});
