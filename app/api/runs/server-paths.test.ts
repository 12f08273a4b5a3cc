/**
 * No absolute server path reaches the browser: a run on the real Files sample whose steps fail
 * with the server's own errors (a missing file, a path outside the folder) and pass a path the
 * server answered with along an edge. Every answer about the run — the pre-flight, the start, the
 * run, each step, the event stream, the list, cancel and the file that ran — is free of the data
 * directory and the app's directory; the headlines are in words, the paths relative to the
 * person's folder; the database keeps what the tools said.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getNodeRun } from '@/lib/db/runs';
import { stopAppQueue } from '@/lib/queue/app';
import { BUILTIN_TOOLKITS } from '@/lib/toolkits/builtin';
import { createDocumentFromPlan } from '@/lib/workflow/plan';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { POST as createWorkflow } from '../workflows/route';
import { GET as listRuns, POST as startRun } from '../workflows/[id]/runs/route';
import { GET as preflight } from '../workflows/[id]/runs/preflight/route';
import { GET as readRun } from './[runId]/route';
import { GET as followRun } from './[runId]/events/route';
import { GET as readNode } from './[runId]/nodes/[nodeId]/route';
import { POST as cancel } from './[runId]/cancel/route';
import { GET as downloadExport } from './[runId]/export/route';

const [backend] = await getTestBackends();
const fileTools = BUILTIN_TOOLKITS.find((k) => k.key === 'files')!.tools;

describe('a failing run on the Files sample', () => {
  let database: TestDatabase;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'toolflow-paths-'));
  beforeAll(async () => {
    vi.stubEnv('TOOLFLOW_DATA_DIR', dataDir);
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    if (database) await stopAppQueue(database.db);
    await database?.close();
    vi.unstubAllEnvs();
  });

  it('shows the errors in words and paths relative to the folder, in every answer', async () => {
    const alice = createOwnerClient();
    const doc = createDocumentFromPlan(
      {
        steps: [
          { id: 'write', tool: 'write_file', args: { path: 'hello.txt', content: 'hello' } },
          { id: 'find', tool: 'search_files', args: { path: '.', pattern: 'hello.txt' } },
          // Fed the absolute path the server answered with.
          { id: 'read', tool: 'read_text_file', args: { path: '{{find.content}}' } },
          { id: 'missing', tool: 'read_text_file', args: { path: 'notes/missing.txt' } },
          { id: 'outside', tool: 'read_text_file', args: { path: '/etc/hostname' } },
          { id: 'where', tool: 'list_allowed_directories', args: {} },
        ],
      },
      fileTools,
    );
    if (!doc.ok) throw new Error(JSON.stringify(doc.error));
    const created = await alice.send(createWorkflow, 'POST', '/api/workflows', {
      name: 'Paths',
      document: doc.value,
    });
    const workflow = (await created.json()).workflow as { id: string; version: number };
    const answers: string[] = [];
    const keep = async (res: Response) => {
      const text = await res.text();
      answers.push(text);
      return text;
    };

    await keep(await alice.send(preflight, 'GET', '/x', undefined, { id: workflow.id }));
    const started = await alice.send(startRun, 'POST', '', { version: 1 }, { id: workflow.id });
    expect(started.status).toBe(201);
    const runId = JSON.parse(await keep(started)).run.id as string;
    const events = await keep(
      await alice.send(followRun, 'GET', `/api/runs/${runId}/events`, undefined, { runId }),
    );
    expect(events.trim().split('\n').at(-1)).toBe('{"type":"end","status":"failed"}');
    const { nodes } = JSON.parse(await keep(await alice.send(readRun, 'GET', '', undefined, { runId })));
    expect(
      Object.fromEntries(nodes.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])),
    ).toEqual({
      write: 'succeeded',
      find: 'succeeded',
      read: 'succeeded',
      missing: 'failed',
      outside: 'failed',
      where: 'succeeded',
    });
    const node = async (nodeId: string) =>
      JSON.parse(await keep(await alice.send(readNode, 'GET', '', undefined, { runId, nodeId }))).node;
    const details = Object.fromEntries(
      await Promise.all(nodes.map(async (n: { nodeId: string }) => [n.nodeId, await node(n.nodeId)])),
    );
    await keep(await alice.send(listRuns, 'GET', '', undefined, { id: workflow.id }));
    await keep(await alice.send(cancel, 'POST', '', undefined, { runId }));
    await keep(await alice.send(downloadExport, 'GET', '', undefined, { runId }));

    // The headline in words, the path as the person wrote it; the server's words on the details line.
    expect(details.missing.error).toEqual({
      code: 'tool_error',
      message: 'The file notes/missing.txt does not exist.',
      detail: "ENOENT: no such file or directory, open 'notes/missing.txt'",
    });
    expect(details.outside.error).toMatchObject({
      message: '/etc/hostname is outside the folder this server may use; give a path inside it.',
      detail: 'Access denied - path outside allowed directories: /etc/hostname not in .',
    });
    // A path a result held, and the arguments it fed, are relative too.
    expect(details.find.result.structuredContent).toEqual({ content: 'hello.txt' });
    expect(details.read.arguments).toEqual({ path: 'hello.txt' });
    expect(details.where.result.content).toEqual([{ type: 'text', text: 'Allowed directories:\n.' }]);

    const forbidden = [dataDir, realpathSync(dataDir), process.cwd()];
    for (const answer of answers) for (const dir of forbidden) expect(answer).not.toContain(dir);

    // The database keeps what the tool said, for the operator.
    const stored = await getNodeRun(database.db, runId, 'missing');
    expect(stored?.error?.detail).toContain(path.join(realpathSync(dataDir), 'samples'));
  });
});
