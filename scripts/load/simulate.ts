/**
 * The simulated owners. Each owner is one browser (its own cookie jar: a guest's or a signed-in
 * account's) or one API token's script (callers.ts), with one editor tab, and
 * some owners keep the same workflow open in two tabs that autosave independently, so their
 * saves race: the loser gets the intended 409, re-reads the workflow and saves its edit again on
 * top (what the editor's "keep mine" does). Every acknowledged write is recorded for verification.
 */
import { randomBytes } from 'node:crypto';
import type { WorkflowDocument } from '../../lib/workflow/types';
import { getCallerHeaders, setUpCaller, updateCookieJar, type Callers, type Credentials } from './callers';
import { buildDocument, editDocument, pickNodeCount } from './documents';
import { createHttpClient } from './http';
import { createRandom, type Random } from './random';
import { isError, type Operation, type Recorder } from './stats';
import { hashDocumentText, type Ack } from './verify';

export interface SimulationOptions {
  baseUrl: string;
  owners: number;
  workflowsPerOwner: number;
  /** Fraction of owners that edit one workflow in two tabs at once. */
  twoTabShare: number;
  /** Requests in flight at most (over all tabs). */
  concurrency: number;
  seconds: number;
  maxRequests: number;
  /** Pause after each request of a tab, in ms (0: as fast as the server answers). */
  thinkMs: number;
  timeoutMs: number;
  seed: number;
  /** Who the owners are: guests, signed-up accounts or their API tokens (callers.ts). */
  callers: Callers;
}

/** Share of each operation in a tab's next step. */
export const MIX: Readonly<Record<Exclude<Operation, 'revision'> | 'revision', number>> = {
  save: 45,
  read: 18,
  list: 10,
  revisions: 10,
  export: 8,
  revision: 6,
  create: 3,
};

/** Creates allowed per owner per minute by the server (app/api/workflows/route.ts); we stay under. */
const CREATE_BUDGET_PER_MINUTE = 100;
/** Attempts to land an edit after a 409 (each: re-read, re-apply, save). */
const CONFLICT_ATTEMPTS = 8;

export interface SimulationResult {
  acks: Ack[];
  workflowIds: string[];
  /** Send time of the first measured request and receive time of the last (performance.now()). */
  startedAt: number;
  endedAt: number;
  setup: { requests: number; errors: number; ms: number; workflows: number; nodes: number; bytes: number };
  tabs: number;
  sharedOwners: number;
  conflictsResolved: number;
  /** Edits abandoned after CONFLICT_ATTEMPTS 409s in a row (not an error; reported). */
  conflictsAbandoned: number;
  /** 409s whose `current.version` was not newer than the version sent (would be a bug). */
  bogusConflicts: number;
  /** Reads that returned an older version than one already acknowledged before they were sent. */
  staleReads: number;
  /** Revision retention the server reported (`retention` of the revisions list). */
  retention: number | undefined;
  /** The first few unexpected responses, for the report. */
  samples: string[];
  stoppedBy: 'time' | 'requests';
}

interface Owner {
  index: number;
  credentials: Credentials;
  workflows: string[];
  createdAt: number[];
}

interface Tab {
  owner: Owner;
  random: Random;
  /** The workflow this tab prefers (the shared one for two-tab owners), if any. */
  focus?: string;
  /** The owner's second tab (it does not create workflows). */
  second?: boolean;
  current?: { id: string; version: number; doc: WorkflowDocument };
}

type Reply = { status: number; outcome: string; json?: unknown; text?: string };

class Semaphore {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

/** What one simulation shares between its tabs: the gate, the client and what was acknowledged. */
interface SimState {
  opts: SimulationOptions;
  recorder: Recorder;
  gate: Semaphore;
  client: ReturnType<typeof createHttpClient>;
  acks: Ack[];
  highestAck: Map<string, number>;
  workflowIds: string[];
  requests: number;
  deadline: number;
  stoppedBy: SimulationResult['stoppedBy'];
  result: {
    conflictsResolved: number;
    conflictsAbandoned: number;
    bogusConflicts: number;
    staleReads: number;
    retention: number | undefined;
    samples: string[];
  };
}

function isStopping(s: SimState): boolean {
  if (s.recorder.measuring && s.requests >= s.opts.maxRequests) {
    s.stoppedBy = 'requests';
    return true;
  }
  return performance.now() >= s.deadline;
}

function acknowledge(s: SimState, workflowId: string, version: number, hash: string) {
  s.acks.push({ workflowId, version, hash });
  if (version > (s.highestAck.get(workflowId) ?? 0)) s.highestAck.set(workflowId, version);
}

async function request(
  s: SimState,
  owner: Owner,
  operation: Operation,
  method: string,
  path: string,
  body?: string,
): Promise<Reply> {
  await s.gate.acquire();
  s.requests += 1;
  const sentAt = performance.now();
  let reply: Reply;
  try {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...getCallerHeaders(owner.credentials),
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      // What a browser sends on a same-origin fetch (lib/http/csrf.ts); a token's script sends none.
      if (!owner.credentials.bearer) headers.origin = s.opts.baseUrl;
    }
    const res = await s.client.send(method, path, headers, body, s.opts.timeoutMs);
    const { text } = res;
    // A token's script keeps no cookies; a browser's jar keeps what it is sent.
    if (!owner.credentials.bearer)
      owner.credentials.cookie = updateCookieJar(owner.credentials.cookie, res.headers['set-cookie']);
    let json: unknown;
    if ((res.headers['content-type'] ?? '').includes('json') && operation !== 'export') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    // The version a tab holds may have been folded into a later autosave entry by another
    // tab's save: a 404 that says so is by design, like a save's 409.
    const folded =
      operation === 'revision' &&
      res.status === 404 &&
      typeof (json as { foldedInto?: unknown })?.foldedInto === 'number';
    reply = { status: res.status, outcome: folded ? 'folded' : String(res.status), json, text };
  } catch (error) {
    const name = (error as Error).name;
    reply = {
      status: 0,
      outcome: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network',
    };
    if (s.result.samples.length < 10) s.result.samples.push(`${method} ${path}: ${(error as Error).message}`);
  } finally {
    s.gate.release();
  }
  const ms = performance.now() - sentAt;
  s.recorder.record(operation, reply.outcome, ms, sentAt);
  if (reply.status !== 0 && isError(operation, reply.outcome) && s.result.samples.length < 10)
    s.result.samples.push(`${method} ${path} → ${reply.status}: ${(reply.text ?? '').slice(0, 300)}`);
  return reply;
}

async function create(
  s: SimState,
  owner: Owner,
  random: Random,
): Promise<{ id: string; nodes: number; bytes: number } | undefined> {
  const now = performance.now();
  owner.createdAt = owner.createdAt.filter((t) => now - t < 60_000);
  if (owner.createdAt.length >= CREATE_BUDGET_PER_MINUTE) return undefined;
  owner.createdAt.push(now);
  const doc = buildDocument(random, pickNodeCount(random));
  const text = JSON.stringify(doc);
  const name = `${doc.task.slice(0, 40)} #${owner.index}.${owner.workflows.length + 1}`;
  const reply = await request(
    s,
    owner,
    'create',
    'POST',
    '/api/workflows',
    `{"name":${JSON.stringify(name)},"document":${text}}`,
  );
  if (reply.status !== 201) return undefined;
  const workflow = (reply.json as { workflow: { id: string; version: number } }).workflow;
  acknowledge(s, workflow.id, workflow.version, hashDocumentText(text));
  owner.workflows.push(workflow.id);
  s.workflowIds.push(workflow.id);
  return { id: workflow.id, nodes: doc.nodes.length, bytes: text.length };
}

/** GET the workflow into the tab (what opening it in the editor does). */
async function open(s: SimState, tab: Tab, id: string): Promise<boolean> {
  const acknowledgedBefore = s.highestAck.get(id) ?? 0;
  const reply = await request(s, tab.owner, 'read', 'GET', `/api/workflows/${id}`);
  if (reply.status !== 200) return false;
  const workflow = (reply.json as { workflow: { id: string; version: number; document: WorkflowDocument } })
    .workflow;
  if (workflow.version < acknowledgedBefore) {
    s.result.staleReads += 1;
    if (s.result.samples.length < 10)
      s.result.samples.push(
        `stale read of ${id}: version ${workflow.version} after ${acknowledgedBefore} was acknowledged`,
      );
  }
  tab.current = { id, version: workflow.version, doc: workflow.document };
  return true;
}

function pickWorkflow(tab: Tab): string {
  if (tab.focus && tab.random.chance(0.85)) return tab.focus;
  return tab.random.pick(tab.owner.workflows);
}

/** One autosave: an edit on what the tab last saw, PUT with that version; a 409 is resolved. */
async function save(s: SimState, tab: Tab): Promise<void> {
  if (!tab.current && !(await open(s, tab, pickWorkflow(tab)))) return;
  for (let attempt = 0; attempt < CONFLICT_ATTEMPTS; attempt++) {
    if (attempt > 0 && isStopping(s)) return; // the run is over: leave the edit unsaved
    const current = tab.current!;
    const { doc } = editDocument(tab.random, current.doc);
    const text = JSON.stringify(doc);
    const reply = await request(
      s,
      tab.owner,
      'save',
      'PUT',
      `/api/workflows/${current.id}`,
      `{"version":${current.version},"document":${text}}`,
    );
    if (reply.status === 200) {
      const version = (reply.json as { workflow: { version: number } }).workflow.version;
      acknowledge(s, current.id, version, hashDocumentText(text));
      tab.current = { id: current.id, version, doc };
      if (attempt > 0) s.result.conflictsResolved += 1;
      return;
    }
    if (reply.status !== 409) return;
    const theirs = (reply.json as { current?: { version?: number } } | undefined)?.current?.version;
    if (typeof theirs !== 'number' || theirs <= current.version) {
      s.result.bogusConflicts += 1;
      if (s.result.samples.length < 10)
        s.result.samples.push(
          `409 on ${current.id} at version ${current.version} names current version ${theirs}`,
        );
    }
    // Resolve as the editor's "keep mine" does: take the server's copy, apply the edit on top.
    if (isStopping(s) || !(await open(s, tab, current.id))) return;
  }
  s.result.conflictsAbandoned += 1;
}

async function step(s: SimState, tab: Tab): Promise<void> {
  const operation = tab.random.weighted(MIX);
  const owner = tab.owner;
  switch (operation) {
    case 'save':
      return save(s, tab);
    case 'read': {
      await open(s, tab, pickWorkflow(tab));
      return;
    }
    case 'list': {
      await request(s, owner, 'list', 'GET', '/api/workflows');
      return;
    }
    case 'export': {
      await request(
        s,
        owner,
        'export',
        'GET',
        `/api/workflows/${tab.current?.id ?? pickWorkflow(tab)}/export`,
      );
      return;
    }
    case 'revisions': {
      const reply = await request(
        s,
        owner,
        'revisions',
        'GET',
        `/api/workflows/${tab.current?.id ?? pickWorkflow(tab)}/revisions?limit=50`,
      );
      const retention = (reply.json as { retention?: number } | undefined)?.retention;
      if (typeof retention === 'number') s.result.retention = retention;
      return;
    }
    case 'revision': {
      // The version the tab holds: what the history panel opens first.
      if (!tab.current) return open(s, tab, pickWorkflow(tab)).then(() => undefined);
      await request(
        s,
        owner,
        'revision',
        'GET',
        `/api/workflows/${tab.current.id}/revisions/${tab.current.version}`,
      );
      return;
    }
    case 'create': {
      if (!tab.second) await create(s, owner, tab.random);
      return;
    }
  }
}

/**
 * The owners of a run, each made the caller asked for (signed up, with a token, or a guest whose
 * cookie its first request issues: callers.ts) and given its workflows.
 */
async function setUpOwners(
  s: SimState,
): Promise<{ owners: Owner[]; nodes: number; bytes: number; callerErrors: number }> {
  const { opts } = s;
  const owners: Owner[] = Array.from({ length: opts.owners }, (_, index) => ({
    index,
    credentials: { cookie: '' },
    workflows: [],
    createdAt: [],
  }));
  let nodes = 0;
  let bytes = 0;
  let callerErrors = 0;
  const runId = randomBytes(4).toString('hex');
  const post = (path: string, body: unknown, credentials: Credentials) =>
    s.client.send(
      'POST',
      path,
      {
        accept: 'application/json',
        'content-type': 'application/json',
        origin: opts.baseUrl, // what a browser sends (lib/http/csrf.ts)
        ...getCallerHeaders(credentials),
      },
      JSON.stringify(body),
      opts.timeoutMs,
    );
  await Promise.all(
    owners.map(async (owner) => {
      try {
        await setUpCaller(opts.callers, owner.index, runId, post, owner.credentials);
      } catch (error) {
        callerErrors += 1;
        if (s.result.samples.length < 10)
          s.result.samples.push(
            `setting up owner ${owner.index} as ${opts.callers}: ${(error as Error).message}`,
          );
        return;
      }
      const random = createRandom(opts.seed * 7919 + owner.index);
      // A guest's first request issues its cookie, as the first page visit does; creates are then
      // counted against the owner, not the shared client address (lib/http/rate-limit.ts).
      await request(s, owner, 'list', 'GET', '/api/workflows');
      for (let i = 0; i < opts.workflowsPerOwner; i++) {
        const made = await create(s, owner, random);
        if (made) {
          nodes += made.nodes;
          bytes += made.bytes;
        }
      }
    }),
  );
  return { owners, nodes, bytes, callerErrors };
}

/** Runs the setup (owners and their workflows) and then the timed mix; see the module comment. */
export async function simulate(
  opts: SimulationOptions,
  recorder: Recorder,
  log: (line: string) => void,
): Promise<SimulationResult> {
  const s: SimState = {
    opts,
    recorder,
    gate: new Semaphore(opts.concurrency),
    client: createHttpClient(opts.baseUrl, opts.concurrency),
    acks: [],
    highestAck: new Map(),
    workflowIds: [],
    requests: 0,
    deadline: Number.POSITIVE_INFINITY,
    stoppedBy: 'time',
    result: {
      conflictsResolved: 0,
      conflictsAbandoned: 0,
      bogusConflicts: 0,
      staleReads: 0,
      retention: undefined,
      samples: [],
    },
  };

  // ---- setup: one caller per owner, its workflows created ----
  const setupStarted = performance.now();
  const { owners, nodes: setupNodes, bytes: setupBytes, callerErrors } = await setUpOwners(s);
  const setupMs = performance.now() - setupStarted;
  const ready = owners.filter(
    (o) => (o.credentials.cookie || o.credentials.bearer) && o.workflows.length > 0,
  );
  if (ready.length < owners.length) log(`load: ${owners.length - ready.length} owners could not be set up`);
  const setupCounts = recorder.resetForMeasurement(performance.now());
  const setupWorkflows = s.workflowIds.length;

  // ---- the timed mix ----
  const tabs: Tab[] = [];
  const sharedEvery = opts.twoTabShare > 0 ? Math.max(1, Math.round(1 / opts.twoTabShare)) : 0;
  let sharedOwners = 0;
  for (const owner of ready) {
    const isShared = sharedEvery > 0 && owner.index % sharedEvery === 0;
    const focus = isShared ? owner.workflows[0] : undefined;
    tabs.push({ owner, random: createRandom(opts.seed * 104729 + owner.index * 2), focus });
    if (isShared) {
      sharedOwners += 1;
      tabs.push({
        owner,
        random: createRandom(opts.seed * 104729 + owner.index * 2 + 1),
        focus,
        second: true,
      });
    }
  }
  log(
    `load: ${ready.length} owners (${opts.callers}), ${tabs.length} tabs (${sharedOwners} owners edit one workflow in two tabs), ${s.workflowIds.length} workflows set up in ${(setupMs / 1000).toFixed(1)} s; running ${opts.seconds} s…`,
  );
  s.requests = 0;
  const startedAt = performance.now();
  s.deadline = startedAt + opts.seconds * 1000;
  const progress = setInterval(() => {
    const elapsed = (performance.now() - startedAt) / 1000;
    log(`load: ${elapsed.toFixed(0)} s, ${s.requests} requests, ${s.acks.length} acknowledged writes`);
  }, 30_000);
  try {
    await Promise.all(
      tabs.map(async (tab) => {
        while (!isStopping(s)) {
          await step(s, tab);
          if (opts.thinkMs > 0) await new Promise((r) => setTimeout(r, tab.random.int(2 * opts.thinkMs)));
        }
      }),
    );
  } finally {
    clearInterval(progress);
    s.client.close();
  }
  const endedAt = performance.now();
  return {
    acks: s.acks,
    workflowIds: s.workflowIds,
    startedAt,
    endedAt,
    setup: {
      requests: setupCounts.requests,
      errors: setupCounts.errors + callerErrors,
      ms: setupMs,
      workflows: setupWorkflows,
      nodes: setupNodes,
      bytes: setupBytes,
    },
    tabs: tabs.length,
    sharedOwners,
    ...s.result,
    stoppedBy: s.stoppedBy,
  };
}
