import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, jsonRequest, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as list, POST as create } from '../../route';
import { GET as read, PUT as update } from '../route';
import { GET as listShares, POST as createShare } from './route';
import { DELETE as revoke } from './[shareId]/route';
import { GET as viewShared } from '../../../shares/[token]/route';
import { GET as exportShared } from '../../../shares/[token]/export/route';
import { POST as fork } from '../../../shares/[token]/fork/route';

const backends = await getTestBackends();

const document = {
  task: 'fetch and analyse',
  nodes: [
    {
      id: 'step_1',
      tool: 'fetch_file',
      position: { x: 0, y: 0 },
      args: { url: 'https://example.org/a.cif' },
    },
    { id: 'step_2', tool: 'analyse', position: { x: 300, y: 0 }, args: { mode: 'fast' } },
  ],
  edges: [{ id: 'e1', source: 'step_1', sourceOutput: 'result', target: 'step_2', targetInput: 'path' }],
  tools: {},
};

async function createAs(client: OwnerClient, doc: unknown = document) {
  const res = await client.send(create, 'POST', '/api/workflows', { name: 'Shared thing', document: doc });
  return (await res.json()).workflow as { id: string; version: number };
}

describe.each(backends)('share links on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('creates an unguessable link, stores only its hash, and shows the workflow read-only to anyone', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const res = await alice.send(createShare, 'POST', '', {}, { id: wf.id });
    expect(res.status).toBe(201);
    const { token, share, path } = await res.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(path).toBe(`/s/${token}`);
    expect(share.expiresAt).toBeNull();

    const rows = await database.db.share.findMany({ where: { workflowId: wf.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);

    const stranger = await viewShared(jsonRequest(path, 'GET'), { params: Promise.resolve({ token }) });
    expect(stranger.status).toBe(200);
    expect(stranger.headers.get('x-robots-tag')).toContain('noindex');
    const body = await stranger.json();
    expect(body.workflow.document).toEqual(document);
    expect(body.share.readOnly).toBe(true);

    const listed = await (await alice.send(listShares, 'GET', '', undefined, { id: wf.id })).json();
    expect(listed.shares.map((s: { id: string }) => s.id)).toEqual([share.id]);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('lets a viewer read and fork through the link but not change, share or delete the original', async () => {
    const alice = createOwnerClient();
    const bob = createOwnerClient();
    const wf = await createAs(alice);
    const { token } = await (await alice.send(createShare, 'POST', '', {}, { id: wf.id })).json();

    expect((await bob.send(read, 'GET', '', undefined, { id: wf.id })).status).toBe(403);
    expect((await bob.send(update, 'PUT', '', { version: 1, document }, { id: wf.id })).status).toBe(403);
    expect((await bob.send(createShare, 'POST', '', {}, { id: wf.id })).status).toBe(403);
    expect((await bob.send(listShares, 'GET', '', undefined, { id: wf.id })).status).toBe(403);

    const forked = await bob.send(fork, 'POST', `/api/shares/${token}/fork`, undefined, { token });
    expect(forked.status).toBe(201);
    expect(forked.headers.get('set-cookie')).toContain('toolflow_owner=');
    const copy = (await forked.json()).workflow;
    expect(copy.id).not.toBe(wf.id);
    expect(copy.forkedFromId).toBe(wf.id);
    expect(copy.name).toBe('Shared thing (fork)');
    expect(copy.document).toEqual(document);

    // Bob owns the copy: he can edit it, and it is in his list, not Alice's.
    const edited = { ...document, task: 'bob edits his copy' };
    expect(
      (await bob.send(update, 'PUT', '', { version: 1, document: edited }, { id: copy.id })).status,
    ).toBe(200);
    const bobs = await (await bob.send(list, 'GET', '/api/workflows')).json();
    expect(bobs.workflows.map((w: { id: string }) => w.id)).toEqual([copy.id]);
    const alices = await (await alice.send(list, 'GET', '/api/workflows')).json();
    expect(alices.workflows.map((w: { id: string }) => w.id)).toEqual([wf.id]);
    const original = await (await alice.send(read, 'GET', '', undefined, { id: wf.id })).json();
    expect(original.workflow.task).toBe('fetch and analyse');
  });

  it('downloads the shared workflow as v1 JSON', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const { token } = await (await alice.send(createShare, 'POST', '', {}, { id: wf.id })).json();
    const res = await exportShared(jsonRequest('', 'GET'), { params: Promise.resolve({ token }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(
      'attachment; filename="Shared-thing.toolflow.json"',
    );
    const file = await res.json();
    expect(file).toMatchObject({ format: 'toolflow.workflow', version: 1, name: 'Shared thing' });
    expect(file.nodes.map((n: { id: string }) => n.id)).toEqual(['step_1', 'step_2']);
  });

  it('revokes a link at once: view, download and fork answer 404 after', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const { token, share } = await (await alice.send(createShare, 'POST', '', {}, { id: wf.id })).json();
    const params = { params: Promise.resolve({ token }) };
    expect((await viewShared(jsonRequest('', 'GET'), params)).status).toBe(200);

    const bob = createOwnerClient();
    expect((await bob.send(revoke, 'DELETE', '', undefined, { id: wf.id, shareId: share.id })).status).toBe(
      403,
    );
    expect((await viewShared(jsonRequest('', 'GET'), params)).status).toBe(200);

    expect((await alice.send(revoke, 'DELETE', '', undefined, { id: wf.id, shareId: share.id })).status).toBe(
      204,
    );
    const gone = await viewShared(jsonRequest('', 'GET'), params);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      code: 'not_found:share',
      message: 'This share link does not exist, was revoked or has expired. Ask the owner for a new link.',
    });
    expect((await exportShared(jsonRequest('', 'GET'), params)).status).toBe(404);
    expect((await bob.send(fork, 'POST', '', undefined, { token })).status).toBe(404);
    const listed = await (await alice.send(listShares, 'GET', '', undefined, { id: wf.id })).json();
    expect(listed.shares).toEqual([]);
    expect(
      (await alice.send(revoke, 'DELETE', '', undefined, { id: wf.id, shareId: 'sh_nope' })).status,
    ).toBe(404);
  });

  it('shows each save through the link on the next request, and 404s once the workflow is deleted', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const { token } = await (await alice.send(createShare, 'POST', '', {}, { id: wf.id })).json();
    const params = { params: Promise.resolve({ token }) };
    const view = async () => viewShared(jsonRequest('', 'GET'), params);
    // Read twice, so the second answer can come from memory.
    for (let i = 0; i < 2; i++) expect((await (await view()).json()).workflow.version).toBe(1);
    const saved = await alice.send(
      update,
      'PUT',
      '',
      { version: 1, name: 'Renamed', document: { ...document, task: 'fetch only' } },
      { id: wf.id },
    );
    expect(saved.status).toBe(200);
    const next = (await (await view()).json()).workflow;
    expect([next.version, next.name, next.document.task]).toEqual([2, 'Renamed', 'fetch only']);
    await database.db.workflow.delete({ where: { id: wf.id } });
    expect((await view()).status).toBe(404);
  });

  it('stops honouring a link after its expiry', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const res = await alice.send(createShare, 'POST', '', { expiresInDays: 1 }, { id: wf.id });
    const { token, share } = await res.json();
    const expires = new Date(share.expiresAt).getTime();
    expect(Math.abs(expires - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    const params = { params: Promise.resolve({ token }) };
    expect((await viewShared(jsonRequest('', 'GET'), params)).status).toBe(200);
    await database.db.share.update({
      where: { id: share.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await viewShared(jsonRequest('', 'GET'), params)).status).toBe(404);
    const listed = await (await alice.send(listShares, 'GET', '', undefined, { id: wf.id })).json();
    expect(listed.shares.map((s: { id: string; expired: boolean }) => [s.id, s.expired])).toEqual([
      [share.id, true],
    ]);
  });

  it('answers 404 alike for a made-up token and junk', async () => {
    for (const token of ['A'.repeat(43), 'short', '../../etc/passwd']) {
      const res = await viewShared(jsonRequest('', 'GET'), { params: Promise.resolve({ token }) });
      expect(res.status).toBe(404);
    }
  });

  it('warns about values that look like secrets, naming the fields, and shares only once confirmed', async () => {
    const alice = createOwnerClient();
    const leaky = {
      ...document,
      nodes: [
        { ...document.nodes[0], args: { url: 'https://u:hunter2hunter2@example.org/a.cif' } },
        { ...document.nodes[1], args: { mode: 'fast', api_key: 'sk-proj-abcdefghijklmnopqrstuvwx12' } },
      ],
    };
    const wf = await createAs(alice, leaky);
    const listed = await (await alice.send(listShares, 'GET', '', undefined, { id: wf.id })).json();
    expect(listed.secrets.map((s: { nodeId: string; field: string }) => `${s.nodeId}.${s.field}`)).toEqual([
      'step_1.url',
      'step_2.api_key',
    ]);

    const warned = await alice.send(createShare, 'POST', '', {}, { id: wf.id });
    expect(warned.status).toBe(422);
    const body = await warned.json();
    expect(body.code).toBe('unprocessable:secrets');
    expect(body.message).toContain('step_1 (fetch_file) › url looks like a password in a URL');
    expect(body.message).toContain('step_2 (analyse) › api_key looks like an OpenAI API key');
    expect(body.secrets).toHaveLength(2);
    expect(await database.db.share.count({ where: { workflowId: wf.id } })).toBe(0);

    const confirmed = await alice.send(createShare, 'POST', '', { acknowledgeSecrets: true }, { id: wf.id });
    expect(confirmed.status).toBe(201);
  });

  it('refuses a cross-site fork', async () => {
    const alice = createOwnerClient();
    const wf = await createAs(alice);
    const { token } = await (await alice.send(createShare, 'POST', '', {}, { id: wf.id })).json();
    const res = await fork(jsonRequest('', 'POST', undefined, { origin: 'https://evil.example' }), {
      params: Promise.resolve({ token }),
    });
    expect(res.status).toBe(403);
  });
});
