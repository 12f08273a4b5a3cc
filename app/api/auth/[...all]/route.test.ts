import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient } from '@/tests/owner-client';
import { getSessionUser } from '@/lib/http/auth';
import { getPersonalWorkspaceId } from '@/lib/db/workspaces';
import { getSampleSpace, getSampleSpaceDir } from '@/lib/mcp/sample-spaces';
import { GET as listWorkflows, POST as createWorkflow } from '../../workflows/route';
import { GET, POST } from './route';

const backends = await getTestBackends();

/** The owner id in a client's cookie (`toolflow_owner=v1.<id>.<signature>`). */
const ownerOf = (cookie: string | undefined) => cookie!.split('=')[1].split('.')[1];

/** The cookies a response sets, as one `Cookie` header value. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

function auth(path: string, body: unknown, cookie?: string) {
  return POST(jsonRequest(`/api/auth/${path}`, 'POST', body, cookie ? { cookie } : {}));
}

describe.each(backends)('/api/auth on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('signs up, stores only a hash of the password, and the session names the user', async () => {
    const res = await auth('sign-up/email', {
      email: 'ada@example.com',
      password: 'correct horse 1',
      name: 'Ada',
    });
    expect(res.status).toBe(200);
    const cookie = cookiesOf(res);
    expect(cookie).toMatch(/toolflow\.session_token=/);
    const user = await getSessionUser(new Headers({ cookie }));
    expect(user).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    const account = await database.db.account.findFirst({ where: { userId: user!.id } });
    expect(account?.password).toBeTruthy();
    expect(account!.password).not.toContain('correct horse 1');
    // The account's personal workspace, with the account as its owner.
    const member = await database.db.member.findFirst({ where: { userId: user!.id } });
    expect(member).toMatchObject({ workspaceId: getPersonalWorkspaceId(user!.id), role: 'owner' });
  });

  it('signs in with the right password and refuses a wrong one or an unknown address alike', async () => {
    const ok = await auth('sign-in/email', { email: 'ada@example.com', password: 'correct horse 1' });
    expect(ok.status).toBe(200);
    const wrong = await auth('sign-in/email', { email: 'ada@example.com', password: 'wrong horse 1' });
    const unknown = await auth('sign-in/email', { email: 'nobody@example.com', password: 'wrong horse 1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(wrong.status);
    expect(await unknown.json()).toEqual(await wrong.json());
  });

  it('signs out: the session no longer names anyone', async () => {
    const res = await auth('sign-in/email', { email: 'ada@example.com', password: 'correct horse 1' });
    const cookie = cookiesOf(res);
    expect(await getSessionUser(new Headers({ cookie }))).not.toBeNull();
    const out = await auth('sign-out', {}, cookie);
    expect(out.status).toBe(200);
    expect(await getSessionUser(new Headers({ cookie }))).toBeNull();
  });

  it('answers the session over GET', async () => {
    const res = await auth('sign-in/email', { email: 'ada@example.com', password: 'correct horse 1' });
    const session = await GET(
      jsonRequest('/api/auth/get-session', 'GET', undefined, { cookie: cookiesOf(res) }),
    );
    expect((await session.json()).user.email).toBe('ada@example.com');
  });

  it('refuses a cross-site sign-in before Better Auth sees it', async () => {
    const res = await POST(
      jsonRequest(
        '/api/auth/sign-in/email',
        'POST',
        { email: 'ada@example.com', password: 'correct horse 1' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      ),
    );
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("moves a guest's workflows and sample files into the account on sign-up, and nothing of another guest's", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'toolflow-auth-'));
    vi.stubEnv('TOOLFLOW_DATA_DIR', dataDir);
    const filesOf = (ownerId: string) =>
      path.join(getSampleSpaceDir(dataDir, getSampleSpace(ownerId)), 'files');
    const guest = createOwnerClient();
    const other = createOwnerClient();
    for (const [client, name] of [
      [guest, 'Mine 1'],
      [guest, 'Mine 2'],
      [other, 'Theirs'],
    ] as const) {
      const res = await client.send(createWorkflow, 'POST', '/api/workflows', { name });
      expect(res.status).toBe(201);
      mkdirSync(filesOf(ownerOf(client.cookie)), { recursive: true });
      writeFileSync(path.join(filesOf(ownerOf(client.cookie)), `${name}.txt`), name);
    }
    const res = await auth(
      'sign-up/email',
      { email: 'grace@example.com', password: 'correct horse 2', name: 'Grace' },
      guest.cookie,
    );
    expect(res.status).toBe(200);
    const user = await getSessionUser(new Headers({ cookie: cookiesOf(res) }));
    const moved = await database.db.workflow.findMany({
      where: { ownerId: getPersonalWorkspaceId(user!.id) },
      orderBy: { name: 'asc' },
    });
    expect(moved.map((w) => w.name)).toEqual(['Mine 1', 'Mine 2']);
    // The other guest keeps theirs, and the claimed guest's list is now empty.
    const theirs = await other.send(listWorkflows, 'GET', '/api/workflows');
    expect((await theirs.json()).workflows.map((w: { name: string }) => w.name)).toEqual(['Theirs']);
    const emptied = await guest.send(listWorkflows, 'GET', '/api/workflows');
    expect((await emptied.json()).workflows).toEqual([]);
    // The guest's sample files are the personal workspace's now; the other guest's stay theirs.
    const personal = filesOf(getPersonalWorkspaceId(user!.id));
    expect(readFileSync(path.join(personal, 'Mine 2.txt'), 'utf8')).toBe('Mine 2');
    expect(readFileSync(path.join(filesOf(ownerOf(other.cookie)), 'Theirs.txt'), 'utf8')).toBe('Theirs');
    vi.unstubAllEnvs();
  });
});
