/** GET /api/toolkits/[id] — one toolkit with its tools; DELETE — remove one of mine. */
import type { ToolkitResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { deleteToolkit } from '@/lib/db/toolkits';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { getConfiguredServerNames } from '@/lib/mcp/config';
import { requireToolkit, toolkitNotFound, toToolkitJson } from '../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  const toolkit = await requireToolkit(db, id, owner, 'open', 'read');
  return Response.json({
    toolkit: toToolkitJson(toolkit, await getConfiguredServerNames()),
  } satisfies ToolkitResponse);
});

export const DELETE = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  await requireToolkit(db, id, owner, 'delete', 'write');
  if (!(await deleteToolkit(db, id))) throw toolkitNotFound(id);
  return new Response(null, { status: 204 });
});
