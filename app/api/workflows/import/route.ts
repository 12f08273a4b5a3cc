/**
 * POST /api/workflows/import — a v1 (or older) export becomes a new workflow of the caller's.
 * 422 lists every problem with its JSON path and writes nothing; over 5 MB gets 413. Nodes whose
 * tool the file does not declare become placeholders that keep their parameters and edges.
 */
import type { ImportWorkflowResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { createWorkflow } from '@/lib/db/workflows';
import { readJson } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { assertCan, getRequestOwner } from '@/lib/http/access';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { getToolSnapshot } from '@/lib/workflow/graph';
import { importWorkflow } from '@/lib/workflow/import';
import { assertExportableDocument } from '../schema';

export const dynamic = 'force-dynamic';

const imports = createRateLimiter({ name: 'imports', limit: 60, windowMs: 60_000 });

export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const owner = await getRequestOwner(request);
  assertCan(owner, 'edit', 'import workflows into this workspace');
  await enforceRateLimit(imports, getRateLimitKey(request, owner), 'imports');
  const json = await readJson(request);
  const imported = importWorkflow(json);
  if (!imported.ok) {
    const issues = imported.error;
    const shown = issues
      .slice(0, 5)
      .map((i) => `${i.path || '(root)'}: ${i.message}`)
      .join('; ');
    throw new AppError(
      'unprocessable:import',
      `The file is not a workflow Toolflow can import (${issues.length} problem${issues.length === 1 ? '' : 's'}): ${shown}${issues.length > 5 ? '; …' : ''}. Fix these in the file and import it again; nothing was saved.`,
      { details: { issues } },
    );
  }
  const { document, meta } = imported.value;
  // Import validated the file; this guards the document built from it, like every other write.
  assertExportableDocument(document, { at: '', what: 'The imported workflow', code: 'unprocessable:import' });
  const db = await getPrisma();
  const workflow = await createWorkflow(db, {
    name: (meta.name || 'Imported workflow').slice(0, 200),
    document,
    ownerId: owner.id,
    reason: 'import',
  });
  const placeholders = document.nodes.filter((n) => !getToolSnapshot(document, n.tool)).map((n) => n.id);
  return withOwnerCookie(
    Response.json({ workflow, placeholders } satisfies ImportWorkflowResponse, {
      status: 201,
      headers: { location: `/api/workflows/${workflow.id}` },
    }),
    owner,
    request,
  );
});
