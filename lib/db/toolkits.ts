import 'server-only';
/**
 * Toolkits: named sets of tool declarations a person plans with. Each keeps a snapshot of its
 * canonical declarations and their content hash; a refresh replaces the snapshot and says which
 * tools changed (nodes built from the old ones are then flagged by lib/toolkits/drift.ts).
 *
 * The built-in sample toolkits are shared rows with no owner, written from lib/toolkits/builtin.ts
 * on first use and rewritten whenever that file changes. Every other toolkit belongs to one owner.
 */
import { err, ok, type Result } from '../result';
import { importDeclarations, parseDeclarationsText } from '../tools/import';
import type { DeclarationFormat, ToolDeclaration, ToolSource } from '../tools/types';
import { getDeclarationDiff, type DeclarationDiff } from '../toolkits/drift';
import { BUILTIN_TOOLKITS, getToolkitHash, type BuiltinToolkit } from '../toolkits/builtin';
import { hashDeclaration } from '../tools/canonical-json';
import { listMcpTools, type McpClientOptions, type McpProblem, type McpTarget } from '../mcp/client';
import type { Db } from './client';
import { createId } from './ids';
import { ensureOwner } from './owners';
import { TX_OPTIONS } from './workflows';

export type ToolkitSourceKind = 'builtin' | 'file' | 'mcp-http' | 'mcp-stdio';

/** Most tools one toolkit may hold. */
export const MAX_TOOLKIT_TOOLS = 2000;

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

/** How a refresh changed a toolkit's tools. */
export interface ToolkitChanges {
  added: string[];
  removed: string[];
  changed: { name: string; diff: DeclarationDiff }[];
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

const builtinId = (toolkit: BuiltinToolkit) => `tk_builtin_${toolkit.key}`;

// Databases whose built-ins are known to match this build (one check per process and database).
const syncedDatabases = new WeakSet<object>();

/**
 * Write the built-in toolkits when they are missing or differ from lib/toolkits/builtin.ts.
 * Safe when two requests do it at once: one insert wins, the other changes nothing.
 */
export async function ensureBuiltinToolkits(db: Db, opts: { force?: boolean } = {}): Promise<void> {
  if (syncedDatabases.has(db) && !opts.force) return;
  for (const toolkit of BUILTIN_TOOLKITS) {
    const hash = getToolkitHash(toolkit.tools);
    const declarations = JSON.stringify(toolkit.tools);
    await db.$executeRaw`
      INSERT INTO "Toolkit" ("id", "ownerId", "name", "sourceKind", "sourceRef", "format", "declarations", "contentHash", "fetchedAt", "updatedAt")
      VALUES (${builtinId(toolkit)}, NULL, ${toolkit.name}, 'builtin', ${toolkit.key}, NULL, ${declarations}::jsonb, ${hash}, NOW(), NOW())
      ON CONFLICT ("id") DO UPDATE
        SET "name" = EXCLUDED."name", "declarations" = EXCLUDED."declarations",
            "contentHash" = EXCLUDED."contentHash", "fetchedAt" = NOW(), "updatedAt" = NOW()
        WHERE "Toolkit"."contentHash" <> EXCLUDED."contentHash" OR "Toolkit"."name" <> EXCLUDED."name"`;
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
    r.builtin ? BUILTIN_TOOLKITS.findIndex((b) => builtinId(b) === r.id) : BUILTIN_TOOLKITS.length;
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

/** Replaces a toolkit's declarations; `changes` says which tools differ. */
export async function replaceToolkitTools(
  db: Db,
  toolkit: ToolkitRecord,
  tools: ToolDeclaration[],
  format: DeclarationFormat | null = toolkit.format,
): Promise<{ toolkit: ToolkitRecord; changes: ToolkitChanges }> {
  const row = await db.toolkit.update({
    where: { id: toolkit.id },
    data: {
      declarations: tools as unknown as object,
      contentHash: getToolkitHash(tools),
      format,
      fetchedAt: new Date(),
    },
  });
  return { toolkit: toRecord(row as Row), changes: getToolkitChanges(toolkit.tools, tools) };
}

/** Which tools were added, removed or changed between two snapshots, with each change's diff. */
export function getToolkitChanges(
  before: readonly ToolDeclaration[],
  after: readonly ToolDeclaration[],
): ToolkitChanges {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  return {
    added: after.filter((t) => !old.has(t.name)).map((t) => t.name),
    removed: before.filter((t) => !now.has(t.name)).map((t) => t.name),
    changed: after
      .filter((t) => old.has(t.name) && hashDeclaration(old.get(t.name)!) !== hashDeclaration(t))
      .map((t) => ({ name: t.name, diff: getDeclarationDiff(old.get(t.name), t) })),
  };
}

// ---- reading declarations from where a toolkit comes from ----

/** A declarations file as uploaded or pasted: its text, or already-parsed JSON. */
export type DeclarationsInput = { text: string } | { declarations: unknown };

/** Reads declarations in any format the core knows; issues are located in the input. */
export function readDeclarations(
  input: DeclarationsInput,
  toolkitName: string,
): Result<{ format: DeclarationFormat; tools: ToolDeclaration[] }> {
  const source: ToolSource = { kind: 'file', toolkit: toolkitName };
  const imported =
    'text' in input
      ? parseDeclarationsText(input.text, { source })
      : importDeclarations(input.declarations, { source });
  if (!imported.ok) return imported;
  const limited = checkToolCount(imported.value.tools);
  return limited.ok ? imported : limited;
}

function checkToolCount(tools: readonly ToolDeclaration[]): Result<true> {
  if (tools.length === 0) {
    return err([
      { path: '', code: 'no_tools', message: 'The file declares no tools; a toolkit needs at least one.' },
    ]);
  }
  if (tools.length > MAX_TOOLKIT_TOOLS) {
    return err([
      {
        path: '',
        code: 'too_many_tools',
        message: `The file declares ${tools.length} tools; a toolkit holds at most ${MAX_TOOLKIT_TOOLS}. Split it.`,
      },
    ]);
  }
  return ok(true);
}

/** Lists an MCP server's tools for a toolkit named `toolkitName` (tools carry it as their source's toolkit). */
export async function readMcpDeclarations(
  target: McpTarget,
  toolkitName: string,
  options: McpClientOptions,
): Promise<Result<ToolDeclaration[], McpProblem>> {
  const listed = await listMcpTools(target, { ...options, maxTools: MAX_TOOLKIT_TOOLS });
  if (!listed.ok) return listed;
  return ok(
    listed.value.tools.map((tool) => ({ ...tool, source: { ...tool.source!, toolkit: toolkitName } })),
  );
}

/** The built-in toolkit a stored one was written from. */
export function getBuiltinDefinition(toolkit: ToolkitRecord): BuiltinToolkit | undefined {
  return BUILTIN_TOOLKITS.find((b) => builtinId(b) === toolkit.id);
}
