/** GET /api/workflows/[id] — read; PUT — save with optimistic concurrency (409 on a stale version). */
import { getPrisma } from '@/lib/db/client';
import { getWorkflow, updateWorkflow } from '@/lib/db/workflows';
import { parseJsonBody } from '@/lib/http/body';
import { AppError, withErrors } from '@/lib/http/errors';
import { getDocumentIntegrityProblems, validateUpdateWorkflow } from '../schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const db = await getPrisma();
  const workflow = await getWorkflow(db, id);
  if (!workflow) throw new AppError('not_found:workflow', `No workflow with id "${id}".`);
  return Response.json({ workflow });
});

export const PUT = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const body = await parseJsonBody(request, validateUpdateWorkflow);
  const problems = getDocumentIntegrityProblems(body.document);
  if (problems.length) throw new AppError('bad_request:document', `Invalid request: ${problems.join('; ')}`);
  const db = await getPrisma();
  const outcome = await updateWorkflow(db, id, {
    expectedVersion: body.version,
    name: body.name,
    task: body.task,
    document: body.document,
  });
  if (outcome.ok) return Response.json({ workflow: outcome.workflow });
  if (outcome.reason === 'not_found')
    throw new AppError('not_found:workflow', `No workflow with id "${id}".`);
  throw new AppError(
    'conflict:version',
    `This workflow changed elsewhere: you saved on top of version ${body.version}, the server has version ${outcome.current.version}. Reload it or keep yours as a new version.`,
    { details: { current: outcome.current } },
  );
});
