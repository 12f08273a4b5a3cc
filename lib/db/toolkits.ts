import 'server-only';
/**
 * Toolkits: named sets of tool declarations a person plans with. Each keeps a snapshot of its
 * canonical declarations and their content hash; a refresh replaces the snapshot
 * (lib/toolkits/changes.ts says which tools changed; lib/toolkits/drift.ts flags the nodes built
 * from the old ones). Reading declarations is lib/toolkits/read.ts; this module only stores.
 *
 * The built-in sample toolkits are shared rows with no owner, written from lib/toolkits/builtin.ts
 * on first use and rewritten whenever that file changes. Every other toolkit belongs to one owner.
 */
import { BUILTIN_TOOLKITS, getBuiltinToolkitId, getToolkitHash } from '../toolkits/builtin';
import type { DeclarationFormat, ToolDeclaration } from '../tools/types';
import type { Db } from './client';
import { createId } from './ids';
import { ensureOwner } from './owners';
import { TX_OPTIONS } from './workflows';

export type ToolkitSourceKind = 'builtin' | 'file' | 'mcp-http' | 'mcp-stdio';

export interface ToolkitRecord {
  id: string;
  ownerId: string | null;
  name: string;
  sourceKind: ToolkitSourceKind;
  /** MCP URL, configured stdio server name, built-in key, or the uploaded file's name. */
  sourceRef: string | null;
  /** The declaration format a file was read from. */
  format: DeclarationFormat | null;
  builtin: boolean;
  tools: ToolDeclaration[];
  toolCount: number;
  contentHash: string;
  fetchedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  ownerId: string | null;
  name: string;
  sourceKind: string;
  sourceRef: string | null;
  format: string | null;
  declarations: unknown;
  contentHash: string;
  fetchedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

function toRecord(row: Row): ToolkitRecord {
  const tools = Array.isArray(row.declarations) ? (row.declarations as ToolDeclaration[]) : [];
  return {
    id: row.id,
    ownerId: row.ownerId,
    name: row.name,
    sourceKind: row.sourceKind as ToolkitSourceKind,
    sourceRef: row.sourceRef,
    format: row.format as DeclarationFormat | null,
    builtin: row.sourceKind === 'builtin' && row.ownerId === null,
    tools,
    toolCount: tools.length,
    contentHash: row.contentHash,
    fetchedAt: row.fetchedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

// Databases whose built-ins are known to match this build (one check per process and database).
const syncedDatabases = new WeakSet<object>();

/**
 * Write the built-in toolkits when they are missing or differ from lib/toolkits/builtin.ts, on
 * the first use in each process. "Differ" compares the stored JSON text, so it also rewrites a
 * row whose content is equal but whose keys are in another order: releases before this one wrote
 * through `::jsonb`, which sorts object keys, so their rows list a tool's parameters
 * alphabetically instead of in declaration order (docs/design.md §2.1). The column is `json`, which keeps
 * the text as written. Safe when two requests do it at once: one insert wins, the other changes
 * nothing.
 */
export async function ensureBuiltinToolkits(db: Db, opts: { force?: boolean } = {}): Promise<void> {
  if (syncedDatabases.has(db) && !opts.force) return;
  for (const toolkit of BUILTIN_TOOLKITS) {
    const hash = getToolkitHash(toolkit.tools);
    const declarations = JSON.stringify(toolkit.tools);
    await db.$executeRaw`
      INSERT INTO "Toolkit" ("id", "ownerId", "name", "sourceKind", "sourceRef", "format", "declarations", "contentHash", "fetchedAt", "updatedAt")
      VALUES (${getBuiltinToolkitId(toolkit)}, NULL, ${toolkit.name}, 'builtin', ${toolkit.key}, NULL, ${declarations}::json, ${hash}, NOW(), NOW())
      ON CONFLICT ("id") DO UPDATE
        SET "name" = EXCLUDED."name", "declarations" = EXCLUDED."declarations",
            "contentHash" = EXCLUDED."contentHash", "fetchedAt" = NOW(), "updatedAt" = NOW()
        WHERE "Toolkit"."declarations"::text <> EXCLUDED."declarations"::text
           OR "Toolkit"."contentHash" <> EXCLUDED."contentHash" OR "Toolkit"."name" <> EXCLUDED."name"`;
  }
  syncedDatabases.add(db);
}

/** The built-in toolkits and the owner's own, built-ins first, then oldest first. */
export async function listToolkits(db: Db, opts: { ownerId: string | null }): Promise<ToolkitRecord[]> {
  await ensureBuiltinToolkits(db);
  const rows = await db.toolkit.findMany({
    where: {
      OR: [{ ownerId: null, sourceKind: 'builtin' }, ...(opts.ownerId ? [{ ownerId: opts.ownerId }] : [])],
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const records = rows.map(toRecord);
  const order = (r: ToolkitRecord) =>
    r.builtin ? BUILTIN_TOOLKITS.findIndex((b) => getBuiltinToolkitId(b) === r.id) : BUILTIN_TOOLKITS.length;
  return records.sort((a, b) => order(a) - order(b));
}

/** One toolkit, or null. Built-ins are written first, so their ids always resolve. */
export async function getToolkit(db: Db, id: string): Promise<ToolkitRecord | null> {
  if (id.startsWith('tk_builtin_')) await ensureBuiltinToolkits(db);
  const row = await db.toolkit.findUnique({ where: { id } });
  return row ? toRecord(row as Row) : null;
}

/** Removes a toolkit; false when it did not exist. */
export async function deleteToolkit(db: Db, id: string): Promise<boolean> {
  const { count } = await db.toolkit.deleteMany({ where: { id } });
  return count > 0;
}

interface NewToolkit {
  ownerId: string;
  name: string;
  sourceKind: Exclude<ToolkitSourceKind, 'builtin'>;
  sourceRef: string | null;
  format: DeclarationFormat | null;
  tools: ToolDeclaration[];
}

/** Stores a toolkit (and its owner row, on the owner's first write). */
export async function createToolkit(db: Db, input: NewToolkit): Promise<ToolkitRecord> {
  const id = createId('tk');
  const row = await db.$transaction(async (tx) => {
    await ensureOwner(tx, input.ownerId);
    return tx.toolkit.create({
      data: {
        id,
        ownerId: input.ownerId,
        name: input.name,
        sourceKind: input.sourceKind,
        sourceRef: input.sourceRef,
        format: input.format,
        declarations: input.tools as unknown as object,
        contentHash: getToolkitHash(input.tools),
      },
    });
  }, TX_OPTIONS);
  return toRecord(row as Row);
}

/** Replaces a toolkit's declarations (lib/toolkits/changes.ts says which tools differ). */
export async function replaceToolkitTools(
  db: Db,
  toolkit: ToolkitRecord,
  tools: ToolDeclaration[],
  format: DeclarationFormat | null = toolkit.format,
): Promise<ToolkitRecord> {
  const row = await db.toolkit.update({
    where: { id: toolkit.id },
    data: {
      declarations: tools as unknown as object,
      contentHash: getToolkitHash(tools),
      format,
      fetchedAt: new Date(),
    },
  });
  return toRecord(row as Row);
}
