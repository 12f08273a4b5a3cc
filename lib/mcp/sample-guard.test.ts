/**
 * sample-guard.mjs inside the real sample servers (server-filesystem and server-memory from npm,
 * over stdio), with small caps so they are reached quickly: every way a tool writes is held to
 * the folder's caps with a message that says so, and nothing is written outside the folder, even
 * where the server's own path checks would let a write through.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openMcpSession, type McpSession, type StdioTarget } from './client';
import { LOCAL_OPTIONS, SERVER_FILESYSTEM, SERVER_MEMORY } from './__fixtures__/servers';

const GUARD = pathToFileURL(path.join(import.meta.dirname, 'sample-guard.mjs')).href;

function guarded(
  script: string,
  root: string,
  caps: { bytes: number; entries: number },
  args: string[] = [],
  env: Record<string, string> = {},
): StdioTarget {
  return {
    kind: 'stdio',
    name: 'guarded',
    command: process.execPath,
    args: ['--import', GUARD, script, ...args],
    env: {
      ...env,
      TOOLFLOW_SAMPLE_GUARD_ROOT: root,
      TOOLFLOW_SAMPLE_GUARD_MAX_BYTES: String(caps.bytes),
      TOOLFLOW_SAMPLE_GUARD_MAX_ENTRIES: String(caps.entries),
      TOOLFLOW_SAMPLE_GUARD_NAME: 'test folder',
    },
  };
}

const sessions: McpSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function open(target: StdioTarget): Promise<McpSession> {
  const session = await openMcpSession(target, LOCAL_OPTIONS);
  if (!session.ok) throw new Error(session.error.message);
  sessions.push(session.value);
  return session.value;
}

async function call(session: McpSession, tool: string, args: Record<string, unknown>) {
  const result = await session.callTool(tool, args);
  if (!result.ok) throw new Error(result.error.message);
  const text = (result.value.content as { text?: string }[]).map((b) => b.text ?? '').join('\n');
  return { isError: result.value.isError, text };
}

/** A fresh base folder, and the sample folder inside it (which the guard creates). */
function folders() {
  const base = mkdtempSync(path.join(tmpdir(), 'toolflow-guard-'));
  return { base, root: path.join(base, 'space', 'files') };
}

describe('the Files sample under the guard', () => {
  it('creates its folder at start, and lets writes within the caps through', async () => {
    const { root } = folders();
    const files = await open(guarded(SERVER_FILESYSTEM, root, { bytes: 1_000, entries: 5 }, [root]));
    expect(existsSync(root)).toBe(true);
    expect(await call(files, 'write_file', { path: 'a.txt', content: 'x'.repeat(600) })).toMatchObject({
      isError: false,
    });
    // Written over: counts only the change, through the server's temp-file-and-rename.
    expect(await call(files, 'write_file', { path: 'a.txt', content: 'y'.repeat(900) })).toMatchObject({
      isError: false,
    });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('y'.repeat(900));
  });

  it('fails a write past the byte cap with a message that says so, and keeps the folder as it was', async () => {
    const { root } = folders();
    const files = await open(guarded(SERVER_FILESYSTEM, root, { bytes: 1_000, entries: 5 }, [root]));
    await call(files, 'write_file', { path: 'a.txt', content: 'x'.repeat(600) });
    const over = await call(files, 'write_file', { path: 'b.txt', content: 'z'.repeat(500) });
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/Your test folder is full: it may hold 0\.00 MB.*would bring it to 0\.00 MB/);
    const grown = await call(files, 'edit_file', {
      path: 'a.txt',
      edits: [{ oldText: 'x'.repeat(600), newText: 'x'.repeat(1_200) }],
    });
    expect(grown.isError).toBe(true);
    expect(grown.text).toContain('is full');
    expect(readdirSync(root)).toEqual(['a.txt']);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('x'.repeat(600));
  });

  it('fails a step that would pass the count of files and folders', async () => {
    const { root } = folders();
    const files = await open(guarded(SERVER_FILESYSTEM, root, { bytes: 1_000, entries: 5 }, [root]));
    const deep = await call(files, 'create_directory', { path: 'a/b/c/d/e/f' });
    expect(deep.isError).toBe(true);
    expect(deep.text).toMatch(/may hold 5 files and folders/);
    expect(readdirSync(root)).toEqual([]);
    expect(await call(files, 'create_directory', { path: 'a/b/c' })).toMatchObject({ isError: false });
  });

  it('writes nothing outside its folder, whatever the path or a symlink says', async () => {
    const { base, root } = folders();
    const outside = path.join(base, 'outside');
    mkdirSync(outside);
    // A second allowed directory the server itself would accept: the guard still refuses it.
    const files = await open(guarded(SERVER_FILESYSTEM, root, { bytes: 1_000, entries: 5 }, [root, outside]));
    for (const target of [path.join(outside, 'x.txt'), '../outside/y.txt', '../../z.txt']) {
      const result = await call(files, 'write_file', { path: target, content: 'escape' });
      expect(result.isError, target).toBe(true);
      expect(result.text, target).toMatch(/Access denied/);
    }
    writeFileSync(path.join(outside, 'kept.txt'), 'theirs');
    symlinkSync(outside, path.join(root, 'link'));
    const through = await call(files, 'write_file', { path: 'link/kept.txt', content: 'mine' });
    expect(through.isError).toBe(true);
    const moved = await call(files, 'move_file', {
      source: path.join(outside, 'kept.txt'),
      destination: path.join(root, 'taken.txt'),
    });
    expect(moved.isError).toBe(true);
    expect(readdirSync(outside)).toEqual(['kept.txt']);
    expect(readFileSync(path.join(outside, 'kept.txt'), 'utf8')).toBe('theirs');
  });
});

describe('the Memory sample under the guard', () => {
  it('keeps the graph file within its cap and says so when a step would pass it', async () => {
    const { root } = folders();
    const memory = await open(
      guarded(SERVER_MEMORY, root, { bytes: 2_000, entries: 4 }, [], {
        MEMORY_FILE_PATH: path.join(root, 'memory.jsonl'),
      }),
    );
    const entity = (name: string, size: number) => ({
      entities: [{ name, entityType: 'note', observations: ['o'.repeat(size)] }],
    });
    expect(await call(memory, 'create_entities', entity('small', 800))).toMatchObject({ isError: false });
    const over = await call(memory, 'create_entities', entity('large', 1_500));
    expect(over.isError).toBe(true);
    expect(over.text).toContain('Your test folder is full');
    const graph = await call(memory, 'read_graph', {});
    expect(graph.text).toContain('small');
    expect(graph.text).not.toContain('large');
    expect(readdirSync(root)).toEqual(['memory.jsonl']);
  });
});
