/**
 * POST /api/shares/[token]/fork — copies the shared workflow into the caller's own workflows
 * (recording `forkedFromId`); 201 with the copy, which only the caller can change.
 */
import type { WorkflowResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { forkWorkflow } from '@/lib/db/workflows';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { assertCan, getRequestOwner } from '@/lib/http/access';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { assertExportableDocument } from '../../../workflows/schema';
import { requireSharedWorkflow } from '../../shared';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

const forks = createRateLimiter({ name: 'forks', limit: 60, windowMs: 60_000 });

export const POST = withErrors(async (request: Request, context: Context) => {
  const { token } = await context.params;
  assertSameOrigin(request);
  const owner = await getRequestOwner(request);
  assertCan(owner, 'edit', 'fork into this workspace');
  await enforceRateLimit(forks, getRateLimitKey(request, owner), 'forks');
  const db = await getPrisma();
  const { workflow: source } = await requireSharedWorkflow(db, token);
  assertExportableDocument(source.document, {
    at: '',
    what: 'The shared workflow',
    code: 'unprocessable:document',
  });
  const workflow = await forkWorkflow(db, source, owner.id);
  return withOwnerCookie(
    Response.json({ workflow } satisfies WorkflowResponse, {
      status: 201,
      headers: { location: `/api/workflows/${workflow.id}` },
    }),
    owner,
    request,
  );
});
