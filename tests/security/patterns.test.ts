/**
 * A schema `pattern` cannot freeze the server: one anonymous POST /api/workflows whose document
 * brings its own tool with `^(a+)+$` on a required parameter, and a node value of 40 `a`s and a
 * `!` (about 2^40 steps for a backtracking engine), is created, re-checked on every read
 * (export, preflight, the share link's export, the editor's value problems), imported and
 * planned with, each in well under a second. The value is really checked (its `must match
 * pattern` error is there), and a pattern RE2 cannot express is reported with its path instead.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { hashDeclaration } from '@/lib/tools/canonical-json';
import type { ToolDeclaration } from '@/lib/tools/types';
import { getValueProblems } from '@/lib/workflow/export';
import { asNodeId, type WorkflowDocument } from '@/lib/workflow/types';
import { POST as createWorkflow } from '@/app/api/workflows/route';
import { GET as readWorkflow } from '@/app/api/workflows/[id]/route';
import { GET as exportWorkflow } from '@/app/api/workflows/[id]/export/route';
import { GET as preflight } from '@/app/api/workflows/[id]/runs/preflight/route';
import { POST as createShare } from '@/app/api/workflows/[id]/shares/route';
import { GET as exportShare } from '@/app/api/shares/[token]/export/route';
import { POST as importWorkflow } from '@/app/api/workflows/import/route';
import { POST as plan } from '@/app/api/plan/route';

const backends = await getTestBackends();

/** Well above what these take (a few ms each), far below what backtracking would (hours). */
const BOUND_MS = 1_000;

const CATASTROPHIC = 'a'.repeat(40) + '!';

function declare(pattern: string): ToolDeclaration {
  return {
    name: 't',
    description: '',
    inputSchema: { type: 'object', properties: { x: { type: 'string', pattern } }, required: ['x'] },
  };
}

function documentWith(decl: ToolDeclaration, value: string): WorkflowDocument {
  return {
    task: '',
    nodes: [{ id: asNodeId('n'), tool: 't', position: { x: 0, y: 0 }, args: { x: value } }],
    edges: [],
    tools: { t: { declaration: decl, hash: hashDeclaration(decl) } },
  };
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe.each(backends)('schema patterns from a request on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase(backend);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await database?.close();
  });

  async function create(client: OwnerClient, document: WorkflowDocument) {
    const body = { name: 'r', document };
    const { value: res, ms } = await timed(() => client.send(createWorkflow, 'POST', '/api/workflows', body));
    if (res.status !== 201) throw new Error(await res.text());
    return { id: ((await res.json()) as { workflow: { id: string } }).workflow.id, ms, body };
  }

  it('creates the reproduction at once, and every read of it checks the value at once', async () => {
    const anonymous = createOwnerClient();
    const document = documentWith(declare('^(a+)+$'), CATASTROPHIC);
    const { id, ms, body } = await create(anonymous, document);
    // The request of the report: one small anonymous body.
    expect(JSON.stringify(body).length).toBeLessThan(600);
    expect(ms).toBeLessThan(BOUND_MS);

    const exported = await timed(() => anonymous.send(exportWorkflow, 'GET', '', undefined, { id }));
    expect(exported.ms).toBeLessThan(BOUND_MS);
    const file = await exported.value.json();
    // Checked, not skipped: the value does not match.
    expect(file.nodes[0].problems).toEqual([
      expect.objectContaining({
        code: 'invalid_value',
        param: 'x',
        message: expect.stringContaining('must match pattern'),
      }),
    ]);

    const checked = await timed(() => anonymous.send(preflight, 'GET', '', undefined, { id }));
    expect(checked.value.status).toBe(200);
    expect(checked.ms).toBeLessThan(BOUND_MS);

    const read = await anonymous.send(readWorkflow, 'GET', '', undefined, { id });
    const stored = (await read.json()).workflow.document as WorkflowDocument;
    const editor = await timed(async () => getValueProblems(stored));
    expect(editor.ms).toBeLessThan(BOUND_MS);
    expect(Object.keys(editor.value)).toEqual(['n']);

    const share = await anonymous.send(createShare, 'POST', '', { acknowledgeSecrets: true }, { id });
    expect(share.status).toBe(201);
    const { token } = await share.json();
    const shared = await timed(() =>
      exportShare(new Request(`http://127.0.0.1/api/shares/${token}/export`), {
        params: Promise.resolve({ token }),
      }),
    );
    expect(shared.value.status).toBe(200);
    expect(shared.ms).toBeLessThan(BOUND_MS);

    const imported = await timed(() => anonymous.send(importWorkflow, 'POST', '/api/workflows/import', file));
    expect(imported.value.status).toBe(201);
    expect(imported.ms).toBeLessThan(BOUND_MS);
  });

  it('plans with such a tool at once (the offline planner tests task words against the pattern)', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const planned = await timed(async () => {
      const res = await createOwnerClient().send(plan, 'POST', '/api/plan', {
        task: `Check x with t: "${CATASTROPHIC}"`,
        tools: [{ name: 't', description: 'Checks x.', inputSchema: declare('^(a+)+$').inputSchema }],
      });
      expect(res.status).toBe(200);
      return res.text();
    });
    expect(planned.ms).toBeLessThan(BOUND_MS);
  });

  it('reports a pattern RE2 cannot express on the node, with its path, and never evaluates it', async () => {
    const client = createOwnerClient();
    // A backreference: exponential for a backtracking engine on this value, and not RE2.
    const { id, ms } = await create(client, documentWith(declare('^(a+)+\\1$'), CATASTROPHIC));
    expect(ms).toBeLessThan(BOUND_MS);
    const exported = await timed(() => client.send(exportWorkflow, 'GET', '', undefined, { id }));
    expect(exported.ms).toBeLessThan(BOUND_MS);
    const file = await exported.value.json();
    expect(file.nodes[0].problems).toEqual([
      {
        severity: 'warning',
        code: 'unsupported_pattern',
        param: 'x',
        message: expect.stringContaining('at /properties/x/pattern of tool "t" uses a backreference "\\1"'),
      },
    ]);
    expect(file.nodes[0].problems[0].message).toContain('Values are not checked against it');
  });
});
