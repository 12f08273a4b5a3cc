import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { BUILTIN_TOOLKITS, getToolkitHash } from '../toolkits/builtin';
import type { ToolDeclaration } from '../tools/types';
import {
  createToolkit,
  deleteToolkit,
  ensureBuiltinToolkits,
  getToolkit,
  getToolkitChanges,
  listToolkits,
  readDeclarations,
  replaceToolkitTools,
} from './toolkits';

const backends = await getTestBackends();

const echo: ToolDeclaration = {
  name: 'echo',
  description: 'Echo a message',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
};

describe.each(backends)('toolkit repository on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('built-in toolkits', () => {
    it('are written on first use and listed first for anyone, owner or not', async () => {
      const anonymous = await listToolkits(database.db, { ownerId: null });
      expect(anonymous.map((t) => [t.id, t.builtin, t.sourceKind])).toEqual(
        BUILTIN_TOOLKITS.map((b) => [`tk_builtin_${b.key}`, true, 'builtin']),
      );
      expect(anonymous[0].tools).toEqual(BUILTIN_TOOLKITS[0].tools);
      expect(anonymous[0].contentHash).toBe(getToolkitHash(BUILTIN_TOOLKITS[0].tools));
    });

    it('are rewritten when the stored copy differs from this build, and survive concurrent syncs', async () => {
      await database.db.toolkit.update({
        where: { id: 'tk_builtin_git' },
        data: { declarations: [], contentHash: 'sha256:stale' },
      });
      await Promise.all([1, 2, 3].map(() => ensureBuiltinToolkits(database.db, { force: true })));
      const git = await getToolkit(database.db, 'tk_builtin_git');
      expect(git?.tools.map((t) => t.name)).toContain('git_status');
      expect(git?.contentHash).toBe(getToolkitHash(BUILTIN_TOOLKITS[2].tools));
      expect(await database.db.toolkit.count({ where: { sourceKind: 'builtin' } })).toBe(
        BUILTIN_TOOLKITS.length,
      );
    });
  });

  describe('owned toolkits', () => {
    it('are stored with their owner row, hash and tools, and listed only for that owner', async () => {
      const created = await createToolkit(database.db, {
        ownerId: 'own_repository_test_alice',
        name: 'Echo',
        sourceKind: 'file',
        sourceRef: 'echo.json',
        format: 'bare',
        tools: [echo],
      });
      expect(created).toMatchObject({
        name: 'Echo',
        builtin: false,
        toolCount: 1,
        contentHash: getToolkitHash([echo]),
      });
      expect(
        await database.db.owner.findUnique({ where: { id: 'own_repository_test_alice' } }),
      ).not.toBeNull();

      const alice = await listToolkits(database.db, { ownerId: 'own_repository_test_alice' });
      expect(alice.map((t) => t.name)).toEqual([...BUILTIN_TOOLKITS.map((b) => b.name), 'Echo']);
      const bob = await listToolkits(database.db, { ownerId: 'own_repository_test_bob' });
      expect(bob.map((t) => t.name)).not.toContain('Echo');

      expect(await deleteToolkit(database.db, created.id)).toBe(true);
      expect(await deleteToolkit(database.db, created.id)).toBe(false);
      expect(await getToolkit(database.db, created.id)).toBeNull();
    });

    it('replaces tools on refresh and reports what changed', async () => {
      const created = await createToolkit(database.db, {
        ownerId: 'own_repository_test_alice',
        name: 'Echo',
        sourceKind: 'mcp-http',
        sourceRef: 'https://mcp.example.com/mcp',
        format: 'mcp',
        tools: [echo],
      });
      const louder = {
        ...echo,
        inputSchema: {
          ...echo.inputSchema,
          properties: { message: { type: 'string' }, volume: { type: 'integer' } },
        },
      };
      const shout = { ...echo, name: 'shout' };
      const { toolkit, changes } = await replaceToolkitTools(database.db, created, [louder, shout]);
      expect(toolkit.tools).toEqual([louder, shout]);
      expect(toolkit.contentHash).toBe(getToolkitHash([louder, shout]));
      expect(toolkit.fetchedAt.getTime()).toBeGreaterThanOrEqual(created.fetchedAt.getTime());
      expect(changes.added).toEqual(['shout']);
      expect(changes.removed).toEqual([]);
      expect(changes.changed).toMatchObject([
        { name: 'echo', diff: { added: [{ name: 'volume', type: 'int' }] } },
      ]);
    });
  });
});

describe('getToolkitChanges', () => {
  it('is empty for the same tools', () => {
    expect(getToolkitChanges([echo], [{ ...echo }])).toEqual({ added: [], removed: [], changed: [] });
  });

  it('lists a removed tool', () => {
    expect(getToolkitChanges([echo], []).removed).toEqual(['echo']);
  });
});

describe('readDeclarations', () => {
  it('reads pasted Gemini text and marks the tools as from a file toolkit', () => {
    const text = JSON.stringify({
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
        },
      ],
    });
    const read = readDeclarations({ text }, 'Weather');
    expect(read).toMatchObject({
      ok: true,
      value: {
        format: 'gemini',
        tools: [{ name: 'get_weather', source: { kind: 'file', toolkit: 'Weather' } }],
      },
    });
  });

  it('refuses a file with no tools', () => {
    expect(readDeclarations({ declarations: [] }, 'Empty')).toMatchObject({
      ok: false,
      error: [{ code: 'no_tools' }],
    });
  });

  it('reports where JSON text is broken', () => {
    const read = readDeclarations({ text: '[{"name": "a",}]' }, 'Broken');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error[0].message).toMatch(/line 1/i);
  });
});
