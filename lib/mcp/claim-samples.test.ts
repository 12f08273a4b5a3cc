/**
 * A guest's sample data follows its workspace into the account: written by runs against the real
 * memory and filesystem servers in the guest's space, claimed, then read by runs in the account's
 * personal workspace's space. When both have data it is merged without losing either's, claims at
 * once into one space lose nothing, and a graph that cannot be read is kept as a file.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as fsPromises from 'node:fs/promises';
import { link } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import type { RunLimits } from '../run/types';
import { buildExport } from '../run/__fixtures__/exports';
import { BUILTIN_TOOLKITS } from '../toolkits/builtin';
import { claimSampleSpace, mergeGraphs } from './claim-samples';
import { planRunHere, runExportHere } from './run-port';
import { LOCAL_OPTIONS } from './__fixtures__/servers';
import { getSampleSpace, getSampleSpaceDir } from './sample-spaces';

const LIMITS: RunLimits = {
  concurrency: 1,
  nodeTimeoutMs: 15_000,
  serverStartTimeoutMs: 15_000,
  runTimeoutMs: 60_000,
  maxResultBytes: 262_144,
};
// Every hard link is the real one, unless a test makes one fail.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof fsPromises>();
  return { ...actual, link: vi.fn(actual.link) };
});

const GUEST = 'own_guestAAAAAAAAAAAAAAAA';
const ACCOUNT = 'own_personal_user_a';

type Step = { id: string; tool: string; args: Record<string, unknown> };

/** Runs `steps` of one sample (memory or files) in `ownerId`'s space, as a test-run does. */
async function runAs(dataDir: string, ownerId: string, key: 'memory' | 'files', steps: Step[]) {
  const tools = BUILTIN_TOOLKITS.find((k) => k.key === key)!.tools;
  const file = buildExport({ steps }, tools);
  const options = {
    client: LOCAL_OPTIONS,
    config: { env: { TOOLFLOW_DATA_DIR: dataDir }, space: getSampleSpace(ownerId) },
    limits: LIMITS,
  };
  const outcome = await runExportHere(file, await planRunHere(file, options), options);
  for (const node of outcome.nodes) expect(node.status, JSON.stringify(node.error)).toBe('succeeded');
  return outcome.nodes;
}

const entity = (name: string, observations: string[]) => ({ name, entityType: 'person', observations });

async function readGraphAs(dataDir: string, ownerId: string) {
  const [read] = await runAs(dataDir, ownerId, 'memory', [{ id: 'read', tool: 'read_graph', args: {} }]);
  return read.result?.structuredContent as { entities: unknown[]; relations: unknown[] };
}

async function readFileAs(dataDir: string, ownerId: string, file: string) {
  const [read] = await runAs(dataDir, ownerId, 'files', [
    { id: 'read', tool: 'read_text_file', args: { path: file } },
  ]);
  return (read.result?.structuredContent as { content: string }).content;
}

const newDataDir = () => mkdtempSync(path.join(tmpdir(), 'toolflow-claim-'));
const spaceOf = (dataDir: string, ownerId: string) => getSampleSpaceDir(dataDir, getSampleSpace(ownerId));

describe('claiming a guest workspace moves its sample data', () => {
  it('into an account that has none: the whole space, read back by the account’s runs', async () => {
    const dataDir = newDataDir();
    await runAs(dataDir, GUEST, 'memory', [
      { id: 'create', tool: 'create_entities', args: { entities: [entity('Ada', ['wrote notes'])] } },
    ]);
    await runAs(dataDir, GUEST, 'files', [
      { id: 'dir', tool: 'create_directory', args: { path: 'notes' } },
      { id: 'write', tool: 'write_file', args: { path: 'notes/todo.txt', content: 'guest todo' } },
    ]);

    expect(await claimSampleSpace(dataDir, GUEST, ACCOUNT)).toBe(true);

    expect(existsSync(spaceOf(dataDir, GUEST))).toBe(false);
    expect(await readGraphAs(dataDir, ACCOUNT)).toEqual({
      entities: [entity('Ada', ['wrote notes'])],
      relations: [],
    });
    expect(await readFileAs(dataDir, ACCOUNT, 'notes/todo.txt')).toBe('guest todo');
    // Claiming again (the next sign-in) finds nothing left to move and changes nothing.
    expect(await claimSampleSpace(dataDir, GUEST, ACCOUNT)).toBe(false);
    expect(await readFileAs(dataDir, ACCOUNT, 'notes/todo.txt')).toBe('guest todo');
  });

  it('into an account that has its own: graphs merged, colliding files kept under new names', async () => {
    const dataDir = newDataDir();
    for (const [owner, who] of [
      [GUEST, 'guest'],
      [ACCOUNT, 'account'],
    ] as const) {
      await runAs(dataDir, owner, 'memory', [
        {
          id: 'create',
          tool: 'create_entities',
          args: { entities: [entity('Ada', [`seen by ${who}`, 'shared']), entity(`Only ${who}`, [])] },
        },
        {
          id: 'relate',
          tool: 'create_relations',
          args: { relations: [{ from: 'Ada', to: `Only ${who}`, relationType: 'knows' }] },
        },
      ]);
      await runAs(dataDir, owner, 'files', [
        { id: 'dir', tool: 'create_directory', args: { path: 'notes' } },
        { id: 'todo', tool: 'write_file', args: { path: 'notes/todo.txt', content: `${who} todo` } },
        { id: 'own', tool: 'write_file', args: { path: `${who}.txt`, content: who } },
      ]);
    }

    expect(await claimSampleSpace(dataDir, GUEST, ACCOUNT)).toBe(true);

    expect(existsSync(spaceOf(dataDir, GUEST))).toBe(false);
    expect(await readGraphAs(dataDir, ACCOUNT)).toEqual({
      entities: [
        entity('Ada', ['seen by account', 'shared', 'seen by guest']),
        entity('Only account', []),
        entity('Only guest', []),
      ],
      relations: [
        { from: 'Ada', to: 'Only account', relationType: 'knows' },
        { from: 'Ada', to: 'Only guest', relationType: 'knows' },
      ],
    });
    expect(await readFileAs(dataDir, ACCOUNT, 'notes/todo.txt')).toBe('account todo');
    expect(await readFileAs(dataDir, ACCOUNT, 'notes/todo (guest).txt')).toBe('guest todo');
    expect(await readFileAs(dataDir, ACCOUNT, 'guest.txt')).toBe('guest');
    expect(await readFileAs(dataDir, ACCOUNT, 'account.txt')).toBe('account');
  });
});

/** A Files folder with `count` files of the owner's own and one named like everyone's. */
function writeGuestFiles(dataDir: string, owner: string, count: number) {
  const files = path.join(spaceOf(dataDir, owner), 'files');
  mkdirSync(files, { recursive: true });
  writeFileSync(path.join(files, 'same.txt'), owner);
  for (let i = 0; i < count; i++) writeFileSync(path.join(files, `${owner}-${i}.txt`), `${owner} ${i}`);
}

describe('claims at once, failures and graphs that cannot be merged', () => {
  it('loses nothing when several guests (and one guest twice) are claimed into one account at once', async () => {
    const dataDir = newDataDir();
    const guests = ['own_g1xxxxxxxxxxxxxxxx', 'own_g2xxxxxxxxxxxxxxxx', 'own_g3xxxxxxxxxxxxxxxx'];
    for (const guest of guests) writeGuestFiles(dataDir, guest, 20);
    writeGuestFiles(dataDir, ACCOUNT, 0);

    await Promise.all([...guests, guests[0]].map((guest) => claimSampleSpace(dataDir, guest, ACCOUNT)));

    const files = path.join(spaceOf(dataDir, ACCOUNT), 'files');
    const names = readdirSync(files);
    expect(names.length).toBe(1 + guests.length * 21);
    const contents = names.map((name) => readFileSync(path.join(files, name), 'utf8'));
    for (const guest of guests) {
      expect(contents.filter((c) => c === guest).length).toBe(1);
      expect(existsSync(spaceOf(dataDir, guest))).toBe(false);
    }
    expect(readFileSync(path.join(files, 'same.txt'), 'utf8')).toBe(ACCOUNT);
    expect(existsSync(`${spaceOf(dataDir, ACCOUNT)}.lock`)).toBe(false);
  });

  it('leaves what a failure stopped in the guest’s folder, and the next claim moves it', async () => {
    const dataDir = newDataDir();
    writeGuestFiles(dataDir, GUEST, 5);
    // No name in common: one link per file, so the third is the one that fails.
    mkdirSync(path.join(spaceOf(dataDir, ACCOUNT), 'files'), { recursive: true });
    writeFileSync(path.join(spaceOf(dataDir, ACCOUNT), 'files', 'account.txt'), 'account');
    const { link: realLink } = await vi.importActual<typeof fsPromises>('node:fs/promises');
    vi.mocked(link)
      .mockImplementationOnce(realLink)
      .mockImplementationOnce(realLink)
      .mockRejectedValueOnce(Object.assign(new Error('I/O error'), { code: 'EIO' }));

    await expect(claimSampleSpace(dataDir, GUEST, ACCOUNT)).rejects.toThrow('I/O error');
    const guestFiles = path.join(spaceOf(dataDir, GUEST), 'files');
    const accountFiles = path.join(spaceOf(dataDir, ACCOUNT), 'files');
    expect(readdirSync(guestFiles).length).toBe(4);
    expect(readdirSync(accountFiles).length).toBe(3);
    expect(existsSync(`${spaceOf(dataDir, ACCOUNT)}.lock`)).toBe(false);

    expect(await claimSampleSpace(dataDir, GUEST, ACCOUNT)).toBe(true);
    expect(existsSync(spaceOf(dataDir, GUEST))).toBe(false);
    const contents = readdirSync(accountFiles).map((n) => readFileSync(path.join(accountFiles, n), 'utf8'));
    expect(contents.sort()).toEqual(
      ['account', GUEST, ...[0, 1, 2, 3, 4].map((i) => `${GUEST} ${i}`)].sort(),
    );
  });

  it('keeps a guest graph it cannot read beside the account’s, as a file', async () => {
    const dataDir = newDataDir();
    await runAs(dataDir, ACCOUNT, 'memory', [
      { id: 'create', tool: 'create_entities', args: { entities: [entity('Ada', [])] } },
    ]);
    const guestMemory = path.join(spaceOf(dataDir, GUEST), 'memory');
    mkdirSync(guestMemory, { recursive: true });
    writeFileSync(path.join(guestMemory, 'memory.jsonl'), 'not json\n');

    await claimSampleSpace(dataDir, GUEST, ACCOUNT);

    const memory = path.join(spaceOf(dataDir, ACCOUNT), 'memory');
    expect(readFileSync(path.join(memory, 'memory (guest).jsonl'), 'utf8')).toBe('not json\n');
    expect(await readGraphAs(dataDir, ACCOUNT)).toEqual({ entities: [entity('Ada', [])], relations: [] });
  });
});

describe('mergeGraphs', () => {
  it('adds the guest’s entities, observations and relations once, the account’s first', () => {
    const knows = { from: 'A', to: 'B', relationType: 'knows' };
    expect(
      mergeGraphs(
        { entities: [entity('A', ['x'])], relations: [knows] },
        { entities: [entity('A', ['x', 'y']), entity('B', [])], relations: [knows, { ...knows, to: 'A' }] },
      ),
    ).toEqual({
      entities: [entity('A', ['x', 'y']), entity('B', [])],
      relations: [knows, { ...knows, to: 'A' }],
    });
  });
});
