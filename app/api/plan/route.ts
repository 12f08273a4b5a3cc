/**
 * POST /api/plan — plan a workflow (or edit one) from a task in words, streamed as NDJSON: one
 * PlanEvent per line (`start` names the planner, then `step`, `edge`, `operation`, `warning`,
 * `error`, and `done` with the stop reason), then one `document` line with the workflow the
 * operations give, for API clients that do not apply them themselves. Without `toolkitIds` or
 * `tools` it plans with every toolkit the caller sees. Nothing is saved here: the
 * editor applies the operations as one undoable change and saves as usual.
 */
import { getPrisma } from '@/lib/db/client';
import { listToolkits } from '@/lib/db/toolkits';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { assertCan, getRequestOwner } from '@/lib/http/access';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { createPlannerFromEnv } from '@/lib/llm/env';
import { runPlanner } from '@/lib/planner/loop';
import { applyPlanOperations } from '@/lib/planner/operations';
import { readDeclarations } from '@/lib/toolkits/read';
import type { PlanEvent } from '@/lib/planner/types';
import type { ToolDeclaration } from '@/lib/tools/types';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { declarationsError, requireToolkit } from '../toolkits/access';
import { assertExportableDocument } from '../workflows/schema';
import { loadOwnedWorkflow, requireOwnedWorkflow } from '../workflows/access';
import { validatePlanRequest } from './schema';

export const dynamic = 'force-dynamic';

// A planning run may call a paid model several times: keep a runaway script in check.
const runs = createRateLimiter({ name: 'planning-runs', limit: 30, windowMs: 60_000 });

export const POST = withErrors(async (request: Request) => {
  // parse
  assertSameOrigin(request);
  const body = await parseJsonBody(request, validatePlanRequest);

  // authorize
  const owner = await getRequestOwner(request);
  assertCan(owner, 'edit', 'plan in this workspace');
  await enforceRateLimit(runs, getRateLimitKey(request, owner), 'planning runs');

  // load
  const db = await getPrisma();
  const tools: ToolDeclaration[] = [];
  if (body.toolkitIds === undefined && body.tools === undefined) {
    // Neither named: every toolkit the caller sees (the built-ins and theirs), as the home page does.
    for (const toolkit of await listToolkits(db, { ownerId: owner.isNew ? null : owner.id }))
      tools.push(...toolkit.tools);
  }
  for (const id of body.toolkitIds ?? []) {
    tools.push(...(await requireToolkit(db, id, owner, 'plan with', 'read')).tools);
  }
  if (body.tools !== undefined) {
    const read = readDeclarations({ declarations: body.tools }, 'request');
    if (!read.ok) throw declarationsError(read.error.map((i) => ({ ...i, path: `/tools${i.path}` })));
    tools.push(...read.value.tools);
  }
  let document: WorkflowDocument | undefined = body.document;
  if (body.workflowId !== undefined) {
    if (document) await requireOwnedWorkflow(request, body.workflowId, 'plan in', 'edit', { link: true });
    else
      document = (await loadOwnedWorkflow(request, body.workflowId, 'plan in', 'edit', { link: true }))
        .workflow.document;
  }
  if (document)
    assertExportableDocument(document, { at: body.document ? '/document' : '', what: 'The document' });
  if (tools.length === 0 && Object.keys(document?.tools ?? {}).length === 0) {
    throw new AppError(
      'bad_request:tools',
      'There are no tools to plan with: send "toolkitIds" (see GET /api/toolkits) or "tools" (declarations in any supported format).',
    );
  }
  const planner = createPlannerFromEnv(process.env, body.llm ?? 'auto');
  if (!planner.ok) throw new AppError('unavailable:planner', planner.error);

  // act
  const base: WorkflowDocument = document ?? { task: body.task, nodes: [], edges: [], tools: {} };
  const events = runPlanner(
    { task: body.task, tools, ...(document ? { document } : {}) },
    planner.value.port,
    {
      signal: request.signal,
      ...(body.maxIterations ? { maxIterations: body.maxIterations } : {}),
    },
  );
  const encoder = new TextEncoder();
  // Once the client goes away (Cancel, closed tab) the stream is closed: stop writing to it.
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: unknown) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(JSON.stringify(line) + '\n'));
        } catch {
          open = false;
        }
      };
      try {
        let done: Extract<PlanEvent, { type: 'done' }> | undefined;
        for await (const event of events) {
          send(event);
          if (event.type === 'done') done = event;
        }
        if (done) {
          const next = applyPlanOperations(base, done.operations, tools);
          send(
            next.ok
              ? { type: 'document', document: next.value }
              : { type: 'error', code: 'apply_failed', message: next.error.map((i) => i.message).join(' ') },
          );
        }
      } catch (error) {
        // The loop reports model failures as events; this is a bug, said without internals.
        console.error('Planning stream failed:', error);
        send({
          type: 'error',
          code: 'internal',
          message: 'Planning failed on the server. The error was logged; try again.',
        });
      } finally {
        if (open) {
          open = false;
          controller.close();
        }
      }
    },
    cancel() {
      open = false;
    },
  });

  // respond
  return withOwnerCookie(
    new Response(stream, {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'x-toolflow-planner': planner.value.kind,
      },
    }),
    owner,
    request,
  );
});
