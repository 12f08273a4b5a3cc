/**
 * The access table (docs/design.md §13.3), cell by cell: every route that reaches a workspace's
 * workflow, run, toolkit, share link or members, called by each kind of caller, on PGlite and on
 * a real Postgres. The resources belong to a shared workspace whose owner, editor and viewer are
 * real Better Auth accounts; the others are a member of another workspace, a guest browser with
 * its own cookie, and a client with no cookie at all. Each cell is the status that caller gets.
 * API tokens (docs/design.md §13.5) answer every row too: a token of the editor or the viewer in
 * the shared workspace as that member, a token of the outsider's own workspace as the outsider,
 * and a revoked token 401.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createBrowser, signUp, type Browser } from './browser';
import { GET as listWorkflows, POST as createWorkflow } from '@/app/api/workflows/route';
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
import { POST as forkShared } from '@/app/api/shares/[token]/fork/route';
import { GET as readRun } from '@/app/api/runs/[runId]/route';
import { GET as exportRun } from '@/app/api/runs/[runId]/export/route';
import { POST as cancelRun } from '@/app/api/runs/[runId]/cancel/route';
import { POST as addToolkit } from '@/app/api/toolkits/route';
import { DELETE as deleteToolkit, GET as readToolkit } from '@/app/api/toolkits/[id]/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { PUT as switchWorkspace } from '@/app/api/workspaces/current/route';
import { GET as listMembers, POST as inviteMember } from '@/app/api/workspaces/[id]/members/route';
import { GET as listTokens, POST as createToken } from '@/app/api/account/tokens/route';
import { DELETE as revokeToken } from '@/app/api/account/tokens/[id]/route';

const backends = await getTestBackends();

const CALLERS = ['owner', 'editor', 'viewer', 'outsider', 'guest', 'noCookie'] as const;
type Caller = (typeof CALLERS)[number];
const TOKEN_CALLERS = ['editorToken', 'viewerToken', 'outsiderToken', 'revokedToken'] as const;
type TokenCaller = (typeof TOKEN_CALLERS)[number];

const document = {
  task: 'one step',
  nodes: [{ id: 'a', tool: 'echo', position: { x: 0, y: 0 }, args: {} }],
  edges: [],
  tools: {},
};

describe.each(backends)('the access table on $name', (backend) => {
  let database: TestDatabase;
  const browsers = {} as Record<Exclude<Caller, 'noCookie'>, Browser>;
  let team: string;
  const tokens = {} as Record<TokenCaller, string>;

  /** A token made by `caller` for `workspaceId` through the API. */
  async function makeToken(caller: Exclude<Caller, 'noCookie'>, workspaceId: string) {
    const res = await browsers[caller].send(createToken, 'POST', '', { name: 'CLI', workspaceId });
    expect(res.status).toBe(201);
    return (await res.json()) as { token: { id: string }; secret: string };
  }

  /** A new workflow of the shared workspace, made by its owner. */
  async function newWorkflow(name = 'Shared'): Promise<{ id: string; version: number }> {
    const res = await browsers.owner.send(createWorkflow, 'POST', '/api/workflows', { name, document });
    expect(res.status).toBe(201);
    return (await res.json()).workflow;
  }

  beforeAll(async () => {
    database = await useTestDatabase(backend);
    for (const caller of ['owner', 'editor', 'viewer', 'outsider'] as const) {
      browsers[caller] = createBrowser();
      await signUp(browsers[caller], `${caller}@example.com`);
    }
    browsers.guest = createBrowser();
    await browsers.guest.send(listWorkflows, 'GET', '/api/workflows');
    const made = await browsers.owner.send(createWorkspace, 'POST', '/api/workspaces', { name: 'Lab' });
    expect(made.status).toBe(201);
    team = (await made.json()).workspace.id;
    for (const [caller, role] of [
      ['editor', 'editor'],
      ['viewer', 'viewer'],
    ] as const) {
      const invited = await browsers.owner.send(
        inviteMember,
        'POST',
        '',
        { email: `${caller}@example.com`, role },
        { id: team },
      );
      expect(invited.status).toBe(201);
    }
    for (const caller of ['owner', 'editor', 'viewer'] as const) {
      expect((await browsers[caller].send(switchWorkspace, 'PUT', '', { id: team })).status).toBe(200);
    }
    // The outsider cannot switch into a workspace it is not a member of.
    expect((await browsers.outsider.send(switchWorkspace, 'PUT', '', { id: team })).status).toBe(404);
    tokens.editorToken = (await makeToken('editor', team)).secret;
    tokens.viewerToken = (await makeToken('viewer', team)).secret;
    tokens.outsiderToken = (await makeToken('outsider', `own_personal_${await userIdOf('outsider')}`)).secret;
    const revoked = await makeToken('owner', team);
    const gone = await browsers.owner.send(revokeToken, 'DELETE', '', undefined, { id: revoked.token.id });
    expect(gone.status).toBe(204);
    tokens.revokedToken = revoked.secret;
  }, 240_000);
  afterAll(async () => {
    await database?.close();
  });
  // Each test makes its own workflows; the creation budgets (lib/http/rate-limit.ts) are not what
  // this table is about, so each begins with them full.
  beforeEach(async () => {
    await database.db.$executeRaw`DELETE FROM rate_limits`;
  });

  async function userIdOf(caller: 'outsider'): Promise<string> {
    const user = await database.db.user.findUniqueOrThrow({ where: { email: `${caller}@example.com` } });
    return user.id;
  }

  /**
   * Calls a route as `caller`; the no-cookie caller is a fresh browser every time, and so is a
   * token caller, which sends its token and no cookie.
   */
  function call(caller: Caller | TokenCaller, ...args: Parameters<Browser['send']>): Promise<Response> {
    const browser =
      caller === 'noCookie'
        ? createBrowser()
        : caller in tokens
          ? createBrowser(tokens[caller as TokenCaller])
          : browsers[caller as Exclude<Caller, 'noCookie'>];
    return browser.send(...args);
  }

  /** Each row: what it calls, made fresh for every caller so that writes do not affect the next cell. */
  interface Row {
    route: string;
    expect: Record<Caller, number>;
    send(caller: Caller | TokenCaller): Promise<Response>;
  }
  const read = { owner: 200, editor: 200, viewer: 200, outsider: 403, guest: 403, noCookie: 403 };
  const write = (ok: number) => ({
    owner: ok,
    editor: ok,
    viewer: 403,
    outsider: 403,
    guest: 403,
    noCookie: 403,
  });
  const ownerOnly = (ok: number) => ({
    owner: ok,
    editor: 403,
    viewer: 403,
    outsider: 403,
    guest: 403,
    noCookie: 403,
  });

  const rows: Row[] = [
    {
      route: 'GET /api/workflows/[id]',
      expect: read,
      send: async (c) => {
        const w = await newWorkflow();
        return call(c, readWorkflow, 'GET', '', undefined, { id: w.id });
      },
    },
    {
      route: 'PUT /api/workflows/[id]',
      expect: write(200),
      send: async (c) => {
        const w = await newWorkflow();
        return call(
          c,
          saveWorkflow,
          'PUT',
          '',
          { version: w.version, name: 'Saved', document },
          { id: w.id },
        );
      },
    },
    {
      route: 'PATCH /api/workflows/[id]',
      expect: write(200),
      send: async (c) => {
        const w = await newWorkflow();
        return call(c, renameWorkflow, 'PATCH', '', { version: w.version, name: 'Renamed' }, { id: w.id });
      },
    },
    {
      route: 'DELETE /api/workflows/[id]',
      expect: ownerOnly(204),
      send: async (c) => {
        const w = await newWorkflow();
        return call(c, deleteWorkflow, 'DELETE', '', undefined, { id: w.id });
      },
    },
    {
      route: 'GET /api/workflows/[id]/export',
      expect: read,
      send: async (c) => call(c, exportWorkflow, 'GET', '', undefined, { id: (await newWorkflow()).id }),
    },
    {
      route: 'POST /api/workflows/[id]/duplicate',
      expect: write(201),
      send: async (c) => call(c, duplicateWorkflow, 'POST', '', {}, { id: (await newWorkflow()).id }),
    },
    {
      route: 'GET /api/workflows/[id]/revisions',
      expect: read,
      send: async (c) => call(c, listRevisions, 'GET', '', undefined, { id: (await newWorkflow()).id }),
    },
    {
      route: 'GET /api/workflows/[id]/revisions/[version]',
      expect: read,
      send: async (c) =>
        call(c, readRevision, 'GET', '', undefined, { id: (await newWorkflow()).id, version: '1' }),
    },
    {
      route: 'PATCH /api/workflows/[id]/revisions/[version]',
      expect: write(200),
      send: async (c) =>
        call(
          c,
          labelRevision,
          'PATCH',
          '',
          { label: 'kept' },
          { id: (await newWorkflow()).id, version: '1' },
        ),
    },
    {
      route: 'POST /api/workflows/[id]/revisions/[version]/restore',
      expect: write(200),
      send: async (c) => {
        const w = await newWorkflow();
        return call(c, restoreRevision, 'POST', '', { version: w.version }, { id: w.id, version: '1' });
      },
    },
    {
      route: 'GET /api/workflows/[id]/runs',
      expect: read,
      send: async (c) => call(c, listRuns, 'GET', '', undefined, { id: (await newWorkflow()).id }),
    },
    {
      route: 'GET /api/workflows/[id]/shares',
      expect: write(200),
      send: async (c) => call(c, listShares, 'GET', '', undefined, { id: (await newWorkflow()).id }),
    },
    {
      route: 'POST /api/workflows/[id]/shares',
      expect: write(201),
      send: async (c) => call(c, createShare, 'POST', '', {}, { id: (await newWorkflow()).id }),
    },
    {
      route: 'DELETE /api/workflows/[id]/shares/[shareId]',
      expect: write(204),
      send: async (c) => {
        const w = await newWorkflow();
        const made = await browsers.owner.send(createShare, 'POST', '', {}, { id: w.id });
        const { share } = await made.json();
        return call(c, revokeShare, 'DELETE', '', undefined, { id: w.id, shareId: share.id });
      },
    },
    {
      route: 'GET /api/runs/[runId]',
      expect: read,
      send: async (c) => call(c, readRun, 'GET', '', undefined, { runId: await newRun() }),
    },
    {
      route: 'GET /api/runs/[runId]/export',
      expect: read,
      send: async (c) => call(c, exportRun, 'GET', '', undefined, { runId: await newRun() }),
    },
    {
      route: 'POST /api/runs/[runId]/cancel',
      expect: write(200),
      send: async (c) => call(c, cancelRun, 'POST', '', {}, { runId: await newRun() }),
    },
    {
      route: 'GET /api/toolkits/[id]',
      expect: read,
      send: async (c) => call(c, readToolkit, 'GET', '', undefined, { id: await newToolkit() }),
    },
    {
      route: 'DELETE /api/toolkits/[id]',
      expect: write(204),
      send: async (c) => call(c, deleteToolkit, 'DELETE', '', undefined, { id: await newToolkit() }),
    },
    {
      route: 'GET /api/workspaces/[id]/members',
      expect: { owner: 200, editor: 200, viewer: 200, outsider: 404, guest: 401, noCookie: 401 },
      send: (c) => call(c, listMembers, 'GET', '', undefined, { id: team }),
    },
    {
      route: 'POST /api/workspaces/[id]/members',
      expect: { owner: 201, editor: 403, viewer: 403, outsider: 404, guest: 401, noCookie: 401 },
      send: (c) =>
        call(c, inviteMember, 'POST', '', { email: `new-${c}@example.com`, role: 'viewer' }, { id: team }),
    },
    {
      route: 'POST /api/workflows (in the caller’s own workspace)',
      expect: { owner: 201, editor: 201, viewer: 403, outsider: 201, guest: 201, noCookie: 201 },
      send: (c) => call(c, createWorkflow, 'POST', '/api/workflows', { name: 'Own', document }),
    },
    {
      route: 'POST /api/toolkits (in the caller’s own workspace)',
      expect: { owner: 201, editor: 201, viewer: 403, outsider: 201, guest: 201, noCookie: 201 },
      send: (c) => call(c, addToolkit, 'POST', '/api/toolkits', toolkitBody),
    },
  ];

  const toolkitBody = {
    name: 'Lookup',
    declarations: [
      {
        type: 'function',
        function: { name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} } },
      },
    ],
  };

  async function newToolkit(): Promise<string> {
    const res = await browsers.owner.send(addToolkit, 'POST', '/api/toolkits', toolkitBody);
    expect(res.status).toBe(201);
    return (await res.json()).toolkit.id;
  }

  /** A finished run of a new workflow of the shared workspace. */
  async function newRun(): Promise<string> {
    const w = await newWorkflow();
    const id = `run_table_${Math.random().toString(36).slice(2)}`;
    await database.db.run.create({
      data: {
        id,
        workflowId: w.id,
        ownerId: team,
        version: 1,
        exportText: '{}\n',
        exportHash: 'sha256:0',
        status: 'succeeded',
        limits: {},
        nodeCount: 0,
      },
    });
    return id;
  }

  it('answers every route × caller cell as the table says', async () => {
    const got: Record<string, Record<Caller, number>> = {};
    const want: Record<string, Record<Caller, number>> = {};
    for (const row of rows) {
      got[row.route] = {} as Record<Caller, number>;
      want[row.route] = row.expect;
      for (const caller of CALLERS) got[row.route][caller] = (await row.send(caller)).status;
    }
    expect(got).toEqual(want);
  }, 240_000);

  it('answers every route for an API token as for its user in its workspace; a revoked token 401', async () => {
    const got: Record<string, Record<TokenCaller, number>> = {};
    const want: Record<string, Record<TokenCaller, number>> = {};
    for (const row of rows) {
      got[row.route] = {} as Record<TokenCaller, number>;
      want[row.route] = {
        editorToken: row.expect.editor,
        viewerToken: row.expect.viewer,
        outsiderToken: row.expect.outsider,
        revokedToken: 401,
      };
      for (const caller of TOKEN_CALLERS) got[row.route][caller] = (await row.send(caller)).status;
    }
    expect(got).toEqual(want);
  }, 240_000);

  it('refuses a token on the next request once revoked, and never lets a token manage tokens', async () => {
    const { token, secret } = await makeToken('editor', team);
    const asToken = createBrowser(secret);
    expect((await asToken.send(listWorkflows, 'GET', '/api/workflows')).status).toBe(200);
    expect((await asToken.send(listTokens, 'GET', '')).status).toBe(403);
    expect((await asToken.send(createToken, 'POST', '', { name: 'More', workspaceId: team })).status).toBe(
      403,
    );
    expect((await asToken.send(revokeToken, 'DELETE', '', undefined, { id: token.id })).status).toBe(403);
    // Another account cannot revoke it; its own account can.
    expect((await browsers.owner.send(revokeToken, 'DELETE', '', undefined, { id: token.id })).status).toBe(
      404,
    );
    expect((await browsers.editor.send(revokeToken, 'DELETE', '', undefined, { id: token.id })).status).toBe(
      204,
    );
    expect((await asToken.send(listWorkflows, 'GET', '/api/workflows')).status).toBe(401);
    // A token for a workspace its maker does not belong to is never made.
    const other = `own_personal_${await userIdOf('outsider')}`;
    expect(
      (await browsers.editor.send(createToken, 'POST', '', { name: 'X', workspaceId: other })).status,
    ).toBe(404);
    // Junk and guessed secrets are 401, like a revoked one.
    for (const junk of ['x', 'tft_', `tft_${'A'.repeat(43)}`, "' OR 1=1 --"]) {
      expect((await createBrowser(junk).send(listWorkflows, 'GET', '/api/workflows')).status).toBe(401);
    }
  });

  it('lists a workspace’s workflows to its members only, and each caller’s list is its own', async () => {
    const w = await newWorkflow('Listed');
    const names = async (c: Caller) =>
      (
        (await (await call(c, listWorkflows, 'GET', '/api/workflows')).json()).workflows as { id: string }[]
      ).map((x) => x.id);
    for (const c of ['owner', 'editor', 'viewer'] as const) expect(await names(c)).toContain(w.id);
    for (const c of ['outsider', 'guest', 'noCookie'] as const) expect(await names(c)).not.toContain(w.id);
  });

  it('refuses a revoked share link on the next request, to reading and forking alike', async () => {
    const w = await newWorkflow();
    const made = await browsers.owner.send(createShare, 'POST', '', {}, { id: w.id });
    const { share, token } = await made.json();
    for (const c of CALLERS) {
      expect((await call(c, readShared, 'GET', '', undefined, { token })).status).toBe(200);
    }
    expect(
      (await browsers.owner.send(revokeShare, 'DELETE', '', undefined, { id: w.id, shareId: share.id }))
        .status,
    ).toBe(204);
    for (const c of CALLERS) {
      expect((await call(c, readShared, 'GET', '', undefined, { token })).status).toBe(404);
      // A viewer may not fork into its workspace at all, a live link or not.
      expect((await call(c, forkShared, 'POST', '', {}, { token })).status).toBe(c === 'viewer' ? 403 : 404);
    }
  });

  it('never reads a workflow, run or toolkit by a guessed id: unknown ids are 404 for everyone', async () => {
    for (const c of CALLERS) {
      for (const id of ['wf_AAAAAAAAAAAAAAAAAAAAAA', 'wf_', "wf_' OR 1=1 --", 'own_personal_x']) {
        expect((await call(c, readWorkflow, 'GET', '', undefined, { id })).status).toBe(404);
      }
      expect(
        (await call(c, readRun, 'GET', '', undefined, { runId: 'run_AAAAAAAAAAAAAAAAAAAAAA' })).status,
      ).toBe(404);
      expect(
        (await call(c, readToolkit, 'GET', '', undefined, { id: 'tk_AAAAAAAAAAAAAAAAAAAAAA' })).status,
      ).toBe(404);
    }
  });
});
