/**
 * The database goes away mid-session and comes back: the API answers 503 while it is down, the
 * editor's autosave (the real engine, against the real route handlers and a real Postgres) keeps
 * the pending edit and retries, and once the server is back the edit is saved — nothing is lost.
 *
 * It stops the local Postgres cluster (`pg_ctlcluster … stop`), which every other database test
 * on this machine shares, so it only runs with TOOLFLOW_TEST_PG_RESTART=1 (CI sets it), keeps the
 * outage to a few seconds, and always starts the cluster again.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditorStore } from '@/lib/editor/store';
import { createAutosaver, getPendingKey, type AutosaverDeps } from '@/lib/editor/autosave';
import { asNodeId, type WorkflowDocument } from '@/lib/workflow/types';
import { POST as create } from '@/app/api/workflows/route';
import { GET as read, PUT as update } from '@/app/api/workflows/[id]/route';
import { getTestBackends, useTestDatabase, type TestDatabase } from './db';
import { createOwnerClient } from './owner-client';

const enabled = process.env.TOOLFLOW_TEST_PG_RESTART === '1';
const cluster = enabled ? fs.readdirSync('/etc/postgresql').sort().at(-1)! : '';

function pgctl(action: 'start' | 'stop') {
  const args = [
    '--skip-systemctl-redirect',
    cluster,
    'main',
    action,
    ...(action === 'stop' ? ['-m', 'fast'] : []),
  ];
  execFileSync('pg_ctlcluster', args, { stdio: 'pipe', timeout: 60_000 });
}

function isUp(): boolean {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`Timed out after ${ms} ms waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!enabled)('when Postgres stops mid-session', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    const postgres = (await getTestBackends()).find((b) => b.name === 'postgres');
    if (!postgres) throw new Error('TOOLFLOW_TEST_PG_RESTART=1 needs a Postgres server on 127.0.0.1:5432.');
    database = await useTestDatabase(postgres);
  });
  afterAll(async () => {
    if (!isUp()) pgctl('start');
    await waitFor(isUp, 'Postgres to accept connections again');
    await database?.close();
  });

  it('answers 503 while it is down, and the pending edit is saved after it returns', async () => {
    const alice = createOwnerClient();
    const document: WorkflowDocument = {
      task: 'survive an outage',
      nodes: [{ id: asNodeId('step_1'), tool: 'fetch_file', position: { x: 0, y: 0 }, args: { url: 'a' } }],
      edges: [],
      tools: {},
    };
    const created = await alice.send(create, 'POST', '/api/workflows', { name: 'Outage', document });
    const { workflow } = await created.json();
    const id = workflow.id as string;

    // The autosave engine, with its fetch going straight to the route handlers as Alice.
    const storage = new Map<string, string>();
    const deps: AutosaverDeps = {
      fetch: async (url, init) => {
        expect(url).toBe(`/api/workflows/${id}`);
        return alice.send(update, init.method ?? 'GET', url, JSON.parse(String(init.body)), { id });
      },
      storage: {
        getItem: (k) => storage.get(k) ?? null,
        setItem: (k, v) => void storage.set(k, v),
        removeItem: (k) => void storage.delete(k),
      },
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      now: () => Date.now(),
    };
    const editor = createEditorStore({
      meta: { id, name: 'Outage', version: 1, readOnly: false },
      doc: document,
    });
    const session = createAutosaver(editor, deps);

    let stoppedAt = 0;
    try {
      pgctl('stop');
      stoppedAt = Date.now();
      expect(isUp()).toBe(false);

      // The API says clearly that the database is unavailable.
      const direct = await alice.send(read, 'GET', '', undefined, { id });
      expect(direct.status).toBe(503);
      expect(direct.headers.get('retry-after')).toBe('2');
      expect(await direct.json()).toEqual({
        code: 'unavailable:database',
        message:
          'The database cannot be reached right now. Your change was not saved; try again in a moment.',
      });

      // The editor edits on; the save fails with 503 and the edit is kept and retried.
      editor.getState().setDoc({
        ...editor.getState().doc,
        nodes: [{ ...editor.getState().doc.nodes[0], args: { url: 'edited during the outage' } }],
      });
      await session.saveNow();
      expect(editor.getState().saveState).toBe('offline');
      expect(editor.getState().saveError).toContain('The database cannot be reached right now.');
      expect(JSON.parse(storage.get(getPendingKey(id))!).doc.nodes[0].args.url).toBe(
        'edited during the outage',
      );
      expect(session.state.getState().retryAt).not.toBeNull();
    } finally {
      pgctl('start');
    }
    const outageMs = Date.now() - stoppedAt;
    await waitFor(isUp, 'Postgres to accept connections again');

    // The scheduled retries save it once the server is back (no user action).
    await waitFor(() => editor.getState().saveState === 'saved', 'the pending edit to be saved', 45_000);
    const saved = await (await alice.send(read, 'GET', '', undefined, { id })).json();
    expect(saved.workflow.version).toBe(2);
    expect(saved.workflow.document.nodes[0].args).toEqual({ url: 'edited during the outage' });
    expect(storage.size).toBe(0);
    expect(outageMs).toBeLessThan(15_000);
    session.dispose();
  }, 120_000);
});
