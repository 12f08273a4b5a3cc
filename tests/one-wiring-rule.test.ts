/**
 * One typed-wiring rule on every road that writes a document (lib/workflow/typed-wiring.ts):
 * the same edge is accepted, or refused with the same reason, by the editor's store, the
 * planner, `toolflow build`, and the API's create, save (PUT), import, restore and fork. The
 * accepted edge wires an int output into a float input (every int is a float); the refused one
 * wires the same int output into a str input.
 *
 * A workflow stored before every road refused such an edge still opens: the edge shows as an
 * error on the input it feeds, and a test-run will not call that step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as create } from '@/app/api/workflows/route';
import { GET as read, PUT as save } from '@/app/api/workflows/[id]/route';
import { GET as exportFile } from '@/app/api/workflows/[id]/export/route';
import { POST as importFile } from '@/app/api/workflows/import/route';
import { POST as restore } from '@/app/api/workflows/[id]/revisions/[version]/restore/route';
import { GET as preflight } from '@/app/api/workflows/[id]/runs/preflight/route';
import { POST as share } from '@/app/api/workflows/[id]/shares/route';
import { POST as fork } from '@/app/api/shares/[token]/fork/route';
import { runCli } from '@/bin/cli';
import { createWorkflow } from '@/lib/db/workflows';
import { loadEditorCommands } from '@/lib/editor/load-commands';
import { selectNodeView } from '@/lib/editor/selectors';
import { createEditorStore } from '@/lib/editor/store';
import { runPlanner } from '@/lib/planner';
import { call, createScriptedPort, end } from '@/lib/planner/__fixtures__/scripted-port';
import type { PlanEvent } from '@/lib/planner/types';
import { hashDeclaration } from '@/lib/tools/canonical-json';
import type { ToolDeclaration } from '@/lib/tools/types';
import { exportWorkflow } from '@/lib/workflow/export';
import { asEdgeId, asNodeId, type WorkflowDocument } from '@/lib/workflow/types';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { createMemoryIo } from '@/bin/__fixtures__/memory-io';

const countItems: ToolDeclaration = {
  name: 'count_items',
  description: 'Counts the items in a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  outputSchema: { type: 'object', properties: { count: { type: 'integer' } } },
  // A server no machine has: the pre-flight looks it up and finds nothing, without a network.
  source: { kind: 'mcp-stdio', server: 'no-such-server', toolkit: 'Test' },
};
const search: ToolDeclaration = {
  name: 'search',
  description: 'Searches',
  inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number' } } },
  source: { kind: 'mcp-stdio', server: 'no-such-server', toolkit: 'Test' },
};
const TOOLS = [countItems, search];

/** Two steps and no edge. */
const base: WorkflowDocument = {
  task: 'count, then search',
  nodes: [
    { id: asNodeId('step_1'), tool: 'count_items', position: { x: 0, y: 0 }, args: { path: 'a.txt' } },
    { id: asNodeId('step_2'), tool: 'search', position: { x: 300, y: 0 }, args: { query: 'x', limit: 5 } },
  ],
  edges: [],
  tools: Object.fromEntries(TOOLS.map((t) => [t.name, { declaration: t, hash: hashDeclaration(t) }])),
};

/** `base` with the edge step_1.count → step_2.<input> (written as it is, never checked). */
function withEdge(input: string): WorkflowDocument {
  const { [input]: _fed, ...args } = base.nodes[1].args;
  return {
    ...base,
    nodes: [base.nodes[0], { ...base.nodes[1], args }],
    edges: [
      {
        id: asEdgeId(`step_1.count->step_2.${input}`),
        source: asNodeId('step_1'),
        sourceOutput: 'count',
        target: asNodeId('step_2'),
        targetInput: input,
      },
    ],
  };
}

const ACCEPTED = 'limit';
const REFUSED = 'query';
const CLASH = 'Output "count" is int but input "query" takes str';

/** What a road did with the edge: accepted, or refused with the reason (and where, if it says). */
type Outcome = { accepted: true } | { accepted: false; clash: boolean; path?: string };

/** A refusal as an outcome: does its message name the clash of the two types? */
const refused = (message: string, path?: string): Outcome => ({
  accepted: false,
  clash: message.includes(CLASH),
  ...(path !== undefined ? { path } : {}),
});

/** A 400/422 answer of the API as an outcome, with the JSON path of its type_mismatch issue. */
async function fromResponse(res: Response, status: number): Promise<Outcome> {
  if (res.status === status) return { accepted: true };
  const body = await res.json();
  const issue = (body.issues ?? []).find((i: { code?: string }) => i.code === 'type_mismatch');
  return refused(`${body.message}`, issue?.path);
}

// ---- the roads that make an edge from a connection ----

async function byEditor(input: string): Promise<Outcome> {
  const store = createEditorStore({
    meta: { id: 'wf', name: 'Test', version: 1, readOnly: false },
    doc: base,
  });
  const result = store.getState().connect({
    source: asNodeId('step_1'),
    sourceOutput: 'count',
    target: asNodeId('step_2'),
    targetInput: input,
  });
  if (!result) throw new Error('the commands were not loaded');
  return result.ok ? { accepted: true } : refused(result.error);
}

async function byPlanner(input: string): Promise<Outcome> {
  const port = createScriptedPort([
    [
      call('connect', { source: 'step_1', source_output: 'count', target: 'step_2', target_input: input }),
      end(),
    ],
  ]);
  const events: PlanEvent[] = [];
  for await (const event of runPlanner({ task: base.task, tools: TOOLS, document: base }, port))
    events.push(event);
  const done = events.find((e) => e.type === 'done');
  if (done?.type !== 'done') throw new Error('the planner did not finish');
  if (done.edges.some((e) => e.targetInput === input)) return { accepted: true };
  const error = events.find((e) => e.type === 'error');
  return refused(error?.type === 'error' ? error.message : '');
}

async function byBuild(input: string): Promise<Outcome> {
  const plan = {
    task: base.task,
    steps: [
      { id: 'step_1', tool: 'count_items', args: { path: 'a.txt' } },
      { id: 'step_2', tool: 'search', args: { query: 'x', limit: 5 } },
    ],
    edges: [{ source: 'step_1', source_output: 'count', target: 'step_2', target_input: input }],
  };
  const { io, out } = createMemoryIo({
    'tools.json': JSON.stringify({ tools: TOOLS }),
    'plan.json': JSON.stringify(plan),
  });
  const code = await runCli(['build', '--tools', 'tools.json', '--plan', 'plan.json'], io);
  if (code === 0) return { accepted: true };
  const path = /plan\.json (\S+):/.exec(out.stderr)?.[1];
  return refused(out.stderr, path);
}

// ---- the roads that store a whole document ----

const backends = await getTestBackends();

describe.each(backends)('one typed-wiring rule on every road, on $name', (backend) => {
  let database: TestDatabase;
  let alice: OwnerClient;
  let ownerId: string;

  beforeAll(async () => {
    await loadEditorCommands();
    database = await useTestDatabase(backend);
    alice = createOwnerClient();
    const res = await alice.send(create, 'POST', '/api/workflows', { name: 'First', document: base });
    ownerId = (await res.json()).workflow.ownerId;
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A workflow of Alice's holding `doc` as stored, as an earlier release could have saved it. */
  async function storeUnchecked(doc: WorkflowDocument) {
    return createWorkflow(database.db, { name: 'Stored', document: doc, ownerId });
  }

  async function byCreate(input: string): Promise<Outcome> {
    const res = await alice.send(create, 'POST', '/api/workflows', {
      name: 'Create',
      document: withEdge(input),
    });
    return fromResponse(res, 201);
  }

  async function bySave(input: string): Promise<Outcome> {
    const created = await storeUnchecked(base);
    const res = await alice.send(
      save,
      'PUT',
      `/api/workflows/${created.id}`,
      { version: 1, document: withEdge(input) },
      { id: created.id },
    );
    return fromResponse(res, 200);
  }

  async function byImport(input: string): Promise<Outcome> {
    const file = exportWorkflow(withEdge(input), { id: 'wf_file', name: 'Imported' });
    const res = await alice.send(importFile, 'POST', '/api/workflows/import', file);
    return fromResponse(res, 201);
  }

  async function byRestore(input: string): Promise<Outcome> {
    // Version 1 holds the edge; version 2 is the plain document; version 1 is restored.
    const stored = await storeUnchecked(withEdge(input));
    const saved = await alice.send(save, 'PUT', '', { version: 1, document: base }, { id: stored.id });
    expect(saved.status).toBe(200);
    const res = await alice.send(restore, 'POST', '', { version: 2 }, { id: stored.id, version: '1' });
    return fromResponse(res, 200);
  }

  async function byFork(input: string): Promise<Outcome> {
    const stored = await storeUnchecked(withEdge(input));
    const link = await alice.send(share, 'POST', '', {}, { id: stored.id });
    const { token } = await link.json();
    const res = await createOwnerClient().send(fork, 'POST', '', undefined, { token });
    return fromResponse(res, 201);
  }

  const roads = () =>
    ({
      editor: byEditor,
      planner: byPlanner,
      build: byBuild,
      create: byCreate,
      save: bySave,
      import: byImport,
      restore: byRestore,
      fork: byFork,
    }) satisfies Record<string, (input: string) => Promise<Outcome>>;

  it('accepts an int output wired into a float input on every road', async () => {
    const outcomes: Record<string, Outcome> = {};
    for (const [name, road] of Object.entries(roads())) outcomes[name] = await road(ACCEPTED);
    expect(outcomes).toEqual({
      editor: { accepted: true },
      planner: { accepted: true },
      build: { accepted: true },
      create: { accepted: true },
      save: { accepted: true },
      import: { accepted: true },
      restore: { accepted: true },
      fork: { accepted: true },
    });
  });

  it('refuses an int output wired into a str input on every road, naming both types', async () => {
    const outcomes: Record<string, Outcome> = {};
    for (const [name, road] of Object.entries(roads())) outcomes[name] = await road(REFUSED);
    // Each road points at the edge in what it was given: a plan's edge, the request's document,
    // the imported file, the stored document of the revision or the share.
    expect(outcomes).toEqual({
      editor: { accepted: false, clash: true },
      planner: { accepted: false, clash: true },
      build: { accepted: false, clash: true, path: '/edges/0/target_input' },
      create: { accepted: false, clash: true, path: '/document/edges/0' },
      save: { accepted: false, clash: true, path: '/document/edges/0' },
      import: { accepted: false, clash: true, path: '/edges/0' },
      restore: { accepted: false, clash: true, path: '/edges/0' },
      fork: { accepted: false, clash: true, path: '/edges/0' },
    });
  });

  it('answers create and save with 400, import, restore and fork with 422, each with the edge path', async () => {
    const res = await alice.send(create, 'POST', '/api/workflows', {
      name: 'Create',
      document: withEdge(REFUSED),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('bad_request:document');
    expect(body.message).toContain(`/document/edges/0: ${CLASH}`);
    expect(body.issues).toEqual([
      {
        path: '/document/edges/0',
        code: 'type_mismatch',
        message: `${CLASH}, so "step_1" cannot feed "step_2" through this edge: remove the edge, then set "query" or feed it from an output of type str (or any).`,
      },
    ]);
    const file = exportWorkflow(withEdge(REFUSED), { id: 'wf_file', name: 'Imported' });
    const imported = await alice.send(importFile, 'POST', '/api/workflows/import', file);
    expect([imported.status, (await imported.json()).code]).toEqual([422, 'unprocessable:import']);
  });

  describe('a workflow stored with an edge the rule refuses', () => {
    it('opens unchanged, shows the edge as an error on the input it feeds, and is not run', async () => {
      const stored = await storeUnchecked(withEdge(REFUSED));
      const id = stored.id;

      const got = await alice.send(read, 'GET', '', undefined, { id });
      expect(got.status).toBe(200);
      expect(JSON.stringify((await got.json()).workflow.document)).toBe(JSON.stringify(withEdge(REFUSED)));

      const problem = {
        severity: 'error',
        code: 'type_mismatch',
        message: `${CLASH}, so the edge from "step_1" cannot feed it and a test-run will not call this step: remove the edge, then set "query" or feed it from an output of type str (or any).`,
        param: 'query',
      };
      const exported = await alice.send(exportFile, 'GET', '', undefined, { id });
      expect(exported.status).toBe(200);
      const step2 = (await exported.json()).nodes[1];
      expect(step2.problems).toContainEqual(problem);

      const store = createEditorStore({
        meta: { id, name: 'Stored', version: 1, readOnly: false },
        doc: withEdge(REFUSED),
      });
      expect(selectNodeView(store.getState(), 'step_2')!.problems).toContainEqual(problem);

      const res = await alice.send(preflight, 'GET', `/api/workflows/${id}/runs/preflight`, undefined, {
        id,
      });
      expect(res.status).toBe(200);
      const blocked = (await res.json()).preflight.nodes[1].blocked;
      expect(blocked).toMatchObject({ code: 'type_mismatch', path: '/query' });
      expect(blocked.message).toContain(CLASH);

      // Removing the edge is a save like any other.
      const fixed = await alice.send(save, 'PUT', '', { version: 1, document: base }, { id });
      expect(fixed.status).toBe(200);
    });
  });
});
