import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { BUILTIN_TOOLKITS, getToolkitHash } from '../toolkits/builtin';
import type { ToolDeclaration } from '../tools/types';
import { getToolkitChanges } from '../toolkits/changes';
import {
  createToolkit,
  deleteToolkit,
  ensureBuiltinToolkits,
  getToolkit,
  listToolkits,
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

  describe('declaration order (docs/design.md §2.1: parameters are listed in declaration order)', () => {
    const serialized = (tools: unknown) => JSON.stringify(tools);
    const storedText = async () =>
      database.db.$queryRaw<{ id: string; text: string; updatedAt: Date }[]>`
        SELECT "id", "declarations"::text AS "text", "updatedAt" FROM "Toolkit"
        WHERE "sourceKind" = 'builtin' ORDER BY "id"`;
    const byId = (id: string) => BUILTIN_TOOLKITS.find((b) => `tk_builtin_${b.key}` === id)!;

    it('stores the built-ins as the code declares them, key for key', async () => {
      await ensureBuiltinToolkits(database.db, { force: true });
      const rows = await storedText();
      expect(rows).toHaveLength(BUILTIN_TOOLKITS.length);
      for (const row of rows) expect(row.text).toBe(serialized(byId(row.id).tools));
      const listed = await listToolkits(database.db, { ownerId: null });
      listed.forEach((toolkit, i) =>
        expect(serialized(toolkit.tools)).toBe(serialized(BUILTIN_TOOLKITS[i].tools)),
      );
    });

    it('rewrites built-ins that an earlier release stored with sorted keys, once', async () => {
      // What releases before the fix did: the same content through ::jsonb, which sorts keys.
      for (const toolkit of BUILTIN_TOOLKITS) {
        await database.db.$executeRaw`
          UPDATE "Toolkit" SET "declarations" = ${serialized(toolkit.tools)}::jsonb
          WHERE "id" = ${`tk_builtin_${toolkit.key}`}`;
      }
      const sorted = await getToolkit(database.db, 'tk_builtin_materials');
      const optimize = sorted!.tools.find((t) => t.name === 'optimize_structure')!;
      const keys = Object.keys((optimize.inputSchema as { properties: object }).properties);
      // jsonb's own order: shorter keys first, then bytewise.
      const jsonbOrder = [...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
      expect(keys, 'the old write sorted the keys').toEqual(jsonbOrder);
      expect(keys[0]).not.toBe('input_structure');

      // A new process syncs the built-ins on first use; `force` does the same here.
      await ensureBuiltinToolkits(database.db, { force: true });
      const repaired = await storedText();
      for (const row of repaired) expect(row.text).toBe(serialized(byId(row.id).tools));
      const materials = await getToolkit(database.db, 'tk_builtin_materials');
      const declared = BUILTIN_TOOLKITS[0].tools.find((t) => t.name === 'optimize_structure')!;
      expect(
        Object.keys(
          (
            materials!.tools.find((t) => t.name === 'optimize_structure')!.inputSchema as {
              properties: object;
            }
          ).properties,
        ),
      ).toEqual(Object.keys((declared.inputSchema as { properties: object }).properties));

      // Rows that already match are left alone.
      await ensureBuiltinToolkits(database.db, { force: true });
      expect((await storedText()).map((r) => r.updatedAt.getTime())).toEqual(
        repaired.map((r) => r.updatedAt.getTime()),
      );
    });

    it('keeps the order of an owner toolkit as uploaded', async () => {
      const zigzag: ToolDeclaration = {
        name: 'zigzag',
        description: 'Parameters declared out of alphabetical order',
        inputSchema: {
          type: 'object',
          properties: { zeta: { type: 'string' }, alpha: { type: 'integer' }, mid: { type: 'boolean' } },
        },
      };
      const created = await createToolkit(database.db, {
        ownerId: 'own_repository_test_order',
        name: 'Zigzag',
        sourceKind: 'file',
        sourceRef: null,
        format: 'bare',
        tools: [zigzag],
      });
      expect(serialized((await getToolkit(database.db, created.id))!.tools)).toBe(serialized([zigzag]));
      const refreshed = await replaceToolkitTools(database.db, created, [
        zigzag,
        { ...zigzag, name: 'again' },
      ]);
      expect(serialized((await getToolkit(database.db, refreshed.id))!.tools)).toBe(
        serialized([zigzag, { ...zigzag, name: 'again' }]),
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

    it('replaces tools on refresh, which then differ as the change report says', async () => {
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
      const toolkit = await replaceToolkitTools(database.db, created, [louder, shout]);
      const changes = getToolkitChanges(created.tools, toolkit.tools);
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
