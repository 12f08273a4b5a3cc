import 'server-only';
/**
 * A guest's sample data follows its workspace into the account (docs/design.md §13.2): when an
 * account claims a guest workspace, the guest's sample space (its Memory graph and Files folder,
 * sample-spaces.ts) becomes part of the account's personal workspace's space.
 *
 * - The account has no space yet: the guest's folder is renamed to the account's, whole.
 * - Both have one: they are merged. The Memory graphs become one (entities by name, their
 *   observations joined; relations joined); a file of the guest's whose name the account already
 *   uses comes in as `name (guest).ext` (`name (guest 2).ext`, …). A graph that cannot be read
 *   is not merged: it comes in as a file beside the account's (`memory (guest).jsonl`).
 *
 * Nothing is written over and nothing is deleted before it is kept elsewhere: files move by
 * hard link then unlink (a link never replaces a file), and the guest's graph file is removed only
 * once the account's holds every entity of it. A failure leaves what was not moved yet in the
 * guest's folder, and the next claim (the next sign-in from that browser) carries on. Claims into
 * one space take turns: within a process by a queue, across processes by a lock folder beside it.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  rename,
  rmdir,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { getSampleSpace, getSampleSpaceDir } from './sample-spaces';

const MEMORY_FILE = 'memory.jsonl';
/** How long a claim waits for another one into the same space, and when a lock is abandoned. */
const LOCK_WAIT_MS = 30_000;
const LOCK_STALE_MS = 120_000;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;
const exists = (file: string) =>
  lstat(file).then(
    () => true,
    () => false,
  );

/** Moves the sample data of workspace `fromId` into that of `toId`; true when anything was there. */
export async function claimSampleSpace(dataDir: string, fromId: string, toId: string): Promise<boolean> {
  const from = getSampleSpaceDir(dataDir, getSampleSpace(fromId));
  const to = getSampleSpaceDir(dataDir, getSampleSpace(toId));
  return withSpaceLock(to, async () => {
    if (!(await exists(from))) return false;
    await mkdir(path.dirname(to), { recursive: true });
    if (!(await exists(to))) {
      try {
        await rename(from, to);
        return true;
      } catch (error) {
        // The account's sample server made its folder meanwhile: merge instead.
        if (!['EEXIST', 'ENOTEMPTY'].includes(codeOf(error) ?? '')) throw error;
      }
    }
    await mergeMemory(path.join(from, 'memory'), path.join(to, 'memory'));
    await moveInto(from, to);
    return true;
  });
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` while holding `dir`'s lock: one claim at a time into a space. */
async function withSpaceLock<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(dir) ?? Promise.resolve();
  const turn = previous.catch(() => undefined).then(() => withLockFolder(`${dir}.lock`, work));
  queues.set(dir, turn);
  try {
    return await turn;
  } finally {
    if (queues.get(dir) === turn) queues.delete(dir);
  }
}

async function withLockFolder<T>(lock: string, work: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
      const since = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (since > LOCK_STALE_MS) await rmdir(lock).catch(() => undefined);
      else if (Date.now() > deadline) throw new Error(`Another claim holds ${lock}; try again.`);
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await work();
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

/**
 * Moves everything in folder `from` into folder `to`: a folder the account has too is merged
 * entry by entry, anything else keeps its name unless the account uses it. `from` is removed
 * when it is left empty, and only then.
 */
async function moveInto(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      const there = await lstat(target).catch(() => null);
      if (there?.isDirectory()) await moveInto(source, target);
      else if (!there) await renameFolder(source, target, to, entry.name);
      else await renameFolder(source, await freeName(to, entry.name), to, entry.name);
    } else {
      await moveFile(source, to, entry.name);
    }
  }
  await rmdir(from).catch(() => undefined);
}

/** Renames a folder to a name that was free; one taken meanwhile is merged into instead. */
async function renameFolder(source: string, target: string, into: string, name: string): Promise<void> {
  try {
    await rename(source, target);
  } catch (error) {
    if (!['EEXIST', 'ENOTEMPTY', 'ENOTDIR'].includes(codeOf(error) ?? '')) throw error;
    await moveInto(source, (await lstat(target)).isDirectory() ? target : await freeName(into, name));
  }
}

/**
 * Moves a file into `into` under `name`, or the first free `name (guest n)`: never over one. A
 * hard link, or a copy where the disk has none; both fail rather than replace a file.
 */
async function moveFile(source: string, into: string, name: string): Promise<void> {
  for (let n = 1; ; n++) {
    const target = path.join(into, guestName(name, n));
    try {
      await link(source, target).catch((error) => {
        if (!['EPERM', 'ENOTSUP', 'EXDEV'].includes(codeOf(error) ?? '')) throw error;
        return copyFile(source, target, constants.COPYFILE_EXCL);
      });
      break;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
    }
  }
  await unlink(source);
}

/** `notes.txt`, then `notes (guest).txt`, `notes (guest 2).txt`, … */
function guestName(name: string, n: number): string {
  if (n === 1) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${stem} (guest${n === 2 ? '' : ` ${n - 1}`})${ext}`;
}

/** The first `name (guest n)` not used in `into` (for a folder, which cannot be linked). */
async function freeName(into: string, name: string): Promise<string> {
  for (let n = 2; ; n++) {
    const candidate = path.join(into, guestName(name, n));
    if (!(await exists(candidate))) return candidate;
  }
}

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}
interface Relation {
  from: string;
  to: string;
  relationType: string;
}
interface Graph {
  entities: Entity[];
  relations: Relation[];
}

/** A memory file as the memory server reads it; null when a line is not one it can read. */
async function readGraph(file: string): Promise<Graph | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { entities: [], relations: [] };
    throw error;
  }
  const graph: Graph = { entities: [], relations: [] };
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    let item: Record<string, unknown>;
    try {
      item = JSON.parse(line);
    } catch {
      return null;
    }
    if (item.type === 'entity' && typeof item.name === 'string' && Array.isArray(item.observations))
      graph.entities.push({
        name: item.name,
        entityType: String(item.entityType),
        observations: item.observations.map(String),
      });
    else if (item.type === 'relation')
      graph.relations.push({
        from: String(item.from),
        to: String(item.to),
        relationType: String(item.relationType),
      });
    else return null;
  }
  return graph;
}

/** The account's graph with the guest's added: entities by name, observations and relations once. */
export function mergeGraphs(account: Graph, guest: Graph): Graph {
  const entities = account.entities.map((e) => ({ ...e, observations: [...e.observations] }));
  const byName = new Map(entities.map((e) => [e.name, e]));
  for (const entity of guest.entities) {
    const mine = byName.get(entity.name);
    if (!mine) {
      const copy = { ...entity, observations: [...entity.observations] };
      entities.push(copy);
      byName.set(copy.name, copy);
    } else {
      for (const o of entity.observations) if (!mine.observations.includes(o)) mine.observations.push(o);
    }
  }
  const key = (r: Relation) => JSON.stringify([r.from, r.to, r.relationType]);
  const seen = new Set(account.relations.map(key));
  const relations = [...account.relations];
  for (const r of guest.relations) {
    if (seen.has(key(r))) continue;
    seen.add(key(r));
    relations.push(r);
  }
  return { entities, relations };
}

/**
 * Merges the guest's graph file into the account's, written beside it and renamed over it as the
 * memory server itself does; the guest's file is removed once the account's holds all of it.
 * Graphs that cannot both be read are left alone (moveInto then keeps the guest's as a file).
 */
async function mergeMemory(from: string, to: string): Promise<void> {
  const source = path.join(from, MEMORY_FILE);
  if (!(await exists(source))) return;
  const target = path.join(to, MEMORY_FILE);
  const [guest, account] = [await readGraph(source), await readGraph(target)];
  if (!guest || !account) return;
  const merged = mergeGraphs(account, guest);
  const lines = [
    ...merged.entities.map((e) => JSON.stringify({ type: 'entity', ...e })),
    ...merged.relations.map((r) => JSON.stringify({ type: 'relation', ...r })),
  ];
  await mkdir(to, { recursive: true });
  const temp = `${target}.${randomBytes(16).toString('hex')}.tmp`;
  await writeFile(temp, lines.join('\n'), { mode: 0o600 });
  await rename(temp, target);
  const written = await readGraph(target);
  const names = new Set(written?.entities.map((e) => e.name));
  // A run of the account's wrote over the merge meanwhile: keep the guest's file (moveInto).
  if (guest.entities.every((e) => names.has(e.name))) await unlink(source);
}
