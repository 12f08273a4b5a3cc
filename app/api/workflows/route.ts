/** GET /api/workflows — list; POST /api/workflows — create. */
import { getPrisma } from '@/lib/db/client';
import { createWorkflow, listWorkflows } from '@/lib/db/workflows';
import { parseJsonBody } from '@/lib/http/body';
import { AppError, withErrors } from '@/lib/http/errors';
import { getDocumentIntegrityProblems, validateCreateWorkflow } from './schema';

export const dynamic = 'force-dynamic';

export const GET = withErrors(async () => {
  const db = await getPrisma();
  const workflows = await listWorkflows(db);
  return Response.json({ workflows });
});

export const POST = withErrors(async (request: Request) => {
  const body = await parseJsonBody(request, validateCreateWorkflow);
  if (body.document) {
    const problems = getDocumentIntegrityProblems(body.document);
    if (problems.length)
      throw new AppError('bad_request:document', `Invalid request: ${problems.join('; ')}`);
  }
  const db = await getPrisma();
  const workflow = await createWorkflow(db, body);
  return Response.json({ workflow }, { status: 201, headers: { location: `/api/workflows/${workflow.id}` } });
});
