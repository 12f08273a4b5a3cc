/**
 * The access table's share-link cells (docs/design.md §13.3, §13.4): every route that reaches a
 * workspace's workflow, called by the six callers of the main table (tests/security/
 * access-table.test.ts) and by two more, on PGlite and on a real Postgres:
 * - `link`: an account of another workspace that opened a live "can edit" link to the workflow;
 * - `revoked`: an account that opened such a link, since revoked by the workflow's owner.
 * An edit link lets its holder read and change that one workflow, nothing else of the workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createShare as storeShare, revokeShare as storeRevocation } from '@/lib/db/shares';
import { createWorkflow as storeWorkflow } from '@/lib/db/workflows';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { GET as listWorkflows } from '@/app/api/workflows/route';
import {
  DELETE as deleteWorkflow,
  GET as readWorkflow,
  PATCH as renameWorkflow,
  PUT as saveWorkflow,
} from '@/app/api/workflows/[id]/route';
import { GET as exportWorkflow } from '@/app/api/workflows/[id]/export/route';
import { POST as duplicateWorkflow } from '@/app/api/workflows/[id]/duplicate/route';
import { GET as listRevisions } from '@/app/api/workflows/[id]/revisions/route';
import {
  GET as readRevision,
  PATCH as labelRevision,
} from '@/app/api/workflows/[id]/revisions/[version]/route';
import { POST as restoreRevision } from '@/app/api/workflows/[id]/revisions/[version]/restore/route';
import { GET as listRuns } from '@/app/api/workflows/[id]/runs/route';
import { GET as listShares, POST as createShare } from '@/app/api/workflows/[id]/shares/route';
import { DELETE as revokeShare } from '@/app/api/workflows/[id]/shares/[shareId]/route';
import { GET as readShared } from '@/app/api/shares/[token]/route';
import { POST as acceptShare } from '@/app/api/shares/[token]/accept/route';
import { POST as plan } from '@/app/api/plan/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { PUT as switchWorkspace } from '@/app/api/workspaces/current/route';
import { POST as inviteMember } from '@/app/api/workspaces/[id]/members/route';
import { sampleToolsText } from './api-routes';
import { createBrowser, signUp, type Browser } from './browser';

const backends = await getTestBackends();

const CALLERS = ['owner', 'editor', 'viewer', 'outsider', 'guest', 'noCookie', 'link', 'revoked'] as const;
type Caller = (typeof CALLERS)[number];

const document = {
  task: 'one step',
  nodes: [{ id: 'a', tool: 'echo', position: { x: 0, y: 0 }, args: {} }],
  edges: [],
  tools: {},
};

describe.each(backends)('the access table’s share-link cells on $name', (backend) => {
  let database: TestDatabase;
  const browsers = {} as Record<Exclude<Caller, 'noCookie'>, Browser>;
  let team: string;

  beforeAll(async () => {
    database = await useTestDatabase(backend);
    for (const caller of ['owner', 'editor', 'viewer', 'outsider', 'link', 'revoked'] as const) {
      browsers[caller] = createBrowser();
      await signUp(browsers[caller], `${caller}@example.com`);
    }
    browsers.guest = createBrowser();
    await browsers.guest.send(listWorkflows, 'GET', '/api/workflows');
    const made = await browsers.owner.send(createWorkspace, 'POST', '/api/workspaces', { name: 'Lab' });
    team = (await made.json()).workspace.id;
    for (const role of ['editor', 'viewer'] as const) {
      const invited = await browsers.owner.send(
        inviteMember,
        'POST',
        '',
        { email: `${role}@example.com`, role },
        { id: team },
      );
      expect(invited.status).toBe(201);
    }
    for (const caller of ['owner', 'editor', 'viewer'] as const) {
      expect((await browsers[caller].send(switchWorkspace, 'PUT', '', { id: team })).status).toBe(200);
    }
  }, 240_000);
  afterAll(async () => {
    await database?.close();
  });

  function call(caller: Caller, ...args: Parameters<Browser['send']>): Promise<Response> {
    const browser = caller === 'noCookie' ? createBrowser() : browsers[caller];
    return browser.send(...args);
  }

  /** A link to workflow `id` (made in the database: the route's own cells are in the table). */
  async function makeLink(id: string, role: 'viewer' | 'editor') {
    const { token, share } = await storeShare(database.db, id, { role });
    return { token, shareId: share.id };
  }

  /**
   * A new workflow of the shared workspace with a live "can edit" link the `link` account took
   * up, and another the `revoked` account took up before it was revoked. Made in the database
   * (the routes that make them are cells of the tables), but taken up through the route.
   */
  async function newLinkedWorkflow() {
    const { id, version } = await storeWorkflow(database.db, {
      name: 'Shared',
      document: document as unknown as WorkflowDocument,
      ownerId: team,
    });
    const live = await makeLink(id, 'editor');
    const ended = await makeLink(id, 'editor');
    expect((await browsers.link.send(acceptShare, 'POST', '', {}, { token: live.token })).status).toBe(200);
    expect((await browsers.revoked.send(acceptShare, 'POST', '', {}, { token: ended.token })).status).toBe(
      200,
    );
    expect(await storeRevocation(database.db, id, ended.shareId)).toBe(true);
    return { id, version, live, ended };
  }
  type Linked = Awaited<ReturnType<typeof newLinkedWorkflow>>;

  interface Row {
    route: string;
    expect: Record<Caller, number>;
    send(caller: Caller, w: Linked): Promise<Response>;
  }
  const members = (ok: number, viewer: number) => ({
    owner: ok,
    editor: ok,
    viewer,
    outsider: 403,
    guest: 403,
    noCookie: 403,
  });
  /** What the link's holder can do too: read and edit that one workflow. */
  const withLink = (ok: number, viewer: number) => ({ ...members(ok, viewer), link: ok, revoked: 403 });
  /** What stays with the workspace: the link's holder is an outsider here. */
  const workspaceOnly = (ok: number, viewer: number) => ({ ...members(ok, viewer), link: 403, revoked: 403 });

  const rows: Row[] = [
    {
      route: 'GET /api/workflows/[id]',
      expect: withLink(200, 200),
      send: (c, w) => call(c, readWorkflow, 'GET', '', undefined, { id: w.id }),
    },
    {
      route: 'PUT /api/workflows/[id]',
      expect: withLink(200, 403),
      send: (c, w) =>
        call(c, saveWorkflow, 'PUT', '', { version: w.version, name: 'Saved', document }, { id: w.id }),
    },
    {
      route: 'PATCH /api/workflows/[id]',
      expect: withLink(200, 403),
      send: (c, w) =>
        call(c, renameWorkflow, 'PATCH', '', { version: w.version, name: 'Renamed' }, { id: w.id }),
    },
    {
      route: 'DELETE /api/workflows/[id]',
      expect: { ...workspaceOnly(204, 403), editor: 403 },
      send: (c, w) => call(c, deleteWorkflow, 'DELETE', '', undefined, { id: w.id }),
    },
    {
      route: 'GET /api/workflows/[id]/export',
      expect: withLink(200, 200),
      send: (c, w) => call(c, exportWorkflow, 'GET', '', undefined, { id: w.id }),
    },
    {
      route: 'POST /api/workflows/[id]/duplicate',
      expect: workspaceOnly(201, 403),
      send: (c, w) => call(c, duplicateWorkflow, 'POST', '', {}, { id: w.id }),
    },
    {
      route: 'GET /api/workflows/[id]/revisions',
      expect: withLink(200, 200),
      send: (c, w) => call(c, listRevisions, 'GET', '', undefined, { id: w.id }),
    },
    {
      route: 'GET /api/workflows/[id]/revisions/[version]',
      expect: withLink(200, 200),
      send: (c, w) => call(c, readRevision, 'GET', '', undefined, { id: w.id, version: '1' }),
    },
    {
      route: 'PATCH /api/workflows/[id]/revisions/[version]',
      expect: withLink(200, 403),
      send: (c, w) => call(c, labelRevision, 'PATCH', '', { label: 'kept' }, { id: w.id, version: '1' }),
    },
    {
      route: 'POST /api/workflows/[id]/revisions/[version]/restore',
      expect: withLink(200, 403),
      send: (c, w) =>
        call(c, restoreRevision, 'POST', '', { version: w.version }, { id: w.id, version: '1' }),
    },
    {
      route: 'POST /api/plan (in the workflow)',
      expect: withLink(200, 403),
      send: (c, w) =>
        call(c, plan, 'POST', '/api/plan', {
          task: 'fetch https://example.org/a',
          tools: JSON.parse(sampleToolsText),
          llm: 'offline',
          workflowId: w.id,
        }),
    },
    {
      route: 'GET /api/workflows/[id]/runs',
      expect: workspaceOnly(200, 200),
      send: (c, w) => call(c, listRuns, 'GET', '', undefined, { id: w.id }),
    },
    {
      route: 'GET /api/workflows/[id]/shares',
      expect: workspaceOnly(200, 403),
      send: (c, w) => call(c, listShares, 'GET', '', undefined, { id: w.id }),
    },
    {
      route: 'POST /api/workflows/[id]/shares (a "can edit" link)',
      expect: workspaceOnly(201, 403),
      send: (c, w) => call(c, createShare, 'POST', '', { role: 'editor' }, { id: w.id }),
    },
    {
      route: 'DELETE /api/workflows/[id]/shares/[shareId]',
      expect: workspaceOnly(204, 403),
      send: (c, w) => call(c, revokeShare, 'DELETE', '', undefined, { id: w.id, shareId: w.live.shareId }),
    },
    {
      // The revoked account is asked with its own, revoked link; everyone else with the live one.
      route: 'POST /api/shares/[token]/accept (a "can edit" link)',
      expect: {
        owner: 200,
        editor: 200,
        viewer: 200,
        outsider: 200,
        guest: 401,
        noCookie: 401,
        link: 200,
        revoked: 404,
      },
      send: (c, w) =>
        call(c, acceptShare, 'POST', '', {}, { token: c === 'revoked' ? w.ended.token : w.live.token }),
    },
    {
      route: 'GET /api/shares/[token] (a "can edit" link)',
      expect: {
        owner: 200,
        editor: 200,
        viewer: 200,
        outsider: 200,
        guest: 200,
        noCookie: 200,
        link: 200,
        revoked: 404,
      },
      send: (c, w) =>
        call(c, readShared, 'GET', '', undefined, { token: c === 'revoked' ? w.ended.token : w.live.token }),
    },
  ];

  it('answers every route × caller cell as the table says', async () => {
    const got: Record<string, Record<Caller, number>> = {};
    const want: Record<string, Record<Caller, number>> = {};
    for (const row of rows) {
      got[row.route] = {} as Record<Caller, number>;
      want[row.route] = row.expect;
      for (const caller of CALLERS)
        got[row.route][caller] = (await row.send(caller, await newLinkedWorkflow())).status;
    }
    expect(got).toEqual(want);
  }, 600_000);

  it('a "can view" link grants no editing, whoever takes it up', async () => {
    const w = await newLinkedWorkflow();
    const view = await makeLink(w.id, 'viewer');
    const res = await browsers.outsider.send(acceptShare, 'POST', '', {}, { token: view.token });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('forbidden:share_role');
    const save = await browsers.outsider.send(
      saveWorkflow,
      'PUT',
      '',
      { version: w.version, document },
      { id: w.id },
    );
    expect(save.status).toBe(403);
  });

  it('saves through a link with the same version checks, and refuses the next save once revoked', async () => {
    const w = await newLinkedWorkflow();
    const save = (browser: Browser, version: number) =>
      browser.send(saveWorkflow, 'PUT', '', { version, name: 'Together', document }, { id: w.id });
    const mine = await save(browsers.link, w.version);
    expect(mine.status).toBe(200);
    const saved = (await mine.json()).workflow;
    expect(saved.version).toBe(w.version + 1);
    // The owner saved on the version the link's holder already replaced: 409 with the server's copy.
    const stale = await save(browsers.owner, w.version);
    expect(stale.status).toBe(409);
    expect((await stale.json()).current.version).toBe(saved.version);
    // And the other way round.
    expect((await save(browsers.owner, saved.version)).status).toBe(200);
    const conflict = await save(browsers.link, saved.version);
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).code).toBe('conflict:version');
    // The workflow stays in its workspace: nothing moved into the link holder's.
    const listed = await browsers.link.send(listWorkflows, 'GET', '/api/workflows');
    expect(((await listed.json()).workflows as { id: string }[]).map((x) => x.id)).not.toContain(w.id);
    // Revoked: the very next save is refused, saying why.
    await browsers.owner.send(revokeShare, 'DELETE', '', undefined, { id: w.id, shareId: w.live.shareId });
    const refused = await save(browsers.link, saved.version + 1);
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.code).toBe('forbidden:link_revoked');
    expect(body.message).toMatch(/edit link you opened it with was revoked or has expired/);
  });
});
