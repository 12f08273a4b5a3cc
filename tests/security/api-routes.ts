/**
 * Every state-changing route handler under app/api, found by walking the folder (so a new route
 * is covered by the security tables without anyone adding it), plus what a valid call to each
 * needs: path parameters for records the caller owns, and a body that passes validation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getPrisma, type Db } from '@/lib/db/client';
import { createRun } from '@/lib/db/runs';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { exportWorkflow } from '@/lib/workflow/export';
import type { WorkflowDocument } from '@/lib/workflow/types';
import type { OwnerClient } from '@/tests/owner-client';

export const ORIGIN = 'http://127.0.0.1:3000';
export const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type StateChangingMethod = (typeof STATE_CHANGING)[number];
export const METHODS = ['GET', ...STATE_CHANGING] as const;
export type Method = (typeof METHODS)[number];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RouteHandler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;

export interface ApiRoute {
  /** `/api/workflows/[id]/shares`, as the folder names it. */
  path: string;
  /** `app/api/workflows/[id]/shares/route.ts`. */
  file: string;
  source: string;
  method: StateChangingMethod;
  handler: RouteHandler;
}

/** A route of any method (reads included). */
export type AnyApiRoute = Omit<ApiRoute, 'method'> & { method: Method };

const root = path.resolve(import.meta.dirname, '../..');

function findRouteFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findRouteFiles(full);
    return /^route\.(ts|tsx|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every exported POST/PUT/PATCH/DELETE handler under app/api, sorted by path then method. */
export async function getStateChangingRoutes(): Promise<ApiRoute[]> {
  return (await getApiRoutes()).filter((r): r is ApiRoute => r.method !== 'GET');
}

/** Every exported GET/POST/PUT/PATCH/DELETE handler under app/api, sorted by path then method. */
export async function getApiRoutes(): Promise<AnyApiRoute[]> {
  const routes: AnyApiRoute[] = [];
  for (const full of findRouteFiles(path.join(root, 'app/api')).sort()) {
    const file = path.relative(root, full);
    const mod = (await import(/* @vite-ignore */ full)) as Record<string, unknown>;
    const routePath = '/' + path.dirname(file).replace(/^app\//, '');
    for (const method of METHODS) {
      if (typeof mod[method] === 'function') {
        routes.push({
          path: routePath,
          file,
          source: fs.readFileSync(full, 'utf8'),
          method,
          handler: mod[method] as RouteHandler,
        });
      }
    }
  }
  return routes;
}

/** True when the route reads its body (through lib/http/body, the only sanctioned way). */
export function readsBody(route: ApiRoute): boolean {
  return /\b(parseJsonBody|readJson|readBodyText)\(/.test(route.source);
}

export const sampleDocument = {
  task: 'fetch and analyse',
  nodes: [
    { id: 'step_1', tool: 'fetch_file', position: { x: 0, y: 0 }, args: { url: 'https://example.org/a' } },
    { id: 'step_2', tool: 'analyse', position: { x: 300, y: 0 }, args: { mode: 'fast' } },
  ],
  edges: [{ id: 'e1', source: 'step_1', sourceOutput: 'result', target: 'step_2', targetInput: 'path' }],
  tools: {},
};

export const sampleToolsText = JSON.stringify({
  tools: [
    {
      name: 'fetch_file',
      description: 'Download a file',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    },
  ],
});

/** Records a caller owns, made through the API, for the path parameters of every route. */
export interface OwnedRecords {
  workflowId: string;
  toolkitId: string;
  shareId: string;
  token: string;
  /** A queued test-run of the workflow (stored directly: the sample's tools have no server). */
  runId: string;
}

export async function createOwnedRecords(
  client: OwnerClient,
  handlers: {
    listWorkflows: RouteHandler;
    createWorkflow: RouteHandler;
    createShare: RouteHandler;
    createToolkit: RouteHandler;
  },
): Promise<OwnedRecords> {
  const json = async (res: Promise<Response>, status: number) => {
    const r = await res;
    const body = await r.json();
    if (r.status !== status) throw new Error(`set-up failed: ${r.status} ${JSON.stringify(body)}`);
    return body;
  };
  // Get an owner cookie first, so the creations below count against this owner, not against the
  // one address every test client shares.
  if (!client.cookie) await client.send(handlers.listWorkflows, 'GET', '/api/workflows');
  const { workflow } = await json(
    client.send(handlers.createWorkflow, 'POST', '/api/workflows', {
      name: 'Owned',
      document: sampleDocument,
    }),
    201,
  );
  const { token, share } = await json(
    client.send(handlers.createShare, 'POST', '', {}, { id: workflow.id }),
    201,
  );
  const { toolkit } = await json(
    client.send(handlers.createToolkit, 'POST', '/api/toolkits', { name: 'Mine', text: sampleToolsText }),
    201,
  );
  const run = await createRun(await getPrisma(), {
    workflowId: workflow.id,
    ownerId: workflow.ownerId,
    version: 1,
    exportText: '{}\n',
    exportHash: 'sha256:0',
    limits: DEFAULT_RUN_LIMITS,
    plan: {
      nodes: [
        {
          nodeId: 'step_1',
          stepIndex: 1,
          toolName: 'fetch_file',
          server: null,
          readOnly: false,
          sources: [],
        },
      ],
      servers: [],
      order: ['step_1'],
    },
  });
  return { workflowId: workflow.id, toolkitId: toolkit.id, shareId: share.id, token, runId: run.id };
}

/** The path parameters a route needs, pointing at `records`. */
export function getParams(
  route: Pick<ApiRoute, 'path' | 'file'>,
  records: OwnedRecords,
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [, name] of route.path.matchAll(/\[(\w+)\]/g)) {
    if (name === 'id')
      params.id = route.path.startsWith('/api/toolkits') ? records.toolkitId : records.workflowId;
    else if (name === 'version') params.version = '1';
    else if (name === 'shareId') params.shareId = records.shareId;
    else if (name === 'token') params.token = records.token;
    else if (name === 'runId') params.runId = records.runId;
    else if (name === 'nodeId') params.nodeId = 'step_1';
    // The members routes answer a guest 401 before they look at these.
    else if (name === 'userId') params.userId = 'user_unknown';
    else
      throw new Error(
        `${route.file}: add a value for the path parameter [${name}] to tests/security/api-routes.ts`,
      );
  }
  return params;
}

/** The URL a route answers at with `params` filled in. */
export function getUrl(route: Pick<ApiRoute, 'path'>, params: Record<string, string>): string {
  return ORIGIN + route.path.replace(/\[(\w+)\]/g, (_, name: string) => encodeURIComponent(params[name]));
}

/**
 * A body each state-changing route accepts. A route missing here is still checked with `{}` (a
 * route that refuses cross-site requests first answers 403 whatever the body); adding it makes
 * the same-origin case prove the route works, not just that it was not refused as cross-site.
 */
export const VALID_BODIES: Record<string, () => unknown> = {
  'POST /api/workflows': () => ({ name: 'New one' }),
  'PUT /api/workflows/[id]': () => ({ version: 1, document: { ...sampleDocument, task: 'changed' } }),
  'PATCH /api/workflows/[id]': () => ({ version: 1, name: 'Renamed' }),
  'DELETE /api/workflows/[id]': () => undefined,
  'POST /api/workflows/[id]/duplicate': () => undefined,
  'PATCH /api/workflows/[id]/revisions/[version]': () => ({ label: 'named' }),
  'POST /api/workflows/[id]/revisions/[version]/restore': () => ({ version: 1 }),
  'POST /api/workflows/[id]/shares': () => ({}),
  'DELETE /api/workflows/[id]/shares/[shareId]': () => undefined,
  'POST /api/workflows/import': () =>
    exportWorkflow(sampleDocument as unknown as WorkflowDocument, { id: 'wf_x', name: 'Imported' }),
  'POST /api/shares/[token]/fork': () => undefined,
  'POST /api/toolkits': () => ({ name: 'Another', text: sampleToolsText }),
  'DELETE /api/toolkits/[id]': () => undefined,
  'POST /api/toolkits/[id]/refresh': () => ({ text: sampleToolsText }),
  'POST /api/runs/[runId]/cancel': () => undefined,
  'POST /api/plan': () => ({
    task: 'fetch https://example.org/a',
    tools: JSON.parse(sampleToolsText),
    llm: 'offline',
  }),
};

export function getValidBody(route: ApiRoute): { known: boolean; body: unknown } {
  const make = VALID_BODIES[`${route.method} ${route.path}`];
  return make ? { known: true, body: make() } : { known: false, body: {} };
}

/** Every row the app stores, so a test can show a refused request wrote nothing. */
export async function snapshotDatabase(db: Db): Promise<string> {
  const [owners, workflows, revisions, shares, toolkits, runs, nodeRuns] = await Promise.all([
    db.owner.findMany({ orderBy: { id: 'asc' } }),
    db.workflow.findMany({ orderBy: { id: 'asc' } }),
    db.workflowRevision.findMany({ orderBy: { id: 'asc' } }),
    db.share.findMany({ orderBy: { id: 'asc' } }),
    db.toolkit.findMany({ orderBy: { id: 'asc' } }),
    db.run.findMany({ orderBy: { id: 'asc' } }),
    db.nodeRun.findMany({ orderBy: { id: 'asc' } }),
  ]);
  return JSON.stringify({ owners, workflows, revisions, shares, toolkits, runs, nodeRuns });
}

/** Builds a request with exactly these headers (no default Origin, unlike tests/db.ts). */
export function rawRequest(
  url: string,
  method: string,
  body: BodyInit | undefined,
  headers: Record<string, string>,
): Request {
  return new Request(url, {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}
