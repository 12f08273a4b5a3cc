import { describe, expect, it } from 'vitest';
import { asNodeId, type WorkflowDocument, type WorkflowNode } from '../workflow/types';
import { createEditorStore, getHistoryStore, type EditorStore } from './store';
import { mergeConflict } from './conflict-merge';
import { setWorkflowName } from './workflow-name';
import {
  AUTOSAVE_DELAY_MS,
  createAutosaver,
  getPendingKey,
  RETRY_DELAYS_MS,
  type AutosaverDeps,
  type ServerCopy,
} from './autosave';

const node = (id: string, args: Record<string, unknown> = {}, x = 0): WorkflowNode => ({
  id: asNodeId(id),
  tool: 'fetch_file',
  position: { x, y: 0 },
  args,
});
const doc = (...nodes: WorkflowNode[]): WorkflowDocument => ({ task: 't', nodes, edges: [], tools: {} });
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/**
 * A stand-in for PUT /api/workflows/[id] with the same compare-and-set rule, a revision history,
 * and switches for outages. (tests/pg-restart.test.ts runs the engine against the real routes.)
 */
function createServer(initial: WorkflowDocument) {
  const revisions = new Map<number, ServerCopy>([[1, { version: 1, name: 'W', document: clone(initial) }]]);
  const server = {
    current: revisions.get(1)!,
    puts: [] as { version: number; document: WorkflowDocument; name?: string; reason?: string }[],
    mode: 'up' as 'up' | 'down' | 'unreachable',
    /** Another tab saves on top of the current version (renaming it when `name` is given). */
    saveElsewhere(document: WorkflowDocument, name?: string) {
      const current: ServerCopy = server.current;
      server.current = {
        version: current.version + 1,
        name: name ?? current.name,
        document: clone(document),
      };
      revisions.set(server.current.version, server.current);
    },
    /** The history no longer has this version (folded into a later autosave entry). */
    forget(version: number) {
      revisions.delete(version);
    },
    fetch: async (url: string, init: RequestInit): Promise<Response> => {
      if (server.mode === 'unreachable') throw new TypeError('Failed to fetch');
      if (server.mode === 'down')
        return Response.json(
          { code: 'unavailable:database', message: 'The database cannot be reached.' },
          { status: 503 },
        );
      const revision = /\/revisions\/(\d+)$/.exec(url);
      if (revision) {
        const found = revisions.get(Number(revision[1]));
        return found ? Response.json({ revision: clone(found) }) : Response.json({}, { status: 404 });
      }
      const body = JSON.parse(String(init.body));
      server.puts.push(body);
      if (body.version !== server.current.version)
        return Response.json(
          { code: 'conflict:version', message: 'Changed elsewhere.', current: clone(server.current) },
          { status: 409 },
        );
      server.saveElsewhere(body.document, body.name?.trim());
      return Response.json({ workflow: clone(server.current) });
    },
  };
  return server;
}

/** Timers driven by hand, and a Map as localStorage. */
function createEnv(server: ReturnType<typeof createServer>) {
  let now = 1_000_000;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const storage = new Map<string, string>();
  const deps: AutosaverDeps = {
    fetch: server.fetch,
    storage: {
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => void storage.set(k, v),
      removeItem: (k) => void storage.delete(k),
    },
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
    now: () => now,
  };
  /** Moves the clock, running due timers and letting their promises settle. */
  const advance = async (ms: number) => {
    const until = now + ms;
    for (;;) {
      await settle();
      const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.fn();
    }
    now = until;
    await settle();
  };
  return { deps, storage, advance, pendingTimers: () => timers.length };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setImmediate(r));
};

function createEditor(initial: WorkflowDocument, version = 1, readOnly = false): EditorStore {
  return createEditorStore({ meta: { id: 'wf_1', name: 'W', version, readOnly }, doc: clone(initial) });
}

const edit = (store: EditorStore, fn: (d: WorkflowDocument) => WorkflowDocument) =>
  store.getState().setDoc(fn(store.getState().doc));
const setArg = (id: string, name: string, value: unknown) => (d: WorkflowDocument) => ({
  ...d,
  nodes: d.nodes.map((n) => (n.id === id ? { ...n, args: { ...n.args, [name]: value } } : n)),
});

const start = doc(node('a', { url: 'x' }), node('b', { mode: 'fast' }));

describe('createAutosaver', () => {
  it('started after the first edits with the copy the editor opened, keeps them and saves them on top of it', async () => {
    const server = createServer(start);
    const env = createEnv(server);
    const editor = createEditor(start);
    const { meta, doc: opened } = editor.getState();
    edit(editor, setArg('a', 'url', 'y'));
    const session = createAutosaver(editor, env.deps, {
      version: meta.version,
      name: meta.name,
      document: opened,
    });
    expect(env.storage.has(getPendingKey('wf_1'))).toBe(true);
    expect(session.state.getState().restoredAt).toBeNull();
    await env.advance(AUTOSAVE_DELAY_MS);
    expect(server.puts).toHaveLength(1);
    expect(server.puts[0].version).toBe(1);
    expect(server.current.document.nodes[0].args.url).toBe('y');
    expect(editor.getState().saveState).toBe('saved');
    expect(env.storage.has(getPendingKey('wf_1'))).toBe(false);
  });

  it('saves edits once they settle, in one PUT based on the version the editor holds', async () => {
    const server = createServer(start);
    const env = createEnv(server);
    const editor = createEditor(start);
    createAutosaver(editor, env.deps);
    edit(editor, setArg('a', 'url', 'y'));
    edit(editor, setArg('a', 'url', 'yz'));
    expect(editor.getState().saveState).toBe('dirty');
    expect(env.storage.has(getPendingKey('wf_1'))).toBe(true);
    await env.advance(AUTOSAVE_DELAY_MS - 1);
    expect(server.puts).toHaveLength(0);
    await env.advance(1);
    expect(server.puts).toEqual([{ version: 1, document: editor.getState().doc }]);
    expect(editor.getState().saveState).toBe('saved');
    expect(editor.getState().meta.version).toBe(2);
    expect(env.storage.size).toBe(0);
  });

  it('saves a streamed AI change once, when it ends, not its intermediate states', async () => {
    const server = createServer(start);
    const env = createEnv(server);
    const editor = createEditor(start);
    createAutosaver(editor, env.deps);
    editor.getState().beginAiEdit();
    edit(editor, setArg('a', 'url', 'step 1 arrived'));
    await env.advance(AUTOSAVE_DELAY_MS * 3);
    edit(editor, setArg('b', 'mode', 'step 2 arrived'));
    await env.advance(AUTOSAVE_DELAY_MS * 3);
    expect(server.puts).toHaveLength(0);
    editor.getState().endAiEdit();
    await env.advance(AUTOSAVE_DELAY_MS);
    expect(server.puts).toHaveLength(1);
    expect(server.puts[0].document.nodes.map((n) => n.args)).toEqual([
      { url: 'step 1 arrived' },
      { mode: 'step 2 arrived' },
    ]);
    expect(editor.getState().saveState).toBe('saved');
  });

  it('saves an edit made while a save was in flight, on top of the version that save made', async () => {
    const server = createServer(start);
    const env = createEnv(server);
    const editor = createEditor(start);
    const session = createAutosaver(editor, env.deps);
    edit(editor, setArg('a', 'url', 'first'));
    const saving = session.saveNow();
    edit(editor, setArg('b', 'mode', 'second'));
    await saving;
    expect(editor.getState().saveState).toBe('dirty');
    await env.advance(AUTOSAVE_DELAY_MS);
    expect(server.puts.map((p) => p.version)).toEqual([1, 2]);
    expect(server.current.document.nodes.map((n) => n.args)).toEqual([{ url: 'first' }, { mode: 'second' }]);
    expect(editor.getState().saveState).toBe('saved');
  });

  it('keeps changes locally through an outage, retries with backoff, and saves them when the server is back', async () => {
    const server = createServer(start);
    const env = createEnv(server);
    const editor = createEditor(start);
    const session = createAutosaver(editor, env.deps);
    server.mode = 'down';
    edit(editor, setArg('a', 'url', 'during outage'));
    await env.advance(AUTOSAVE_DELAY_MS);
    expect(editor.getState().saveState).toBe('offline');
    expect(editor.getState().saveError).toContain('The database cannot be reached.');
    expect(editor.getState().saveError).toContain('kept in this browser');
    const pending = JSON.parse(env.storage.get(getPendingKey('wf_1'))!);
    expect(pending.baseVersion).toBe(1);
    expect(pending.doc.nodes[0].args.url).toBe('during outage');

    // 1 s, then 2 s, then 4 s: no request in between.
    expect(session.state.getState().retryAt).toBe(1_000_000 + AUTOSAVE_DELAY_MS + RETRY_DELAYS_MS[0]);
    server.mode = 'unreachable';
    await env.advance(RETRY_DELAYS_MS[0]);
    expect(session.state.getState().failures).toBe(2);
    edit(editor, setArg('b', 'mode', 'also during outage'));
    expect(editor.getState().saveState).toBe('offline');
    await env.advance(RETRY_DELAYS_MS[1] - 1);
    expect(session.state.getState().failures).toBe(2);

    server.mode = 'up';
    await env.advance(1);
    expect(editor.getState().saveState).toBe('saved');
    expect(server.current.document.nodes.map((n) => n.args)).toEqual([
      { url: 'during outage' },
      { mode: 'also during outage' },
    ]);
    expect(env.storage.size).toBe(0);
    expect(session.state.getState()).toMatchObject({ failures: 0, retryAt: null });
  });

  it('does not retry a save the server refused for good, but keeps the copy and saves the next edit', async () => {
    const server = createServer(start);
    const env = createEnv(server);
    const editor = createEditor(start);
    createAutosaver(editor, env.deps);
    const realFetch = server.fetch;
    env.deps.fetch = async () =>
      Response.json(
        { code: 'forbidden:workflow', message: 'It belongs to another browser.' },
        { status: 403 },
      );
    edit(editor, setArg('a', 'url', 'refused'));
    await env.advance(AUTOSAVE_DELAY_MS);
    expect(editor.getState().saveState).toBe('error');
    expect(editor.getState().saveError).toBe(
      'It belongs to another browser. Your changes are kept in this browser.',
    );
    expect(env.pendingTimers()).toBe(0);
    expect(env.storage.has(getPendingKey('wf_1'))).toBe(true);
    env.deps.fetch = realFetch;
    edit(editor, setArg('a', 'url', 'accepted'));
    await env.advance(AUTOSAVE_DELAY_MS);
    expect(editor.getState().saveState).toBe('saved');
  });

  describe('when the workflow changed elsewhere', () => {
    async function conflicted() {
      const server = createServer(start);
      const env = createEnv(server);
      const editor = createEditor(start);
      const session = createAutosaver(editor, env.deps);
      server.saveElsewhere(setArg('b', 'mode', 'theirs')(start));
      edit(editor, setArg('a', 'url', 'mine'));
      await env.advance(AUTOSAVE_DELAY_MS);
      return { server, env, editor, session };
    }

    it('stops saving, keeps my copy, and reports the conflict', async () => {
      const { server, env, editor, session } = await conflicted();
      expect(editor.getState().saveState).toBe('conflict');
      expect(session.state.getState().conflict?.server.version).toBe(2);
      edit(editor, setArg('a', 'url', 'mine, edited more'));
      await env.advance(10 * AUTOSAVE_DELAY_MS);
      expect(server.puts).toHaveLength(1);
      expect(editor.getState().saveState).toBe('conflict');
      expect(JSON.parse(env.storage.get(getPendingKey('wf_1'))!).doc.nodes[0].args.url).toBe(
        'mine, edited more',
      );
    });

    it('merges both: my edit and theirs end up in a new version', async () => {
      const { server, env, editor, session } = await conflicted();
      const merged = mergeConflict(session.state.getState().conflict!, editor.getState().doc);
      expect(merged?.conflicts).toEqual([]);
      session.mergeBoth(merged!.doc);
      await env.advance(0);
      expect(server.puts.at(-1)!.version).toBe(2);
      expect(server.current.version).toBe(3);
      expect(server.current.document.nodes.map((n) => n.args)).toEqual([{ url: 'mine' }, { mode: 'theirs' }]);
      expect(editor.getState().doc.nodes.map((n) => n.args)).toEqual([{ url: 'mine' }, { mode: 'theirs' }]);
      expect(editor.getState().saveState).toBe('saved');
      expect(session.state.getState().conflict).toBeNull();
    });

    it('keeps mine: writes my copy as a new version on top of theirs', async () => {
      const { server, env, editor, session } = await conflicted();
      session.keepMine();
      await env.advance(0);
      expect(server.current.version).toBe(3);
      expect(server.current.document.nodes.map((n) => n.args)).toEqual([{ url: 'mine' }, { mode: 'fast' }]);
      expect(editor.getState().meta.version).toBe(3);
    });

    it('reloads theirs without a save, and undo brings my copy back as an unsaved edit', async () => {
      const { server, env, editor, session } = await conflicted();
      session.reload();
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.puts).toHaveLength(1);
      expect(editor.getState().doc.nodes.map((n) => n.args)).toEqual([{ url: 'x' }, { mode: 'theirs' }]);
      expect(editor.getState()).toMatchObject({ saveState: 'saved', meta: { version: 2 } });
      expect(env.storage.size).toBe(0);
      getHistoryStore(editor).getState().undo();
      expect(editor.getState().doc.nodes[0].args).toEqual({ url: 'mine' });
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.current.version).toBe(3);
      expect(server.current.document.nodes[0].args).toEqual({ url: 'mine' });
    });
  });

  describe('after a reload of the page', () => {
    it('puts back unsaved changes kept in this browser and saves them', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      server.mode = 'down';
      const first = createEditor(start);
      const firstSession = createAutosaver(first, env.deps);
      edit(first, setArg('a', 'url', 'unsaved when the tab closed'));
      await env.advance(AUTOSAVE_DELAY_MS);
      firstSession.dispose();

      server.mode = 'up';
      const second = createEditor(start);
      const session = createAutosaver(second, env.deps);
      expect(second.getState().doc.nodes[0].args.url).toBe('unsaved when the tab closed');
      expect(session.state.getState().restoredAt).not.toBeNull();
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.current.document.nodes[0].args.url).toBe('unsaved when the tab closed');
      expect(second.getState().saveState).toBe('saved');
      expect(env.storage.size).toBe(0);
    });

    it('treats changes based on an older version as a conflict, merged against that version', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      server.mode = 'down';
      const first = createEditor(start);
      createAutosaver(first, env.deps).saveNow();
      edit(first, setArg('a', 'url', 'offline edit'));
      await env.advance(AUTOSAVE_DELAY_MS);

      server.mode = 'up';
      server.saveElsewhere(setArg('b', 'mode', 'saved from another device')(start));
      const second = createEditor(server.current.document, 2);
      const session = createAutosaver(second, env.deps);
      expect(second.getState().saveState).toBe('conflict');
      await env.advance(0);
      expect(session.state.getState().conflict?.base?.version).toBe(1);
      session.mergeBoth(mergeConflict(session.state.getState().conflict!, second.getState().doc)!.doc);
      await env.advance(0);
      expect(server.current.document.nodes.map((n) => n.args)).toEqual([
        { url: 'offline edit' },
        { mode: 'saved from another device' },
      ]);
    });

    it('drops a kept copy that equals what the server has', () => {
      const server = createServer(start);
      const env = createEnv(server);
      env.storage.set(
        getPendingKey('wf_1'),
        JSON.stringify({ v: 1, baseVersion: 1, savedAt: 0, doc: start }),
      );
      const editor = createEditor(start);
      createAutosaver(editor, env.deps);
      expect(env.storage.size).toBe(0);
      expect(editor.getState().saveState).toBe('saved');
    });
  });

  describe('a rename and why each save is made', () => {
    it('saves a rename in the same order as edits: one made during a save waits for it, on its version', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      const editor = createEditor(start);
      const session = createAutosaver(editor, env.deps);
      edit(editor, setArg('a', 'url', 'first'));
      const saving = session.saveNow();
      setWorkflowName(editor, '  Daily report ');
      expect(editor.getState().meta.name).toBe('Daily report');
      expect(editor.getState().saveState).toBe('dirty');
      await saving;
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.puts.map((p) => [p.version, p.name])).toEqual([
        [1, undefined],
        [2, 'Daily report'],
      ]);
      expect(server.current).toMatchObject({ version: 3, name: 'Daily report' });
      expect(editor.getState().meta).toMatchObject({ version: 3, name: 'Daily report' });
      expect(editor.getState().saveState).toBe('saved');
      // A blank or unchanged name changes nothing and saves nothing.
      setWorkflowName(editor, '   ');
      setWorkflowName(editor, 'Daily report');
      await env.advance(AUTOSAVE_DELAY_MS * 2);
      expect(server.puts).toHaveLength(2);
    });

    it('keeps an unsaved rename through an outage and a reload, and saves it', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      server.mode = 'down';
      const first = createEditor(start);
      const firstSession = createAutosaver(first, env.deps);
      setWorkflowName(first, 'Renamed offline');
      await env.advance(AUTOSAVE_DELAY_MS);
      firstSession.dispose();
      server.mode = 'up';
      const second = createEditor(start);
      createAutosaver(second, env.deps);
      expect(second.getState().meta.name).toBe('Renamed offline');
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.current).toMatchObject({ version: 2, name: 'Renamed offline' });
      expect(env.storage.size).toBe(0);
    });

    it('says "plan" for the saved result of a planning run, and nothing for the autosaves after it', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      const editor = createEditor(start);
      createAutosaver(editor, env.deps);
      editor.getState().beginAiEdit();
      edit(editor, setArg('a', 'url', 'planned'));
      editor.getState().endAiEdit();
      await env.advance(AUTOSAVE_DELAY_MS);
      edit(editor, setArg('a', 'url', 'edited after'));
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.puts.map((p) => p.reason)).toEqual(['plan', undefined]);
      // A planning run that changed nothing leaves the next save an ordinary autosave.
      editor.getState().beginAiEdit();
      editor.getState().endAiEdit();
      edit(editor, setArg('b', 'mode', 'slow'));
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.puts.map((p) => p.reason)).toEqual(['plan', undefined, undefined]);
    });

    it('says "resolve" for a copy kept through a conflict, and keeps my unsaved rename over theirs', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      const editor = createEditor(start);
      const session = createAutosaver(editor, env.deps);
      server.saveElsewhere(setArg('b', 'mode', 'theirs')(start), 'Their name');
      edit(editor, setArg('a', 'url', 'mine'));
      setWorkflowName(editor, 'My name');
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(editor.getState().saveState).toBe('conflict');
      session.keepMine();
      await env.advance(0);
      expect(server.puts.at(-1)).toMatchObject({ version: 2, name: 'My name', reason: 'resolve' });
      expect(server.current).toMatchObject({ version: 3, name: 'My name' });
      edit(editor, setArg('a', 'url', 'mine, later'));
      await env.advance(AUTOSAVE_DELAY_MS);
      expect(server.puts.at(-1)?.reason).toBeUndefined();
    });

    it('takes their name with their copy on reload, and after a restore', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      const editor = createEditor(start);
      const session = createAutosaver(editor, env.deps);
      server.saveElsewhere(start, 'Their name');
      edit(editor, setArg('a', 'url', 'mine'));
      await env.advance(AUTOSAVE_DELAY_MS);
      session.reload();
      expect(editor.getState().meta).toMatchObject({ version: 2, name: 'Their name' });
      session.adoptServerCopy({ version: 3, name: 'Restored name', document: start });
      expect(editor.getState().meta).toMatchObject({ version: 3, name: 'Restored name' });
      expect(editor.getState().saveState).toBe('saved');
    });

    it('says when the version kept changes were based on is no longer in the history', async () => {
      const server = createServer(start);
      const env = createEnv(server);
      server.mode = 'down';
      const first = createEditor(start);
      createAutosaver(first, env.deps);
      edit(first, setArg('a', 'url', 'offline edit'));
      await env.advance(AUTOSAVE_DELAY_MS);
      server.mode = 'up';
      server.saveElsewhere(setArg('b', 'mode', 'elsewhere')(start));
      server.forget(1);
      const second = createEditor(server.current.document, 2);
      const session = createAutosaver(second, env.deps);
      await env.advance(0);
      expect(session.state.getState().conflict).toMatchObject({ base: null, baseMissing: true });
    });
  });

  it('never saves a read-only editor', async () => {
    const server = createServer(start);
    const env = createEnv(server);
    const editor = createEditor(start, 1, true);
    createAutosaver(editor, env.deps);
    editor.setState({ doc: setArg('a', 'url', 'z')(editor.getState().doc) });
    await env.advance(10 * AUTOSAVE_DELAY_MS);
    expect(server.puts).toHaveLength(0);
    expect(env.storage.size).toBe(0);
  });
});
